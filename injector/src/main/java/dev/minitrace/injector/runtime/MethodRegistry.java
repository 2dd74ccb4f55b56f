package dev.minitrace.injector.runtime;

import dev.minitrace.events.MethodDefinitionEvent;

/**
 * The global table of traced methods: ids are reserved in blocks while a class is rewritten and
 * defined once the rewritten class is accepted. Arrays grow under a lock; readers take a snapshot
 * (the arrays and the count) under the same lock and read it without locking.
 */
public final class MethodRegistry {
    private static final Object LOCK = new Object();
    private static String[] classNames = new String[1024];
    private static String[] methodNames = new String[1024];
    private static String[] descriptors = new String[1024];
    private static int[] modifiers = new int[1024];
    /** Ids below this have been reserved; a reserved id whose class name is null is not defined. */
    private static int reserved;
    /**
     * Per class loader (weakly, so that unloading frees it), the id of each method ever traced,
     * keyed {@code className.name descriptor}: a class rewritten again (a recording's filter
     * changed its selection) keeps its methods' ids, so a log names each method once.
     */
    private static final java.util.Map<ClassLoader, LoaderIds> IDS = new java.util.WeakHashMap<>();
    /** The bootstrap loader's ids (a WeakHashMap key cannot be null), never unloaded. */
    private static java.util.Map<String, Integer> bootIds = new java.util.HashMap<>();
    /**
     * Loaders that were collected: their classes are gone, so their methods' definitions need not
     * be held or committed into every chunk any more. Without this, an application that defines and
     * drops classes all the time (proxies, generated code) grows the table and every chunk's
     * definitions without bound (docs/performance.md, class churn).
     */
    private static final java.lang.ref.ReferenceQueue<ClassLoader> GONE = new java.lang.ref.ReferenceQueue<>();
    /** Keeps the references themselves reachable until their loader is gone. */
    private static final java.util.Set<LoaderIds> LIVE = new java.util.HashSet<>();
    /** Ids of collected loaders, each batch with the {@link #commitAll} count when it was found. */
    private static final java.util.ArrayDeque<long[]> RETIRING = new java.util.ArrayDeque<>();
    /**
     * {@link #commitAll} runs at the end and the start of each chunk: a definition is still committed
     * for this many more calls after its loader was found gone, so that records of its methods
     * flushed late still find it in their chunk.
     */
    private static final int GRACE_CALLS = 3;
    private static long commitAllCalls;

    /** One loader's method ids, referring to the loader weakly. */
    private static final class LoaderIds extends java.lang.ref.WeakReference<ClassLoader> {
        final java.util.Map<String, Integer> byMethod = new java.util.HashMap<>();

        LoaderIds(ClassLoader loader) {
            super(loader, GONE);
        }
    }

    private MethodRegistry() {
    }

    /**
     * Reserves {@code count} consecutive ids.
     *
     * @return the first of them
     */
    public static int reserve(int count) {
        synchronized (LOCK) {
            int first = reserved;
            int needed = first + count;
            if (needed > classNames.length) {
                int size = Math.max(needed, classNames.length * 2);
                classNames = java.util.Arrays.copyOf(classNames, size);
                methodNames = java.util.Arrays.copyOf(methodNames, size);
                descriptors = java.util.Arrays.copyOf(descriptors, size);
                modifiers = java.util.Arrays.copyOf(modifiers, size);
            }
            reserved = needed;
            return first;
        }
    }

    /**
     * The id of method {@code name descriptor} of {@code className} (dots) defined by
     * {@code loader} (null: the bootstrap loader): the one it had when the class was rewritten
     * before, else a new one.
     */
    public static int idFor(ClassLoader loader, String className, String name, String descriptor) {
        synchronized (LOCK) {
            retireCollected();
            java.util.Map<String, Integer> byMethod;
            if (loader == null) {
                byMethod = bootIds;
            } else {
                LoaderIds ids = IDS.get(loader);
                if (ids == null) {
                    ids = new LoaderIds(loader);
                    IDS.put(loader, ids);
                    LIVE.add(ids);
                }
                byMethod = ids.byMethod;
            }
            String key = className + '.' + name + descriptor;
            Integer id = byMethod.get(key);
            if (id == null) {
                id = reserve(1);
                byMethod.put(key, id);
            }
            return id;
        }
    }

