package dev.minitrace.views.report;

import dev.minitrace.converter.util.CountTable;
import java.util.Arrays;

/**
 * Per method: calls, time in the method itself, time of its outermost activations (so that a
 * recursive method's time is not counted once per level), exits by exception and how many of them
 * began there, allocations made directly in it. Methods get dense indexes in order of first use
 * (the rows of {@link #rows}, keyed by method id); the call trees use the same indexes.
 */
final class MethodStats {
    static final int CALLS = 0;
    static final int SELF = 1;
    static final int INCLUSIVE = 2;
    static final int EXCEPTION_EXITS = 3;
    static final int THROWN = 4;
    static final int ALLOCS = 5;
    /** Calls without an exit record: their exit was lost, or they were still running at the end. */
    static final int WITHOUT_EXIT = 6;
    /** Exits whose entry is not in the trace (not in {@link #CALLS}). */
    static final int EXITS_WITHOUT_ENTRY = 7;

    /** Per method (the row's key, a method id): {@link #CALLS} ... {@link #EXITS_WITHOUT_ENTRY}. */
    final CountTable rows = new CountTable(EXITS_WITHOUT_ENTRY + 1, 1024);

    /** Ids below this are looked up in {@link #byId} (at most 4 MiB of it); others in the table. */
    private static final int DIRECT_IDS = 1 << 20;

    /**
     * Dense index + 1 by method id, for the ids an agent gives (small and dense); 0 for an id not
     * seen yet. Every entry of a trace asks for its method's index, and an array read keeps that
     * lookup out of the hash table, whose probes miss the cache on a trace of many methods.
     */
    private int[] byId = new int[1024];

    /** The dense index of method {@code methodId}. */
    int indexOf(long methodId) {
        if (methodId >= 0 && methodId < DIRECT_IDS) {
            int id = (int) methodId;
            if (id < byId.length && byId[id] != 0) {
                return byId[id] - 1;
            }
            int m = rows.row(methodId);
            if (id >= byId.length) {
                byId = Arrays.copyOf(byId, Math.min(DIRECT_IDS, Math.max(id + 1, byId.length * 2)));
            }
            byId[id] = m + 1;
            return m;
        }
        return rows.row(methodId);
    }

}
