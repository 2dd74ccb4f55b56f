package dev.minitrace.views.diff;

import dev.minitrace.converter.calls.CallModel;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
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
 * records: everything is in primitive arrays keyed by the trace's own ids, which are named only at
 * the end ({@link #info()}). The per-thread state is the thread's {@link CallModel} and, per open
 * call, its method and call path node.
 */
public final class TraceCounts implements TraceWriter {
    /** No method: an allocation, acquisition or throw outside any traced method. */
    static final int NO_METHOD = -1;

    /** Call paths kept; calls on paths beyond are counted in {@link #pathsDropped}. */
    static final int MAX_PATHS = 2_000_000;

    private final int pathDepth;
    private final LongIntMap methodIndex = new LongIntMap(1024);
    long[] methodId = new long[256];
    long[] calls = new long[256];
    long[] exceptionExits = new long[256];
    long[] allocs = new long[256];
    long[] locks = new long[256];
    int methods;

    /** Allocations, acquisitions and throws per (method index + 1, class id). */
    final PairCounts allocsBySite = new PairCounts();
    final PairCounts locksBySite = new PairCounts();
    final PairCounts throwsBySite = new PairCounts();

    /** The call path tree of all threads: node 0 is the root, a node's path is its parent's plus its method. */
    private final LongIntMap pathIndex;
    int[] pathParent;
    int[] pathMethod;
    long[] pathCalls;
    int paths;
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
            pathIndex = new LongIntMap(4096);
            pathParent = new int[1024];
            pathMethod = new int[1024];
            pathCalls = new long[1024];
            pathParent[0] = -1;
            pathMethod[0] = NO_METHOD;
            paths = 1;
        } else {
            pathIndex = null;
        }
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
                    int m = current();
                    if (m >= 0) {
                        locks[m]++;
                    }
                    locksBySite.add(m, MtlogFormat.classIdOf(value));
                }
                case MtlogFormat.OBJECT_ALLOC -> {
                    int m = current();
                    if (m >= 0) {
                        allocs[m]++;
                    }
                    allocsBySite.add(m, MtlogFormat.classIdOf(value));
                }
                case MtlogFormat.EXCEPTION_THROW -> {
                    throwing = methodIndex(value);
                    return;
                }
                case MtlogFormat.EXCEPTION_OBJECT -> {
                    if (throwing != -2) {
                        throwsBySite.add(throwing, MtlogFormat.classIdOf(value));
                    }
                }
                default -> {
                    // entries and exits are the model's
                }
            }
            throwing = -2;
        }

        private int current() {
            int calls = model.calls();
            return calls > 0 ? method[calls - 1] : NO_METHOD;
        }

        @Override
        public void enter(int frame, long seq, long methodId, long time) {
            int m = methodIndex(methodId);
            calls[m]++;
            int n = -1;
            if (pathDepth > 0) {
                int parent = frame == 0 ? 0 : node[frame - 1];
                if (parent >= 0 && frame < pathDepth) {
                    n = pathChild(parent, m);
                    if (n >= 0) {
                        pathCalls[n]++;
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
                exceptionExits[method[frame]]++;
            }
        }

        @Override
        public void exitWithoutEntry(long methodId, int end, long seq, int bci, long time, int depth) {
            int m = methodIndex(methodId);
            unmatchedExits++; // entered before the records began
            if (end == CallModel.THREW && exitKindsKnown) {
                exceptionExits[m]++;
            }
        }
    }

    private int methodIndex(long id) {
        int m = methodIndex.get(id);
        if (m != LongIntMap.MISSING) {
            return m;
        }
        if (methods == methodId.length) {
            int n = methods * 2;
            methodId = Arrays.copyOf(methodId, n);
            calls = Arrays.copyOf(calls, n);
            exceptionExits = Arrays.copyOf(exceptionExits, n);
            allocs = Arrays.copyOf(allocs, n);
            locks = Arrays.copyOf(locks, n);
        }
        m = methods++;
        methodId[m] = id;
        methodIndex.put(id, m);
        return m;
    }

    private int pathChild(int parent, int m) {
        long key = ((long) parent << 32) | (m & 0xFFFF_FFFFL);
        int n = pathIndex.get(key);
        if (n != LongIntMap.MISSING) {
            return n;
        }
        if (paths >= MAX_PATHS) {
            return -1;
        }
        if (paths == pathParent.length) {
            int len = paths * 2;
            pathParent = Arrays.copyOf(pathParent, len);
            pathMethod = Arrays.copyOf(pathMethod, len);
            pathCalls = Arrays.copyOf(pathCalls, len);
        }
        n = paths++;
        pathParent[n] = parent;
        pathMethod[n] = m;
        pathIndex.put(key, n);
        return n;
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

    /** Counts per (method index, class id), the method index -1 for none. */
    static final class PairCounts {
        private final LongIntMap index = new LongIntMap(256);
        int[] method = new int[64];
        int[] classId = new int[64];
        long[] count = new long[64];
        int size;

        void add(int m, int cls) {
            long key = ((long) (m + 1) << 32) | (cls & 0xFFFF_FFFFL);
            int i = index.get(key);
            if (i == LongIntMap.MISSING) {
                if (size == method.length) {
                    int n = size * 2;
                    method = Arrays.copyOf(method, n);
                    classId = Arrays.copyOf(classId, n);
                    count = Arrays.copyOf(count, n);
                }
                i = size++;
                method[i] = m;
                classId[i] = cls;
                index.put(key, i);
            }
            count[i]++;
        }
    }
}
