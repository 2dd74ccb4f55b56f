package dev.minitrace.views.report;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's writer: aggregates the trace, thread by thread in each thread's exact order
 * ({@link Order#THREAD}), into what the page shows: the call trees ({@link CallTree}), per-method
 * figures ({@link MethodStats}), allocation sites and classes ({@link AllocationStats}), monitors
 * ({@link MonitorStats}) and each thread's activity over time ({@link Activity}). Memory is bounded
 * by the number of distinct call paths, methods, sites and monitors, never by the records.
 *
 * <p>Times are the records' own (tick resolution by default): a call's time is its exit's time
 * minus its entry's, so calls shorter than a tick count as 0 and the rest to within a tick. An
 * {@code .mtlog} has no times ({@code timed} false): then only counts are kept.
 */
public final class ReportAggregator implements TraceWriter {
    /** Call paths kept (all threads' trees together); calls beyond go to overflow nodes. */
    static final int MAX_NODES = 300_000;

    final boolean timed;
    final long start;
    final long end;
    final CallTree tree = new CallTree(MAX_NODES);
    final MethodStats methods = new MethodStats();
    final AllocationStats allocations = new AllocationStats();
    final MonitorStats monitors = new MonitorStats();
    final List<ThreadCalls> threads = new ArrayList<>();
    final Map<Long, Long> fragmentPoints = new TreeMap<>();
    final long[] countByType = new long[MtlogFormat.MAX_TYPE + 1];
    long unmatchedExits;
    long unmatchedReleases;
    long framesWithoutExit;
    long unfinishedCalls;
    private final Map<Long, ThreadCalls> byKey = new HashMap<>();
    private ThreadCalls last;
    MtlogInfo info;
    private boolean finished;

    /**
     * An aggregator for a recording of {@code [startNanos, endNanos)}; {@code timed} false when the
     * records carry no times (an {@code .mtlog}).
     */
    public ReportAggregator(long startNanos, long endNanos, boolean timed) {
        this.start = startNanos;
        this.end = Math.max(endNanos, startNanos + 1);
        this.timed = timed;
    }

    /** One thread's open frames and monitors, and its totals. */
    final class ThreadCalls {
        final long key;
        final int ordinal;
        final int root;
        final Activity activity;
        long records;
        long calls;
        int[] node = new int[64];
        int[] method = new int[64];
        long[] entry = new long[64];
        long[] child = new long[64];
        boolean[] outermost = new boolean[64];
        int depth;
        long[] monitor = new long[8];
        long[] acquired = new long[8];
        int held;
        boolean afterExceptionExit;

        ThreadCalls(long key, int ordinal) {
            this.key = key;
            this.ordinal = ordinal;
            this.root = tree.root();
            this.activity = new Activity(timed);
        }

        void record(int type, long value, int aux, long time) {
            records++;
            countByType[type]++;
            activity.add(time, start, (end - start + Activity.BINS - 1) / Activity.BINS);
            boolean exceptionExit = false;
            switch (type) {
                case MtlogFormat.METHOD_ENTRY -> enter(methods.indexOf(value), time);
                case MtlogFormat.METHOD_EXIT -> exceptionExit = exit(methods.indexOf(value), aux == 0, time);
                case MtlogFormat.LOCK_ACQUIRE -> acquire(value, time);
                case MtlogFormat.LOCK_RELEASE -> release(value, time);
                case MtlogFormat.OBJECT_ALLOC -> allocate(value, aux);
                default -> {
                }
            }
            afterExceptionExit = exceptionExit;
        }

        private void enter(int m, long time) {
            calls++;
            int parent = depth > 0 ? node[depth - 1] : root;
            int n = tree.child(parent, m);
            tree.calls[n]++;
            methods.calls[m]++;
            boolean outer;
            if (tree.method[n] == CallTree.OVERFLOW) {
                outer = true;
                for (int i = 0; i < depth && outer; i++) {
                    outer = method[i] != m;
                }
            } else {
                outer = !tree.recursive[n];
            }
            if (depth == node.length) {
                int len = depth * 2;
                node = Arrays.copyOf(node, len);
                method = Arrays.copyOf(method, len);
                entry = Arrays.copyOf(entry, len);
                child = Arrays.copyOf(child, len);
                outermost = Arrays.copyOf(outermost, len);
            }
            node[depth] = n;
            method[depth] = m;
            entry[depth] = time;
            child[depth] = 0;
            outermost[depth] = outer;
            depth++;
        }

        /** Returns true for an exit by exception that matched a frame. */
        private boolean exit(int m, boolean exception, long time) {
            int i = depth - 1;
            while (i >= 0 && method[i] != m) {
                i--;
            }
            if (i < 0) {
                // began before the records: its time and callers are unknown
                unmatchedExits++;
                return false;
            }
            while (depth - 1 > i) {
                framesWithoutExit++;
                close(time);
            }
            close(time);
            if (exception) {
                methods.exceptionExits[m]++;
                if (!afterExceptionExit) {
                    methods.thrown[m]++;
                }
            }
            return exception;
        }

        /** Ends the innermost open frame at {@code time}. */
        void close(long time) {
            int f = --depth;
            long duration = Math.max(0, time - entry[f]);
            long own = Math.max(0, duration - child[f]);
            int n = node[f];
            int m = method[f];
            tree.time[n] += duration;
            tree.self[n] += own;
            methods.self[m] += own;
            if (outermost[f]) {
                methods.inclusive[m] += duration;
            }
            if (f > 0) {
                child[f - 1] += duration;
            }
        }

        private void acquire(long object, long time) {
            monitors.acquire(object, ordinal);
            if (held == monitor.length) {
                monitor = Arrays.copyOf(monitor, held * 2);
                acquired = Arrays.copyOf(acquired, held * 2);
            }
            monitor[held] = object;
            acquired[held] = time;
            held++;
        }

        private void release(long object, long time) {
            int i = held - 1;
            while (i >= 0 && monitor[i] != object) {
                i--;
            }
            if (i < 0) {
                unmatchedReleases++;
                return;
            }
            long since = acquired[i];
            System.arraycopy(monitor, i + 1, monitor, i, held - i - 1);
            System.arraycopy(acquired, i + 1, acquired, i, held - i - 1);
            held--;
            for (int j = 0; j < held; j++) {
                if (monitor[j] == object) {
                    return; // a reentrant acquire: the hold ends with the outermost release
                }
            }
            monitors.hold(object, timed ? Math.max(0, time - since) : -1);
        }

        private void allocate(long object, int bci) {
            int m = depth > 0 ? method[depth - 1] : -1;
            allocations.add(m, bci, object);
            if (depth > 0) {
                tree.allocs[node[depth - 1]]++;
                methods.allocs[m]++;
            } else {
                tree.allocs[root]++;
            }
        }

        /** Ends what is still open at the end of the recording. */
        void finish(long time) {
            unfinishedCalls += depth;
            while (depth > 0) {
                close(time);
            }
            for (int i = held - 1; i >= 0; i--) {
                release(monitor[i], time);
            }
        }
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) {
        ThreadCalls t = thread(threadKey);
        for (int i = from; i < to; i++) {
            t.record(type[i], value[i], aux[i], time[i]);
        }
    }

    private ThreadCalls thread(long key) {
        ThreadCalls t = last;
        if (t != null && t.key == key) {
            return t;
        }
        t = byKey.get(key);
        if (t == null) {
            t = new ThreadCalls(key, threads.size());
            byKey.put(key, t);
            threads.add(t);
        }
        last = t;
        return t;
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        fragmentPoints.put(gcId, startNanos);
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        if (finished) {
            return;
        }
        for (ThreadCalls t : threads) {
            t.finish(end);
        }
        info = tables;
        finished = true;
    }

    /** True once every record was aggregated. */
    boolean finished() {
        return finished;
    }

    @Override
    public void close() {
        // nothing on disk: the page is written from the aggregate afterwards
    }
}