    /** Defines a reserved id; {@code className} uses dots. */
    public static void define(int id, String className, String methodName, String descriptor, int access) {
        synchronized (LOCK) {
            if (id < 0 || id >= reserved) {
                throw new IllegalArgumentException("method id " + id + " was never reserved (reserved: " + reserved + ")");
            }
            classNames[id] = className;
            methodNames[id] = methodName;
            descriptors[id] = descriptor;
            modifiers[id] = access;
        }
    }

    /**
     * Forgets every definition once no class uses the ids any more (an attached agent restored
     * the original classes); ids are never reused, so a later attach reserves fresh ones.
     */
    public static void forgetAll() {
        synchronized (LOCK) {
            IDS.clear();
            LIVE.clear();
            RETIRING.clear();
            bootIds = new java.util.HashMap<>();
            java.util.Arrays.fill(classNames, null);
            java.util.Arrays.fill(methodNames, null);
            java.util.Arrays.fill(descriptors, null);
        }
    }

    /** {@code {className, methodName, descriptor}} of a defined id, or null. */
    public static String[] describe(int id) {
        synchronized (LOCK) {
            if (id < 0 || id >= reserved || classNames[id] == null) {
                return null;
            }
            return new String[] {classNames[id], methodNames[id], descriptors[id]};
        }
    }

    /** The number of reserved ids (defined or not). */
    public static int size() {
        synchronized (LOCK) {
            return reserved;
        }
    }

    /**
     * Commits one {@link MethodDefinitionEvent} for the defined id {@code id}; false if it is not
     * defined or JFR is not initialized yet (then no recording exists, and the periodic hook will
     * commit it in every chunk of any later recording).
     */
    public static boolean commitDefinition(int id) {
        if (!Enablement.jfrReady()) {
            return false;
        }
        String cls;
        String name;
        String desc;
        int access;
        synchronized (LOCK) {
            if (id < 0 || id >= reserved || classNames[id] == null) {
                return false;
            }
            cls = classNames[id];
            name = methodNames[id];
            desc = descriptors[id];
            access = modifiers[id];
        }
        commit(id, cls, name, desc, access);
        return true;
    }

    /**
     * Commits a definition event for every defined id. Called by JFR's periodic hook (at the start
     * and end of every chunk) and by the agent's re-emitter.
     */
    public static void commitAll() {
        String[] cls;
        String[] names;
        String[] descs;
        int[] access;
        int count;
        synchronized (LOCK) {
            commitAllCalls++;
            retireCollected();
            // A copy taken under the lock is a consistent view; committing happens outside it so
            // that class definition is never blocked behind JFR.
            count = reserved;
            cls = java.util.Arrays.copyOf(classNames, count);
            names = java.util.Arrays.copyOf(methodNames, count);
            descs = java.util.Arrays.copyOf(descriptors, count);
            access = java.util.Arrays.copyOf(modifiers, count);
        }
        for (int id = 0; id < count; id++) {
            String c = cls[id];
            if (c != null) {
                commit(id, c, names[id], descs[id], access[id]);
            }
        }
    }

    /**
     * Under {@link #LOCK}: queues the ids of loaders collected since the last call, and forgets the
     * definitions of those queued {@link #GRACE_CALLS} calls of {@link #commitAll} ago. Ids are not
     * reused (a late record must never name another method), so the arrays keep a slot per id.
     */
    private static void retireCollected() {
        for (java.lang.ref.Reference<? extends ClassLoader> r; (r = GONE.poll()) != null;) {
            LoaderIds gone = (LoaderIds) r;
            LIVE.remove(gone);
            long[] batch = new long[gone.byMethod.size() + 1];
            batch[0] = commitAllCalls;
            int i = 1;
            for (int id : gone.byMethod.values()) {
                batch[i++] = id;
            }
            RETIRING.add(batch);
        }
        while (!RETIRING.isEmpty() && RETIRING.peekFirst()[0] + GRACE_CALLS <= commitAllCalls) {
            long[] batch = RETIRING.pollFirst();
            for (int i = 1; i < batch.length; i++) {
                int id = (int) batch[i];
                classNames[id] = null;
                methodNames[id] = null;
                descriptors[id] = null;
            }
        }
    }

    private static void commit(int id, String cls, String name, String desc, int access) {
        MethodDefinitionEvent event = new MethodDefinitionEvent();
        if (event.shouldCommit()) {
            event.methodId = id;
            event.className = cls;
            event.methodName = name;
            event.descriptor = desc;
            event.modifiers = access;
            event.commit();
        }
    }
}
