package dev.minitrace.injector.runtime;

import dev.minitrace.events.MethodDefinitionEvent;

/**
 * The global table of traced methods: ids are reserved in blocks while a class is rewritten and
 * defined once the rewritten class is accepted. Everything is read and written under one lock;
 * {@link #commitAll} copies the live pages under it and commits outside it.
 *
 * <p>Ids are never reused (a late record must never name another method), so the table is kept in
 * pages of {@link #PAGE_SIZE} ids: once every id of a page belongs to a collected class loader and
 * no new id can fall into it, the page is dropped. An application that defines and drops classes
 * all the time (proxies, generated code) then holds only the pages of ids still in use, instead
 * of a slot per id it was ever given (docs/decisions.md, "Method ids never reused, the table kept in pages").
 */
public final class MethodRegistry {
    private static final Object LOCK = new Object();
    private static final int PAGE_BITS = 10;
    /** Ids per page: a page holding one live id costs 16 KB, its slots 16 bytes an id. */
    static final int PAGE_SIZE = 1 << PAGE_BITS;

    /** One page of definitions; a slot whose class name is null is not defined. */
    private static final class Page {
        final String[] classNames = new String[PAGE_SIZE];
        final String[] methodNames = new String[PAGE_SIZE];
        final String[] descriptors = new String[PAGE_SIZE];
        final int[] modifiers = new int[PAGE_SIZE];
        /**
         * Per slot, the bytecode index of the method's only return instruction plus one, 0 when it
         * has none (or is not defined); also read without the lock, through {@link #returnPages}.
         */
        final int[] returnBcis = new int[PAGE_SIZE];
        /** Defined slots. */
        int defined;
    }

    /**
     * Each page's {@link Page#returnBcis}, for {@link #returnBci} to read without the lock. A slot
     * is written at most once (0 to its index plus one), before the class whose method it is can
     * run: a reader that does not see the write reads 0, so no index at all.
     */
    private static volatile int[][] returnPages = new int[16][];

