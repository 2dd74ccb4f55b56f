package dev.minitrace.views.report;

import dev.minitrace.converter.util.LongIntMap;
import java.util.Arrays;

/**
 * Per method: calls, time in the method itself, time of its outermost activations (so that a
 * recursive method's time is not counted once per level), exits by exception and how many of them
 * began there, allocations made directly in it. Methods get dense indexes in order of first use;
 * the call trees use the same indexes.
 */
final class MethodStats {
    private final LongIntMap index = new LongIntMap(1024);
    long[] id = new long[256];
    long[] calls = new long[256];
    long[] self = new long[256];
    long[] inclusive = new long[256];
    long[] exceptionExits = new long[256];
    long[] thrown = new long[256];
    long[] allocs = new long[256];
    /** Calls without an exit record: their exit was lost, or they were still running at the end. */
    long[] withoutExit = new long[256];
    /** Exits whose entry is not in the trace (not in {@link #calls}). */
    long[] exitsWithoutEntry = new long[256];
    int size;

    /** The dense index of method {@code methodId}. */
    int indexOf(long methodId) {
        int i = index.get(methodId);
        if (i != LongIntMap.MISSING) {
            return i;
        }
        if (size == id.length) {
            int n = size * 2;
            id = Arrays.copyOf(id, n);
            calls = Arrays.copyOf(calls, n);
            self = Arrays.copyOf(self, n);
            inclusive = Arrays.copyOf(inclusive, n);
            exceptionExits = Arrays.copyOf(exceptionExits, n);
            thrown = Arrays.copyOf(thrown, n);
            allocs = Arrays.copyOf(allocs, n);
            withoutExit = Arrays.copyOf(withoutExit, n);
            exitsWithoutEntry = Arrays.copyOf(exitsWithoutEntry, n);
        }
        id[size] = methodId;
        index.put(methodId, size);
        return size++;
    }
}
