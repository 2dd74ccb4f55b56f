package dev.minitrace.injector.runtime;

import dev.minitrace.events.ClassDefinitionEvent;

/**
 * Small ids for the classes of monitors and allocated objects, as buffered object records carry
 * them (a JFR {@code Class} field would need a JFR event per record). The first use of a class
 * gives it an id and commits its {@link ClassDefinitionEvent}; {@link #commitAll} commits every
 * definition again at each chunk boundary, so that every chunk resolves its own ids.
 */
final class ClassIds {
    private static final Object LOCK = new Object();
    private static String[] names = new String[256];
    private static int count;

    /** A class's id, held by the class itself (ClassValue), so a lookup is a map probe, no lock. */
    private static final ClassValue<Id> IDS = new ClassValue<>() {
        @Override
        protected Id computeValue(Class<?> type) {
            return register(type);
        }
    };

    /** Boxed once per class, never per record. */
    private static final class Id {
        final int value;

        Id(int value) {
            this.value = value;
        }
    }

    private ClassIds() {
    }

    /** The id of {@code type}, registering it (and committing its definition) the first time. */
    static int of(Class<?> type) {
        return IDS.get(type).value;
    }

    private static Id register(Class<?> type) {
        String name = type.getName();
        int id;
        synchronized (LOCK) {
            id = count++;
            if (id == names.length) {
                names = java.util.Arrays.copyOf(names, id * 2);
            }
            names[id] = name;
        }
        if (Enablement.jfrReady()) {
            commit(id, name);
        }
        return new Id(id);
    }

    /** Commits a definition for every class id (JFR's periodic hook, at every chunk boundary). */
    static void commitAll() {
        String[] snapshot;
        int n;
        synchronized (LOCK) {
            n = count;
            snapshot = java.util.Arrays.copyOf(names, n);
        }
        for (int id = 0; id < n; id++) {
            commit(id, snapshot[id]);
        }
    }

    private static void commit(int id, String name) {
        ClassDefinitionEvent e = new ClassDefinitionEvent();
        if (e.shouldCommit()) {
            e.classId = id;
            e.className = name;
            e.commit();
        }
    }
}