    /** Pages by id / {@link #PAGE_SIZE}; null before its first definition and after it was dropped. */
    private static Page[] pages = new Page[16];
    /** Ids below this have been reserved. */
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
     * definitions without bound (docs/decisions.md, same entry).
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
    /**
     * The chunk ({@link TraceClock#chunkStart}) whose start got a definition event for every
     * defined id, and per page the ids it got (their class names, null where none): the hook's run
     * at the same chunk's end commits only ids defined since, whose definition at rewrite time a
     * recording may have missed (its settings not applied yet), instead of all of them again.
     */
    private static long committedChunk = -1;
    private static String[][] committedNames = new String[0][];

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
            int pagesNeeded = (needed >>> PAGE_BITS) + 1;
            if (pagesNeeded > pages.length) {
                pages = java.util.Arrays.copyOf(pages, Math.max(pagesNeeded, pages.length * 2));
                returnPages = java.util.Arrays.copyOf(returnPages, pages.length);
            }
            reserved = needed;
            return first;
        }
    }

    /** Under {@link #LOCK}: the page of a reserved id, made if needed. */
    private static Page pageFor(int id) {
        Page p = pages[id >>> PAGE_BITS];
        if (p == null) {
            p = new Page();
            pages[id >>> PAGE_BITS] = p;
            returnPages[id >>> PAGE_BITS] = p.returnBcis;
        }
        return p;
    }

    /** Under {@link #LOCK}: the page of {@code id} if it is defined there, else null. */
    private static Page definedPage(int id) {
        if (id < 0 || id >= reserved) {
            return null;
        }
        Page p = pages[id >>> PAGE_BITS];
        return p != null && p.classNames[id & (PAGE_SIZE - 1)] != null ? p : null;
    }

    /** Under {@link #LOCK}: forgets {@code id}'s definition, and its page once nothing in it is defined or can be. */
    private static void undefine(int id) {
        int page = id >>> PAGE_BITS;
        Page p = pages[page];
        int slot = id & (PAGE_SIZE - 1);
        if (p == null || p.classNames[slot] == null) {
            return;
        }
        p.classNames[slot] = null;
        p.methodNames[slot] = null;
        p.descriptors[slot] = null;
        if (--p.defined == 0 && (page + 1) << PAGE_BITS <= reserved) {
            pages[page] = null;
            returnPages[page] = null;
        }
    }

    /**
     * Takes the loaders collected since the last look into the retiring queue, and says whether
     * {@code id} is there (for tests: the JVM enqueues a collected loader's reference when its
     * reference handler gets to it, which may be well after the collection).
     */
    static boolean retiring(int id) {
        synchronized (LOCK) {
            retireCollected();
            for (long[] batch : RETIRING) {
                for (int i = 1; i < batch.length; i++) {
                    if (batch[i] == id) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** The number of pages held (for tests and the churn measurement). */
    static int pagesHeld() {
        synchronized (LOCK) {
            int n = 0;
            for (Page p : pages) {
                n += p != null ? 1 : 0;
            }
            return n;
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

    /**
     * Defines a reserved id; {@code className} uses dots. {@code returnBci} is the bytecode index of
     * the method's only return instruction, or -1: an id takes the first index it is given and keeps
     * it (a class rewritten again keeps its ids), so that an exit record that leaves the index out
     * always decodes to the index its writer compared.
     */
    public static void define(int id, String className, String methodName, String descriptor, int access, int returnBci) {
        synchronized (LOCK) {
            if (id < 0 || id >= reserved) {
                throw new IllegalArgumentException("method id " + id + " was never reserved (reserved: " + reserved + ")");
            }
            Page p = pageFor(id);
            int slot = id & (PAGE_SIZE - 1);
            if (p.classNames[slot] == null) {
                p.defined++;
            }
            p.classNames[slot] = className;
            p.methodNames[slot] = methodName;
            p.descriptors[slot] = descriptor;
            p.modifiers[slot] = access;
            if (p.returnBcis[slot] == 0 && returnBci >= 0) {
                p.returnBcis[slot] = returnBci + 1;
            }
        }
    }

    /**
     * The bytecode index of method {@code id}'s only return instruction as its definition gives it
     * ({@code returnBci}), or -1: the buffer's exit records at that index leave the index out.
     * Lock-free, for the exit hook.
     */
    static int returnBci(int id) {
        int[][] r = returnPages;
        int page = id >>> PAGE_BITS;
        if (page < r.length) {
            int[] bcis = r[page];
            if (bcis != null) {
                return bcis[id & (PAGE_SIZE - 1)] - 1;
            }
        }
        return -1;
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
            java.util.Arrays.fill(pages, null);
            returnPages = new int[pages.length][];
        }
    }

    /** {@code {className, methodName, descriptor}} of a defined id, or null. */
    public static String[] describe(int id) {
        synchronized (LOCK) {
            Page p = definedPage(id);
            if (p == null) {
                return null;
            }
            int slot = id & (PAGE_SIZE - 1);
            return new String[] {p.classNames[slot], p.methodNames[slot], p.descriptors[slot]};
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
        int returnBci;
        synchronized (LOCK) {
            Page p = definedPage(id);
            if (p == null) {
                return false;
            }
            int slot = id & (PAGE_SIZE - 1);
            cls = p.classNames[slot];
            name = p.methodNames[slot];
            desc = p.descriptors[slot];
            access = p.modifiers[slot];
            returnBci = p.returnBcis[slot] - 1;
        }
        commit(id, cls, name, desc, access, returnBci);
        return true;
    }

    /**
     * Commits a definition event for every defined id. Called by JFR's periodic hook (at the start
     * and end of every chunk) and by the agent's re-emitter.
     */
    public static void commitAll() {
        java.util.List<Object[]> copies = new java.util.ArrayList<>();
        long chunk = TraceClock.chunkStart();
        String[][] committed;
        synchronized (LOCK) {
            commitAllCalls++;
            retireCollected();
            committed = chunk != -1 && chunk == committedChunk ? committedNames : null;
            // A copy taken under the lock is a consistent view; committing happens outside it so
            // that class definition is never blocked behind JFR.
            for (int page = 0; page < pages.length; page++) {
                Page p = pages[page];
                if (p != null) {
                    copies.add(new Object[] {page, p.classNames.clone(), p.methodNames.clone(), p.descriptors.clone(), p.modifiers.clone(),
                        p.returnBcis.clone()});
                }
            }
        }
        boolean all = true;
        for (Object[] c : copies) {
            int page = (Integer) c[0];
            int base = page << PAGE_BITS;
            String[] cls = (String[]) c[1];
            String[] names = (String[]) c[2];
            String[] descs = (String[]) c[3];
            int[] access = (int[]) c[4];
            int[] returnBcis = (int[]) c[5];
            String[] before = committed != null && page < committed.length ? committed[page] : null;
            for (int slot = 0; slot < PAGE_SIZE; slot++) {
                if (cls[slot] != null && (before == null || before[slot] == null)) {
                    all &= commit(base + slot, cls[slot], names[slot], descs[slot], access[slot], returnBcis[slot] - 1);
                }
            }
        }
        synchronized (LOCK) {
            if (committed == null) {
                // A start of a chunk (or a chunk JFR does not tell): what it got, if it got everything.
                committedChunk = all ? chunk : -1;
                String[][] names = new String[0][];
                for (Object[] c : copies) {
                    int page = (Integer) c[0];
                    if (page >= names.length) {
                        names = java.util.Arrays.copyOf(names, page + 1);
                    }
                    names[page] = (String[]) c[1];
                }
                committedNames = names;
            } else if (!all) {
                committedChunk = -1;
            }
        }
    }

    /**
     * Under {@link #LOCK}: queues the ids of loaders collected since the last call, and forgets the
     * definitions of those queued {@link #GRACE_CALLS} calls of {@link #commitAll} ago, and with
     * them every page left with nothing defined.
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
                undefine((int) batch[i]);
            }
        }
    }

    /** Commits one definition event; false when no recording takes it. */
    private static boolean commit(int id, String cls, String name, String desc, int access, int returnBci) {
        MethodDefinitionEvent event = new MethodDefinitionEvent();
        if (event.shouldCommit()) {
            event.methodId = id;
            event.className = cls;
            event.methodName = name;
            event.descriptor = desc;
            event.modifiers = access;
            event.returnBci = returnBci;
            event.commit();
            return true;
        }
        return false;
    }
}
