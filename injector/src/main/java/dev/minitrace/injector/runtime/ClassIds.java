package dev.minitrace.injector.runtime;

import dev.minitrace.events.ClassDefinitionEvent;
import java.lang.ref.WeakReference;

/**
 * Small ids for the classes of monitors and allocated objects, as buffered object records carry
 * them (a JFR {@code Class} field would need a JFR event per record). The first use of a class
 * gives it an id and commits its {@link ClassDefinitionEvent}; {@link #commitAll} commits every
 * definition again at each chunk boundary, so that every chunk resolves its own ids. The
 * definitions carry the sizes of the class's objects ({@link ObjectSizes}) once known.
 */
final class ClassIds {
    private static final Object LOCK = new Object();
    private static String[] names = new String[256];
    /** Per id: {instance size or array base, element size, alignment}; zeros until measured. */
    private static int[][] sizes = new int[256][];
    private static int count;

    /** A class's id, held by the class itself (ClassValue), so a lookup is a map probe, no lock. */
    private static final ClassValue<Id> IDS = new ClassValue<>() {
        @Override
        protected Id computeValue(Class<?> type) {
            return register(type);
        }
    };

    /**
     * The fast paths' view of {@link #IDS}: a direct-mapped table by the class's identity hash of
     * classes already given an id, each held weakly (a class loader must stay collectable). A
     * lookup runs only the agent's own code, intrinsics and {@code java.lang.ref}, which no filter
     * can rewrite, so a hook may use it without its busy flag; {@code ClassValue}'s code it may
     * not, as an included JDK class could record inside it. A miss (a class met first, a slot
     * taken by another class, a cleared reference, a racy read of a slot being filled) sends the
     * record to the general path, which fills the slot.
     */
    private static final Known[] KNOWN = new Known[1024];

    /** A slot of {@link #KNOWN}: the class, weakly, and its id. */
    static final class Known extends WeakReference<Class<?>> {
        final Id id;

        Known(Class<?> type, Id id) {
            super(type);
            this.id = id;
        }
    }

    /** Boxed once per class, never per record. */
    static final class Id {
        final int value;
        /** Whether the definition carries the class's sizes (arrays: at once; others: after an instance was measured). */
        volatile boolean measured;

        Id(int value, boolean measured) {
            this.value = value;
            this.measured = measured;
        }
    }

    private ClassIds() {
    }

    /** The id of {@code type}, registering it (and committing its definition) the first time. */
    static int of(Class<?> type) {
        Id id = IDS.get(type);
        remember(type, id);
        return id.value;
    }

    /**
     * The id of {@code type} if a general lookup ({@link #of}, {@link #ofAllocated}) has cached it
     * (then its {@link Id#measured} tells whether the definition has the sizes), else null; for
     * the hooks' fast paths, which call nothing a filter can rewrite.
     */
    static Id known(Class<?> type) {
        Known k = KNOWN[System.identityHashCode(type) & (KNOWN.length - 1)];
        return k != null && k.refersTo(type) ? k.id : null;
    }

    private static void remember(Class<?> type, Id id) {
        int slot = System.identityHashCode(type) & (KNOWN.length - 1);
        Known k = KNOWN[slot];
        if (k == null || !k.refersTo(type)) {
            KNOWN[slot] = new Known(type, id);
        }
    }

    /**
     * The id of the class of {@code allocated}, a newly allocated object; the first time an instance
     * of a class is seen this way its size is measured and the definition committed again with it.
     */
    static int ofAllocated(Object allocated) {
        Class<?> type = allocated.getClass();
        Id id = IDS.get(type);
        if (!id.measured) {
            measure(id, allocated);
        }
        remember(type, id);
        return id.value;
    }

    private static void measure(Id id, Object instance) {
        int[] size = {ObjectSizes.of(instance), 0, ObjectSizes.alignment()};
        String name;
        synchronized (LOCK) {
            if (id.measured) {
                return;
            }
            sizes[id.value] = size;
            name = names[id.value];
            id.measured = true;
        }
        if (Enablement.jfrReady()) {
            commit(id.value, name, size);
        }
    }

    private static Id register(Class<?> type) {
        String name = type.getName();
        boolean array = type.isArray();
        int[] size = {0, 0, 0};
        if (array) {
            int[] layout = ObjectSizes.arrayLayout(type);
            size = new int[] {layout[0], layout[1], layout[1] > 0 ? ObjectSizes.alignment() : 0};
        }
        int id;
        synchronized (LOCK) {
            id = count++;
            if (id == names.length) {
                names = java.util.Arrays.copyOf(names, id * 2);
                sizes = java.util.Arrays.copyOf(sizes, id * 2);
            }
            names[id] = name;
            sizes[id] = size;
        }
        if (Enablement.jfrReady()) {
            commit(id, name, size);
        }
        return new Id(id, array);
    }

    /** Commits a definition for every class id (JFR's periodic hook, at every chunk boundary). */
    static void commitAll() {
        String[] snapshot;
        int[][] sizeSnapshot;
        int n;
        synchronized (LOCK) {
            n = count;
            snapshot = java.util.Arrays.copyOf(names, n);
            sizeSnapshot = java.util.Arrays.copyOf(sizes, n);
        }
        for (int id = 0; id < n; id++) {
            commit(id, snapshot[id], sizeSnapshot[id]);
        }
    }

    private static void commit(int id, String name, int[] size) {
        ClassDefinitionEvent e = new ClassDefinitionEvent();
        if (e.shouldCommit()) {
            e.classId = id;
            e.className = name;
            e.instanceSize = size[0];
            e.elementSize = size[1];
            e.objectAlignment = size[2];
            e.commit();
        }
    }
}
