package dev.minitrace.views.report;

import dev.minitrace.converter.util.CountTable;

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

    /** The dense index of method {@code methodId}. */
    int indexOf(long methodId) {
        return rows.row(methodId);
    }
}
