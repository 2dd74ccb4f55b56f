package dev.minitrace.views.report;

import dev.minitrace.converter.calls.CallModel;
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
    /** The bit of an open call's node that marks its method's outermost activation (node indexes stay below it). */
    private static final int OUTERMOST = 1 << 31;

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

    /**
     * One thread's totals, and its open calls as the report sees them: each call's node in the call
     * tree and whether it is its method's outermost activation. Which calls and holds there are,
     * and how they end, is the thread's {@link CallModel}'s to say.
     */
    final class ThreadCalls implements CallModel.Listener<RuntimeException> {
        final long key;
        final int ordinal;
        final int root;
        final Activity activity;
        final CallModel<RuntimeException> model = new CallModel<>(this);
        long records;
        long calls;
        /** Per open call: its node in the call tree, with {@link #OUTERMOST} set for its method's outermost activation. */
        int[] node = new int[64];
        /** Per open call: its method's index. */
        int[] method = new int[64];
        /** The record being aggregated is an exit by exception; the one before it was. */
        boolean threw;
        boolean afterThrow;

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
            threw = false;
            if (type == MtlogFormat.OBJECT_ALLOC) {
                allocate(value, aux);
            } else if (type == MtlogFormat.LOCK_ACQUIRE) {
                monitors.acquire(value, ordinal);
            }
            model.record(type, value, aux, time);
            afterThrow = threw;
        }

        @Override
        public void enter(int frame, long seq, long methodId, long time) {
            int m = methods.indexOf(methodId);
            calls++;
            int parent = frame > 0 ? node[frame - 1] & ~OUTERMOST : root;
            int n = tree.child(parent, m);
            tree.nodes.add(n, CallTree.CALLS, 1);
            methods.rows.add(m, MethodStats.CALLS, 1);
            boolean outer;
            if (tree.method(n) == CallTree.OVERFLOW) {
                outer = true;
                for (int i = 0; i < frame && outer; i++) {
                    outer = method[i] != m;
                }
            } else {
                outer = !tree.recursive(n);
            }
            if (frame == node.length) {
                node = Arrays.copyOf(node, frame * 2);
                method = Arrays.copyOf(method, frame * 2);
            }
            node[frame] = outer ? n | OUTERMOST : n;
            method[frame] = m;
        }

        @Override
        public void exit(int frame, int how, long seq, int bci, long time, long duration, long self) {
            int n = node[frame] & ~OUTERMOST;
            int m = method[frame];
            if (how == CallModel.EXIT_LOST) {
                framesWithoutExit++;
                methods.rows.add(m, MethodStats.WITHOUT_EXIT, 1);
            } else if (how == CallModel.OPEN) {
                unfinishedCalls++;
                methods.rows.add(m, MethodStats.WITHOUT_EXIT, 1);
            } else if (how == CallModel.THREW) {
                exceptional(m);
            }
            // a call without its exit has no time (docs/query.md): nothing is added for it
            if (duration != CallModel.NONE) {
                tree.nodes.add(n, CallTree.TIME, duration);
                if ((node[frame] & OUTERMOST) != 0) {
                    methods.rows.add(m, MethodStats.INCLUSIVE, duration);
                }
            }
            if (self != CallModel.NONE) {
                tree.nodes.add(n, CallTree.SELF, self);
                methods.rows.add(m, MethodStats.SELF, self);
            }
        }

        @Override
        public void exitWithoutEntry(long methodId, int how, long seq, int bci, long time, int depth) {
            // began before the records: its time and callers are unknown
            unmatchedExits++;
            int m = methods.indexOf(methodId);
            methods.rows.add(m, MethodStats.EXITS_WITHOUT_ENTRY, 1);
            if (how == CallModel.THREW) {
                exceptional(m);
            }
        }

        private void exceptional(int m) {
            methods.rows.add(m, MethodStats.EXCEPTION_EXITS, 1);
            if (!afterThrow) {
                methods.rows.add(m, MethodStats.THROWN, 1);
            }
            threw = true;
        }

        @Override
        public void release(int hold, boolean released, long seq, int bci, long time, boolean reentered) {
            if (!reentered) {
                // a hold is the outermost acquire to its release; one still held at the end has no time
                monitors.hold(model.holdObject(hold), timed && released ? time - model.holdTime(hold) : -1);
            }
        }

        @Override
        public void releaseWithoutAcquire(long object, long seq, int bci, long time) {
            unmatchedReleases++;
        }

        private void allocate(long object, int bci) {
            int frames = model.calls();
            int m = frames > 0 ? method[frames - 1] : -1;
            allocations.add(m, bci, object);
            if (frames > 0) {
                tree.nodes.add(node[frames - 1] & ~OUTERMOST, CallTree.ALLOCS, 1);
                methods.rows.add(m, MethodStats.ALLOCS, 1);
            } else {
                tree.nodes.add(root, CallTree.ALLOCS, 1);
            }
        }

        /** Ends what is still open at the end of the recording: calls and holds without their end. */
        void finish() {
            model.finish();
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
            t.finish();
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
