package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.util.Arrays;

/**
 * The {@code stacks} table: the calls summed per call path ({@code stack_id}, with its caller's path
 * and its method), so that a question about call paths (the call tree) reads a row per path and
 * not a row per call. The sums are kept in a table of bounded size, open addressing over
 * primitives, and written out as rows whenever it fills, and at the end: a path can have several
 * rows, whose sums add up to the path's.
 */
final class StackTotals {
    static final TableSchema STACKS = TraceTables.STACKS.stored();
    private static final int STACK = STACKS.index("stack_id");
    private static final int PARENT = STACKS.index("parent_stack_id");
    private static final int METHOD = STACKS.index("method_id");
    private static final int CALLS = STACKS.index("calls");
    private static final int TOTAL = STACKS.index("total_ns");
    private static final int SELF = STACKS.index("self_ns");

    /** Slots of the table: a power of two. A real program's trace has a few million paths, most of them rare. */
    static final int SLOTS = 1 << 18;
    /** The table is written out when it holds this many paths. */
    private static final int FULL = SLOTS / 4 * 3;
    /** The heap the table holds: six arrays of longs. */
    static final long HEAP_BYTES = SLOTS * 6L * Long.BYTES;

    private final TableWriter out;
    private final long[] stack = new long[SLOTS];
    private final long[] parent = new long[SLOTS];
    private final long[] method = new long[SLOTS];
    /** Calls per slot; 0 is an empty slot. */
    private final long[] calls = new long[SLOTS];
    /** Sums of the known durations and self times; NULL_LONG while none is known. */
    private final long[] total = new long[SLOTS];
    private final long[] self = new long[SLOTS];
    private int size;

    StackTotals(TableWriter out) {
        this.out = out;
    }

    /** A call along path {@code stackId}; {@code duration} and {@code self} NULL_LONG when unknown. */
    void add(long stackId, long parentStack, long methodId, long duration, long selfNs) throws IOException {
        int mask = SLOTS - 1;
        int h = (int) (stackId ^ (stackId >>> 32)) & mask;
        while (calls[h] != 0 && (stack[h] != stackId || parent[h] != parentStack || method[h] != methodId)) {
            h = (h + 1) & mask;
        }
        if (calls[h] == 0) {
            if (size == FULL) {
                flush();
                add(stackId, parentStack, methodId, duration, selfNs);
                return;
            }
            size++;
            stack[h] = stackId;
            parent[h] = parentStack;
            method[h] = methodId;
            total[h] = NULL_LONG;
            self[h] = NULL_LONG;
        }
        calls[h]++;
        if (duration != NULL_LONG) {
            total[h] = total[h] == NULL_LONG ? duration : total[h] + duration;
        }
        if (selfNs != NULL_LONG) {
            self[h] = self[h] == NULL_LONG ? selfNs : self[h] + selfNs;
        }
    }

    /** Writes the paths summed so far as rows and empties the table. */
    void flush() throws IOException {
        for (int h = 0; h < SLOTS; h++) {
            if (calls[h] != 0) {
                int r = out.next();
                long[][] l = out.longs;
                l[STACK][r] = stack[h];
                l[PARENT][r] = parent[h];
                l[METHOD][r] = method[h];
                l[CALLS][r] = calls[h];
                l[TOTAL][r] = total[h];
                l[SELF][r] = self[h];
            }
        }
        Arrays.fill(calls, 0);
        size = 0;
    }
}
