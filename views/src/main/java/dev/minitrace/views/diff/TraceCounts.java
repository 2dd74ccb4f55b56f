package dev.minitrace.views.diff;

import dev.minitrace.converter.calls.CallModel;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.CountTable;
import dev.minitrace.converter.write.TraceWriter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The exact counts of one trace that {@code mt diff} compares, as a writer on the converter's
 * pipeline (each thread's records in their exact order), so a {@code .jfr}, an {@code .mtlog} and
 * an exported Parquet folder are counted by the same code. Per method id: calls, exits by exception,
 * allocations made directly in it and monitor acquisitions in it; per (method, class): allocations,
 * acquisitions and throws; and, when asked, calls per call path up to a depth.
 *
 * <p>Memory is bounded by the distinct methods, (method, class) pairs and call paths, never by the
 * records: everything is in {@link CountTable}s keyed by the trace's own ids, which are named only at
 * the end ({@link #info()}). The per-thread state is the thread's {@link CallModel} and, per open
 * call, its method and call path node.
 */
public final class TraceCounts implements TraceWriter {
    /** No method: an allocation, acquisition or throw outside any traced method. */
    static final int NO_METHOD = -1;

    /** Call paths kept; calls on paths beyond are counted in {@link #pathsDropped}. */
    static final int MAX_PATHS = 2_000_000;

    /** The counters of a method's row in {@link #methods}. */
    static final int CALLS = 0;
    static final int EXCEPTION_EXITS = 1;
    static final int ALLOCS = 2;
    static final int LOCKS = 3;

    private final int pathDepth;
    /** Per method id (the row's key), in the order first seen: {@link #CALLS} ... {@link #LOCKS}; a row is a method index. */
    final CountTable methods = new CountTable(4, 256);

    /** Allocations, acquisitions and throws per {@link #pairKey} (method index, class id). */
    final CountTable allocsBySite = new CountTable(1, 64);
    final CountTable locksBySite = new CountTable(1, 64);
    final CountTable throwsBySite = new CountTable(1, 64);

    /**
     * The call path tree of all threads, one row a node keyed by {@link #pathKey} (its parent node and
     * its method index), counting calls; row 0 is the root.
     */
    final CountTable paths;
    long pathsDropped;

    long unmatchedExits;
    private final Map<Long, ThreadFrames> threads = new HashMap<>();
    private ThreadFrames last;
    private MtlogInfo info;
    private boolean exitKindsKnown = true;

    /** Counts of a trace; {@code pathDepth} &gt; 0 also counts calls per call path of at most that many methods. */
    public TraceCounts(int pathDepth) {
        this.pathDepth = pathDepth;
        if (pathDepth > 0) {
            paths = new CountTable(1, 1024, MAX_PATHS);
            paths.row(ROOT_PATH);
        } else {
            paths = null;
        }
    }

    /** The key of the root of the call path tree. */
    private static final long ROOT_PATH = -1;

    /** The key of a (method index, class id) pair; the method index -1 for none. */
    static long pairKey(int method, int classId) {
        return ((long) (method + 1) << 32) | (classId & 0xFFFF_FFFFL);
    }

    /** The method index of a {@link #pairKey}, -1 for none. */
    static int pairMethod(long key) {
        return (int) (key >>> 32) - 1;
    }

    /** The class id of a {@link #pairKey}. */
    static int pairClass(long key) {
        return (int) key;
    }

    private static long pathKey(int parent, int method) {
        return ((long) parent << 32) | (method & 0xFFFF_FFFFL);
    }

    /** The parent node of call path node {@code n} (not the root). */
    int pathParent(int n) {
        return (int) (paths.key(n) >>> 32);
    }

    /** The method index of call path node {@code n} (not the root). */
    int pathMethod(int n) {
        return (int) paths.key(n);
    }

    /** The counts of a trace with no records, finished: the base of a trace compared with nothing. */
    public static TraceCounts none() {
        TraceCounts c = new TraceCounts(0);
        c.finish(new MtlogInfo());
        return c;
    }

    /**
     * Tells that the records' exits carry no bytecode index (the global layout of an {@code .mtlog}):
     * exits by exception cannot be told from returns and are not counted.
     */
    public void exitKindsUnknown() {
        exitKindsKnown = false;
    }

    /** False when exits by exception could not be told from returns. */
    public boolean exitKindsKnown() {
        return exitKindsKnown;
    }

    /**
     * One thread's counting, a listener of the thread's {@link CallModel}: which call an exit ends,
     * and what an exit without entry or a lost exit is, are the model's rules, as in every view.
     * Per open call it keeps the method index and the call path node.
     */
    private final class ThreadFrames implements CallModel.Listener<RuntimeException> {
        final long key;
        private final CallModel<RuntimeException> model = new CallModel<>(this);
        private int[] method = new int[64];
        private int[] node = new int[64];
        /** The method and bytecode index of a throw whose EXCEPTION_OBJECT comes next, or -2. */
        private int throwing = -2;

        ThreadFrames(long key) {
            this.key = key;
        }

        void record(int type, long value, int aux, long time) {
            model.record(type, value, aux, time);
            switch (type) {
                case MtlogFormat.LOCK_ACQUIRE -> {
                    count(LOCKS, locksBySite, value);
                }
                case MtlogFormat.OBJECT_ALLOC -> {
                    count(ALLOCS, allocsBySite, value);
                }
                case MtlogFormat.EXCEPTION_THROW -> {
                    throwing = methods.row(value);
                    return;
                }
                case MtlogFormat.EXCEPTION_OBJECT -> {
                    if (throwing != -2) {
                        increment(throwsBySite, pairKey(throwing, MtlogFormat.classIdOf(value)));
                    }
                }
                default -> {
                    // entries and exits are the model's
                }
            }
            throwing = -2;
        }

        /** Counts an allocation or acquisition of {@code object}'s class in the running method. */
        private void count(int counter, CountTable bySite, long object) {
            int calls = model.calls();
            int m = calls > 0 ? method[calls - 1] : NO_METHOD;
            if (m >= 0) {
                methods.add(m, counter, 1);
            }
            increment(bySite, pairKey(m, MtlogFormat.classIdOf(object)));
        }

        @Override
        public void enter(int frame, long seq, long methodId, long time) {
            int m = methods.row(methodId);
            methods.add(m, CALLS, 1);
            int n = -1;
            if (pathDepth > 0) {
                int parent = frame == 0 ? 0 : node[frame - 1];
                if (parent >= 0 && frame < pathDepth) {
                    n = paths.row(pathKey(parent, m));
                    if (n >= 0) {
                        paths.add(n, 0, 1);
                    } else {
                        pathsDropped++;
                    }
                }
            }
            if (frame == method.length) {
                method = Arrays.copyOf(method, frame * 2);
                node = Arrays.copyOf(node, frame * 2);
            }
            method[frame] = m;
            node[frame] = n;
        }

        @Override
        public void exit(int frame, int end, long seq, int bci, long time, long duration, long self) {
            if (end == CallModel.THREW && exitKindsKnown) {
                methods.add(method[frame], EXCEPTION_EXITS, 1);
            }
        }

        @Override
        public void exitWithoutEntry(long methodId, int end, long seq, int bci, long time, int depth) {
            int m = methods.row(methodId);
            unmatchedExits++; // entered before the records began
            if (end == CallModel.THREW && exitKindsKnown) {
                methods.add(m, EXCEPTION_EXITS, 1);
            }
        }
    }

    private static void increment(CountTable table, long key) {
        table.add(table.row(key), 0, 1);
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) {
        ThreadFrames t = last;
        if (t == null || t.key != threadKey) {
            t = threads.computeIfAbsent(threadKey, ThreadFrames::new);
            last = t;
        }
        for (int i = from; i < to; i++) {
            t.record(type[i], value[i], aux[i], time[i]);
        }
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        // a GC changes no count
    }

    @Override
    public void finish(MtlogInfo tables) {
        info = tables;
        threads.clear();
        last = null;
    }

    /** The trace's name tables, once finished. */
    MtlogInfo info() {
        return info;
    }

    /** True when calls per call path are counted. */
    boolean hasPaths() {
        return pathDepth > 0;
    }

    @Override
    public long heapBytes() {
        return 64L << 20; // the counters and path tree of a large application
    }

    @Override
    public void close() {
        // nothing on disk
    }
}
