package dev.minitrace.views.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import org.junit.jupiter.api.Test;

/** Exact aggregates for known records: calls and times with recursion, monitors, allocations, exceptions. */
class ReportAggregatorTest {
    private static final long START = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long RUN = 1;
    private static final long REC = 2;
    private static final long FAIL = 3;
    private static final long THROWER = 4;
    private static final long X = 5;
    private static final long MONITOR = 1L << 32 | 7;

    private static void record(ReportAggregator a, long thread, int type, double ms, long value, int aux) {
        a.records(thread, new byte[] {(byte) type}, new long[] {START + (long) (ms * MS)}, new long[] {value}, new int[] {aux}, 0, 1);
    }

    private static ReportAggregator aggregate() throws Exception {
        ReportAggregator a = new ReportAggregator(START, START + 20 * MS, true);
        record(a, 10, MtlogFormat.METHOD_ENTRY, 0, RUN, 0);
        record(a, 10, MtlogFormat.METHOD_ENTRY, 1, REC, 0);
        record(a, 10, MtlogFormat.METHOD_ENTRY, 2, REC, 0);
        record(a, 10, MtlogFormat.OBJECT_ALLOC, 2, 2L << 32 | 99, 4);
        record(a, 10, MtlogFormat.METHOD_EXIT, 3, REC, 8);
        record(a, 10, MtlogFormat.METHOD_EXIT, 5, REC, 8);
        record(a, 10, MtlogFormat.LOCK_ACQUIRE, 5, MONITOR, 12);
        record(a, 10, MtlogFormat.LOCK_ACQUIRE, 6, MONITOR, 0);
        record(a, 10, MtlogFormat.LOCK_RELEASE, 7, MONITOR, 0);
        record(a, 10, MtlogFormat.LOCK_RELEASE, 9, MONITOR, 20);
        record(a, 10, MtlogFormat.METHOD_ENTRY, 9, FAIL, 0);
        record(a, 10, MtlogFormat.METHOD_ENTRY, 9, THROWER, 0);
        record(a, 10, MtlogFormat.METHOD_EXIT, 10, THROWER, 0);
        record(a, 10, MtlogFormat.METHOD_EXIT, 10, FAIL, 0);
        record(a, 10, MtlogFormat.METHOD_EXIT, 12, RUN, 30);
        record(a, 11, MtlogFormat.LOCK_ACQUIRE, 1, MONITOR, 12);
        record(a, 11, MtlogFormat.LOCK_RELEASE, 2, MONITOR, 20);
        record(a, 11, MtlogFormat.METHOD_EXIT, 3, X, 5);
        record(a, 11, MtlogFormat.METHOD_ENTRY, 4, RUN, 0);
        MtlogInfo info = new MtlogInfo();
        info.putThread(10, 1, "one");
        info.putThread(11, 2, "two");
        a.finish(info);
        return a;
    }

    @Test
    void callsAndTimesPerMethodCountARecursiveMethodsTimeOnce() throws Exception {
        ReportAggregator a = aggregate();
        MethodStats m = a.methods;
        int run = m.indexOf(RUN);
        int rec = m.indexOf(REC);
        assertEquals(2, m.rows.get(run, MethodStats.CALLS), "one call per thread");
        assertEquals(12 * MS, m.rows.get(run, MethodStats.INCLUSIVE), "thread two's call is open at the end: no time (docs/query.md)");
        assertEquals(1, m.rows.get(run, MethodStats.WITHOUT_EXIT));
        assertEquals(2, m.rows.get(rec, MethodStats.CALLS));
        assertEquals(4 * MS, m.rows.get(rec, MethodStats.INCLUSIVE), "the outer activation only");
        assertEquals(4 * MS, m.rows.get(rec, MethodStats.SELF), "inner 1 ms + outer 4 - 1 ms");
        assertEquals(12 * MS - 4 * MS - 1 * MS, m.rows.get(run, MethodStats.SELF));
        assertEquals(1, m.rows.get(m.indexOf(X), MethodStats.EXITS_WITHOUT_ENTRY), "thread two's exit of X began before the records");
        assertEquals(1, a.unmatchedExits);
        assertEquals(1, a.unfinishedCalls);
    }

