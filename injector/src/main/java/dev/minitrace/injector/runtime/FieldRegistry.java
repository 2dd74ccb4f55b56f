package dev.minitrace.injector.runtime;

import dev.minitrace.events.FieldDefinitionEvent;

/**
 * The fields that instrumented reference stores name: an id per field, given when a class with a
 * store to it is rewritten, resolved by {@link FieldDefinitionEvent}s committed then and again at
 * every chunk boundary. A field is keyed by the class the store instruction names, its name and
 * descriptor; classes of one name from different loaders share the id (the key has no loader).
 */
public final class FieldRegistry {
    private static final Object LOCK = new Object();
    private static final java.util.Map<String, Integer> IDS = new java.util.HashMap<>();
    private static String[] classNames = new String[256];
    private static String[] names = new String[256];
    private static String[] descriptors = new String[256];
    private static boolean[] statics = new boolean[256];
    private static int count;

    private FieldRegistry() {
    }

    /** The id of field {@code name descriptor} of {@code owner} (internal name, slashes), defining it the first time. */
    public static int idFor(String owner, String name, String descriptor, boolean isStatic) {
        String key = owner + '.' + name + ':' + descriptor;
        int id;
        String className = owner.replace('/', '.');
        synchronized (LOCK) {
            Integer known = IDS.get(key);
            if (known != null) {
                return known;
            }
            id = count++;
            if (id == names.length) {
                classNames = java.util.Arrays.copyOf(classNames, id * 2);
                names = java.util.Arrays.copyOf(names, id * 2);
                descriptors = java.util.Arrays.copyOf(descriptors, id * 2);
                statics = java.util.Arrays.copyOf(statics, id * 2);
            }
            classNames[id] = className;
            names[id] = name;
            descriptors[id] = descriptor;
            statics[id] = isStatic;
            IDS.put(key, id);
        }
        if (Enablement.jfrReady()) {
            commit(id, className, name, descriptor, isStatic);
        }
        return id;
    }

    /** {@code {className, fieldName, descriptor}} of id {@code id}, or null. */
    public static String[] describe(int id) {
        synchronized (LOCK) {
            return id < 0 || id >= count ? null : new String[] {classNames[id], names[id], descriptors[id]};
        }
    }

    /** Commits a definition for every field id (JFR's periodic hook, at every chunk boundary). */
    static void commitAll() {
        String[] c;
        String[] n;
        String[] d;
        boolean[] st;
        int size;
        synchronized (LOCK) {
            size = count;
            c = java.util.Arrays.copyOf(classNames, size);
            n = java.util.Arrays.copyOf(names, size);
            d = java.util.Arrays.copyOf(descriptors, size);
            st = java.util.Arrays.copyOf(statics, size);
        }
        for (int id = 0; id < size; id++) {
            commit(id, c[id], n[id], d[id], st[id]);
        }
    }

    private static void commit(int id, String className, String name, String descriptor, boolean isStatic) {
        FieldDefinitionEvent e = new FieldDefinitionEvent();
        if (e.shouldCommit()) {
            e.fieldId = id;
            e.className = className;
            e.fieldName = name;
            e.descriptor = descriptor;
            e.isStatic = isStatic;
            e.commit();
        }
    }
}
