package dev.minitrace.injector.runtime;

import dev.minitrace.events.ClassDefinitionEvent;

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

    /** Boxed once per class, never per record. */
    private static final class Id {
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
        return IDS.get(type).value;
    }

    /**
     * The id of the class of {@code allocated}, a newly allocated object; the first time an instance
     * of a class is seen this way its size is measured and the definition committed again with it.
     */
    static int ofAllocated(Object allocated) {
        Id id = IDS.get(allocated.getClass());
        if (!id.measured) {
            measure(id, allocated);
        }
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
