package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.IndexSort;

/**
 * Turns one thread's {@code jdk.MethodTrace} intervals (start, duration, method) into
 * METHOD_ENTRY/METHOD_EXIT records in proper nesting order. Intervals are ordered by start, an
 * enclosing (longer) interval before the ones it contains at the same start; a stack closes every
 * interval that ended at or before the next one starts, so a sibling's exit precedes the next
 * sibling's entry even when their timestamps are equal.
 */
final class MethodTraceNester {
    private MethodTraceNester() {
    }

    /**
     * Appends the records to {@code out}; the sequence key of each record is its output position.
     * {@code methodIds[i]} is the method id of interval {@code i}.
     */
    static void nest(long[] start, long[] duration, long[] methodIds, int n, EventBuffer out) {
        // Order: start ascending, then end descending (outer first), then arrival order.
        long[] key = new long[n];
        for (int i = 0; i < n; i++) {
            key[i] = -(start[i] + duration[i]);
        }
        int[] byEnd = IndexSort.byKey(key, n);
        long[] startInEndOrder = new long[n];
        for (int i = 0; i < n; i++) {
            startInEndOrder[i] = start[byEnd[i]];
        }
        int[] pos = IndexSort.byKey(startInEndOrder, n);
        int[] stack = new int[Math.max(1, n)];
        int depth = 0;
        long seq = 0;
        for (int k = 0; k < n; k++) {
            int i = byEnd[pos[k]];
            while (depth > 0 && end(start, duration, stack[depth - 1]) <= start[i]) {
                int j = stack[--depth];
                out.add(MtlogFormat.METHOD_EXIT, seq++, end(start, duration, j), methodIds[j], 0);
            }
            out.add(MtlogFormat.METHOD_ENTRY, seq++, start[i], methodIds[i], 0);
            stack[depth++] = i;
        }
        while (depth > 0) {
            int j = stack[--depth];
            out.add(MtlogFormat.METHOD_EXIT, seq++, end(start, duration, j), methodIds[j], 0);
        }
    }

    private static long end(long[] start, long[] duration, int i) {
        return start[i] + duration[i];
    }
}