    @Test
    void theCallTreeHasOnePathPerCallingContext() throws Exception {
        ReportAggregator a = aggregate();
        CallTree t = a.tree;
        int root = a.threads.get(0).root;
        int run = t.child(root, a.methods.indexOf(RUN));
        int rec = t.child(run, a.methods.indexOf(REC));
        int inner = t.child(rec, a.methods.indexOf(REC));
        assertEquals(1, t.nodes.get(run, CallTree.CALLS));
        assertEquals(12 * MS, t.nodes.get(run, CallTree.TIME));
        assertEquals(4 * MS, t.nodes.get(rec, CallTree.TIME));
        assertEquals(3 * MS, t.nodes.get(rec, CallTree.SELF));
        assertFalse(t.recursive(rec));
        assertTrue(t.recursive(inner));
        assertEquals(1, t.nodes.get(inner, CallTree.ALLOCS), "the allocation was made in the inner call");
        assertEquals(0, t.nodes.get(rec, CallTree.ALLOCS));
    }

    @Test
    void monitorsAllocationsAndExceptions() throws Exception {
        ReportAggregator a = aggregate();
        MonitorStats mon = a.monitors;
        assertEquals(1, mon.monitors.rows());
        assertEquals(3, mon.monitors.get(0, MonitorStats.ACQUISITIONS), "the reentrant acquire counts");
        assertEquals(2, mon.monitors.get(0, MonitorStats.HOLDS), "one hold per thread: the reentrant one is inside the outer");
        assertEquals(4 * MS + 1 * MS, mon.monitors.get(0, MonitorStats.HOLD_TIME));
        assertEquals(4 * MS, mon.monitors.get(0, MonitorStats.LONGEST));
        assertEquals(2, mon.monitors.get(0, MonitorStats.THREADS));
        AllocationStats al = a.allocations;
        assertEquals(1, al.total);
        assertEquals(1, al.sites());
        assertEquals(a.methods.indexOf(REC), al.siteMethod(0));
        assertEquals(4, al.siteBci(0));
        assertEquals(2, al.siteClass(0));
        MethodStats m = a.methods;
        assertEquals(1, m.rows.get(m.indexOf(THROWER), MethodStats.EXCEPTION_EXITS));
        assertEquals(1, m.rows.get(m.indexOf(THROWER), MethodStats.THROWN), "the exception began in thrower");
        assertEquals(1, m.rows.get(m.indexOf(FAIL), MethodStats.EXCEPTION_EXITS));
        assertEquals(0, m.rows.get(m.indexOf(FAIL), MethodStats.THROWN), "and passed through fail");
    }

    @Test
    void theShownTreeKeepsEveryCallWhenItIsCut() throws Exception {
        CallTree t = new CallTree(1000);
        int root = t.root();
        for (int m = 0; m < 50; m++) {
            int n = t.child(root, m);
            t.nodes.set(n, CallTree.CALLS, m + 1);
            t.nodes.set(n, CallTree.TIME, 10L * (m + 1));
            t.nodes.set(n, CallTree.SELF, 10L * (m + 1));
        }
        FlameTrees.Shown s = new FlameTrees(t).choose(root, 11);
        long calls = 0;
        long time = 0;
        int pruned = 0;
        for (int i = 1; i < s.size; i++) {
            calls += s.calls[i];
            time += s.self[i];
            if (s.method[i] == CallTree.PRUNED) {
                pruned = s.pruned[i];
            }
        }
        assertEquals(50 * 51 / 2, calls, "shown frames and the pruned-frames node together hold every call");
        assertEquals(10L * 50 * 51 / 2, time);
        assertEquals(40, pruned);
        assertEquals(12, s.size, "the root, the 10 heaviest frames and one node for the other 40");
        for (int i = 1; i < s.size; i++) {
            if (s.method[i] != CallTree.PRUNED) {
                assertTrue(s.method[i] >= 40, "the heaviest are kept: " + s.method[i]);
            }
        }
    }
}
