package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.IndexSort;
import dev.minitrace.converter.util.LongRows;

/**
 * Turns one thread's {@code jdk.MethodTrace} intervals (start, duration, method) into
 * METHOD_ENTRY/METHOD_EXIT records in proper nesting order. Intervals are ordered by start, an
 * enclosing (longer) interval before the ones it contains at the same start; a stack closes every
 * interval that ended at or before the next one starts, so a sibling's exit precedes the next
 * sibling's entry even when their timestamps are equal.
 */
final class MethodTraceNester {
    /** The columns of an interval: its start, its duration, its method id. */
    static final int START = 0, DURATION = 1, METHOD = 2, WIDTH = 3;

    private MethodTraceNester() {
    }

    /**
     * Appends the records to {@code out}; the sequence key of each record is its output position.
     * {@code intervals} has the columns {@link #START}, {@link #DURATION}, {@link #METHOD}.
     */
    static void nest(LongRows intervals, EventBuffer out) {
        int n = intervals.size();
        // Order: start ascending, then end descending (outer first), then arrival order.
        long[] key = new long[n];
        for (int i = 0; i < n; i++) {
            key[i] = -end(intervals, i);
        }
        int[] byEnd = IndexSort.byKey(key, n);
        long[] startInEndOrder = new long[n];
        for (int i = 0; i < n; i++) {
            startInEndOrder[i] = intervals.get(byEnd[i], START);
        }
        int[] pos = IndexSort.byKey(startInEndOrder, n);
        int[] stack = new int[Math.max(1, n)];
        int depth = 0;
        long seq = 0;
        for (int k = 0; k < n; k++) {
            int i = byEnd[pos[k]];
            long start = intervals.get(i, START);
            while (depth > 0 && end(intervals, stack[depth - 1]) <= start) {
                int j = stack[--depth];
                out.add(MtlogFormat.METHOD_EXIT, seq++, end(intervals, j), intervals.get(j, METHOD), 0);
            }
            out.add(MtlogFormat.METHOD_ENTRY, seq++, start, intervals.get(i, METHOD), 0);
            stack[depth++] = i;
        }
        while (depth > 0) {
            int j = stack[--depth];
            out.add(MtlogFormat.METHOD_EXIT, seq++, end(intervals, j), intervals.get(j, METHOD), 0);
        }
    }

    private static long end(LongRows intervals, int i) {
        return intervals.get(i, START) + intervals.get(i, DURATION);
    }
}
