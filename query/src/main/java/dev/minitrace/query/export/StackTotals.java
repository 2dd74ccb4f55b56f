package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code stacks} table: the calls summed per call path ({@code stack_id}, with its caller's path,
 * its method and its depth), one row per path, so that a question about call paths or methods (the
 * call tree, the top methods) reads a row per path and not a row per call, and need not sum again.
 * It is also where the {@code calls} view finds each call's method, caller's path and depth, which
 * the calls files leave out (docs/query.md, "Stored and derived columns"). The sums are kept in a table of
 * bounded size, open addressing over primitives; whenever it fills, its paths are sorted and
 * written to a scratch file (a run), and at the end the runs and the table are merged in the
 * paths' order, the sums of a path that several runs hold added up into its one row. A real
 * program's trace has a few million paths, most of them rare: the heap stays bounded and the
 * scratch files hold 64 bytes per path and run.
 */
final class StackTotals {
    static final TableSchema STACKS = TraceTables.STACKS.stored();
    private static final int STACK = STACKS.index("stack_id");
    private static final int PARENT = STACKS.index("parent_stack_id");
    private static final int METHOD = STACKS.index("method_id");
    private static final int DEPTH = STACKS.index("depth");
    private static final int CALLS = STACKS.index("calls");
    private static final int TOTAL = STACKS.index("total_ns");
    private static final int SELF = STACKS.index("self_ns");
    private static final int MAX = STACKS.index("max_ns");

    /** Slots of the table: a power of two. */
    static final int SLOTS = 1 << 18;
    private static final int SLOT_BITS = Integer.numberOfTrailingZeros(SLOTS);
    /** The table is written to a run when it holds this many paths. */
    private static final int FULL = SLOTS / 4 * 3;
    /** Each run's read buffer while merging, and the write buffer of a run. */
    private static final int RUN_BUFFER = 1 << 15;
    /**
     * A slot's longs, side by side in {@link #slots}: one call's look-up and sums touch one or two
     * cache lines, not one per array (the table is larger than the caches, and every call ends in it).
     */
    private static final int WIDTH = 8;
    private static final int F_STACK = 0;
    private static final int F_PARENT = 1;
    private static final int F_METHOD = 2;
    private static final int F_DEPTH = 3;
    /** Calls of the slot's path; 0 is an empty slot. */
    private static final int F_CALLS = 4;
    /** Sums of the known durations and self times; NULL_LONG while none is known. */
    private static final int F_TOTAL = 5;
    private static final int F_SELF = 6;
    /** The longest known duration; NULL_LONG while none is known. */
    private static final int F_MAX = 7;
    /** Slots of the small table in front of the large one: a power of two, within a core's caches. */
    static final int FRONT = 1 << 14;
    /** The heap the tables hold: their slots, the large one's order when sorted, and the run buffer. */
    static final long HEAP_BYTES = (SLOTS * (WIDTH + 2L) + FRONT * (long) WIDTH) * Long.BYTES + SLOTS / Byte.SIZE + RUN_BUFFER;

    private final TableWriter out;
    private final Path scratch;
    private final List<Path> runs = new ArrayList<>();
    private final long[] slots = new long[SLOTS * WIDTH];
    /** The small table: a slot per path by the stack id's bits, its calls 0 when empty. */
    private final long[] front = new long[FRONT * WIDTH];
    /** The large table's stack ids by slot, and a bit per occupied slot: what a look-up probes. */
    private final long[] keys = new long[SLOTS];
    private final long[] occupied = new long[SLOTS / Long.SIZE];
    /** The occupied slots in the paths' order, after {@link #sortSlots}. */
    private final long[] order = new long[SLOTS];
    private final ByteBuffer runBuffer = ByteBuffer.allocate(RUN_BUFFER);
    private int size;

    /** Sums written as rows of {@code out}; runs go to folder {@code scratch}. */
    StackTotals(TableWriter out, Path scratch) {
        this.out = out;
        this.scratch = scratch;
    }

    /**
     * A call along path {@code stackId}; {@code duration} and {@code self} NULL_LONG when unknown. The
     * call is summed in a small direct-mapped table first, which stays in the core's caches: a program's
     * calls repeat the same few paths in a loop, and the large table, a cache miss per look-up, gets a
     * path's sums only when another path takes its place there (most calls of an export end here).
     */
    void add(long stackId, long parentStack, long methodId, int depth, long duration, long selfNs) throws IOException {
        long[] t = front;
        int at = ((int) (stackId >>> 32) & (FRONT - 1)) * WIDTH;
        if (t[at + F_CALLS] != 0 && (t[at + F_STACK] != stackId || t[at + F_PARENT] != parentStack || t[at + F_METHOD] != methodId
                || t[at + F_DEPTH] != depth)) {
            evict(at);
        }
        if (t[at + F_CALLS] == 0) {
            t[at + F_STACK] = stackId;
            t[at + F_PARENT] = parentStack;
            t[at + F_METHOD] = methodId;
            t[at + F_DEPTH] = depth;
            t[at + F_TOTAL] = NULL_LONG;
            t[at + F_SELF] = NULL_LONG;
            t[at + F_MAX] = NULL_LONG;
        }
        t[at + F_CALLS]++;
        t[at + F_TOTAL] = plus(t[at + F_TOTAL], duration);
        t[at + F_SELF] = plus(t[at + F_SELF], selfNs);
        t[at + F_MAX] = max(t[at + F_MAX], duration);
    }

    /** Moves the sums of the small table's slot at {@code at} into the large table. */
    private void evict(int at) throws IOException {
        long[] f = front;
        sum(f[at + F_STACK], f[at + F_PARENT], f[at + F_METHOD], f[at + F_DEPTH], f[at + F_CALLS], f[at + F_TOTAL], f[at + F_SELF],
                f[at + F_MAX]);
        f[at + F_CALLS] = 0;
    }

    /** Adds {@code calls} calls along a path and the sums of their times (NULL_LONG: none known) to the large table. */
    private void sum(long stackId, long parentStack, long methodId, long depth, long calls, long total, long selfNs, long longest)
            throws IOException {
        long[] t = slots;
        int mask = SLOTS - 1;
        int h = (int) (stackId ^ (stackId >>> 32)) & mask;
        // the probes read the stack ids and the bits of the occupied slots, a cache line for many slots
        while ((occupied[h >>> 6] & (1L << h)) != 0) {
            if (keys[h] == stackId) {
                int at = h * WIDTH;
                if (t[at + F_PARENT] == parentStack && t[at + F_METHOD] == methodId && t[at + F_DEPTH] == depth) {
                    t[at + F_CALLS] += calls;
                    t[at + F_TOTAL] = plus(t[at + F_TOTAL], total);
                    t[at + F_SELF] = plus(t[at + F_SELF], selfNs);
                    t[at + F_MAX] = max(t[at + F_MAX], longest);
                    return;
                }
            }
            h = (h + 1) & mask;
        }
        if (size == FULL) {
            spill();
            sum(stackId, parentStack, methodId, depth, calls, total, selfNs, longest);
            return;
        }
        size++;
        occupied[h >>> 6] |= 1L << h;
        keys[h] = stackId;
        int at = h * WIDTH;
        t[at + F_STACK] = stackId;
        t[at + F_PARENT] = parentStack;
        t[at + F_METHOD] = methodId;
        t[at + F_DEPTH] = depth;
        t[at + F_CALLS] = calls;
        t[at + F_TOTAL] = total;
        t[at + F_SELF] = selfNs;
        t[at + F_MAX] = longest;
    }

    /** A sum of known values: null while neither is known. */
    private static long plus(long sum, long value) {
        return value == NULL_LONG ? sum : sum == NULL_LONG ? value : sum + value;
    }

    /** The larger of two known values: null while neither is known. */
    private static long max(long longest, long value) {
        return value == NULL_LONG ? longest : longest == NULL_LONG ? value : Math.max(longest, value);
    }

    /**
     * Sorts the table's occupied slots by path into {@link #order}: by a key of the stack id's high
     * bits and the slot, sorted as primitives, then the few slots whose high bits tie put in the
     * full order ({@link #compare}).
     */
    private void sortSlots() {
        int k = 0;
        for (int h = 0; h < SLOTS; h++) {
            if (slots[h * WIDTH + F_CALLS] != 0) {
                order[k++] = (slots[h * WIDTH + F_STACK] >>> SLOT_BITS) << SLOT_BITS | h;
            }
        }
        Arrays.sort(order, 0, k);
        // unsigned order of the high bits: the keys are sorted as signed longs, so the negative come first
        int firstPositive = 0;
        while (firstPositive < k && order[firstPositive] < 0) {
            firstPositive++;
        }
        long[] tmp = Arrays.copyOfRange(order, 0, firstPositive);
        System.arraycopy(order, firstPositive, order, 0, k - firstPositive);
        System.arraycopy(tmp, 0, order, k - firstPositive, firstPositive);
        for (int i = 0; i < k; i++) {
            order[i] = order[i] & (SLOTS - 1);
        }
        // insertion sort within a tie of high bits (rare, short)
        for (int i = 1; i < k; i++) {
            long x = order[i];
            int a = (int) x;
            int j = i - 1;
            while (j >= 0 && compareSlots((int) order[j], a) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    }

    /** Writes the table's paths, sorted, to a new run and empties the table. */
    private void spill() throws IOException {
        sortSlots();
        Path run = scratch.resolve("stacks-" + runs.size() + ".run");
        runs.add(run);
        ByteBuffer b = runBuffer.clear();
        try (FileChannel o = FileChannel.open(run, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < size; i++) {
                if (b.remaining() < WIDTH * Long.BYTES) {
                    write(o, b.flip());
                    b.clear();
                }
                int at = (int) order[i] * WIDTH;
                for (int f = 0; f < WIDTH; f++) {
                    b.putLong(slots[at + f]);
                }
            }
            write(o, b.flip());
        }
        empty();
    }

    /** Marks every slot empty (a slot is empty when its calls are 0). */
    private void empty() {
        for (int h = 0; h < SLOTS; h++) {
            slots[h * WIDTH + F_CALLS] = 0;
        }
        Arrays.fill(occupied, 0);
        size = 0;
    }

    private static void write(FileChannel o, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            o.write(b);
        }
    }

    /** Writes every path's row: the runs and the table merged, the sums of a path added up. */
    void finish() throws IOException {
        for (int at = 0; at < front.length; at += WIDTH) {
            if (front[at + F_CALLS] != 0) {
                evict(at);
            }
        }
        sortSlots();
        List<Source> sources = new ArrayList<>();
        sources.add(new TableSource());
        try {
            for (Path run : runs) {
                sources.add(new RunSource(run));
            }
            Source[] heap = new Source[sources.size()];
            int n = 0;
            for (Source src : sources) {
                if (src.advance()) {
                    heap[n++] = src;
                }
            }
            for (int i = n / 2 - 1; i >= 0; i--) {
                down(heap, i, n);
            }
            long s = 0;
            long p = 0;
            long m = 0;
            long d = 0;
            long c = 0;
            long t = NULL_LONG;
            long f = NULL_LONG;
            long x = NULL_LONG;
            while (n > 0) {
                Source top = heap[0];
                if (c != 0 && (top.stack != s || top.parent != p || top.method != m || top.depth != d)) {
                    if (top.stack == s) {
                        throw collision(s);
                    }
                    row(s, p, m, d, c, t, f, x);
                    c = 0;
                }
                if (c == 0) {
                    s = top.stack;
                    p = top.parent;
                    m = top.method;
                    d = top.depth;
                    t = NULL_LONG;
                    f = NULL_LONG;
                    x = NULL_LONG;
                }
                c += top.calls;
                t = plus(t, top.total);
                f = plus(f, top.self);
                x = max(x, top.longest);
                if (!top.advance()) {
                    heap[0] = heap[--n];
                }
                down(heap, 0, n);
            }
            if (c != 0) {
                row(s, p, m, d, c, t, f, x);
            }
        } finally {
            for (Source src : sources) {
                src.close();
            }
            for (Path run : runs) {
                Files.deleteIfExists(run);
            }
            empty();
        }
    }

    /**
     * Two different call paths (caller's path, method or depth) with the same 64-bit stack id: the
     * {@code calls} view would join each of their calls to both paths' rows. Astronomically rare (a
     * few million paths among 2^64 ids), and refused rather than answered wrongly.
     */
    private static IOException collision(long stack) {
        return new IOException(String.format("two different call paths have the same stack id %d: this trace cannot be exported to"
                + " the tables (their calls would be told apart by nothing)", stack));
    }

    private void row(long s, long p, long m, long d, long c, long t, long f, long x) throws IOException {
        int r = out.next();
        long[][] l = out.longs;
        l[STACK][r] = s;
        l[PARENT][r] = p;
        l[METHOD][r] = m;
        out.ints[DEPTH][r] = (int) d;
        l[CALLS][r] = c;
        l[TOTAL][r] = t;
        l[SELF][r] = f;
        l[MAX][r] = x;
    }

    /** The paths in order from one run or the table: the current one's key and sums. */
    private abstract static class Source {
        long stack;
        long parent;
        long method;
        long depth;
        long calls;
        long total;
        long self;
        long longest;

        /** Moves to the next path; false at the end. */
        abstract boolean advance() throws IOException;

        void close() throws IOException {
        }
    }

    private final class TableSource extends Source {
        private int i = -1;

        @Override
        boolean advance() {
            if (++i >= size) {
                return false;
            }
            long[] t = slots;
            int at = (int) order[i] * WIDTH;
            stack = t[at + F_STACK];
            parent = t[at + F_PARENT];
            method = t[at + F_METHOD];
            depth = t[at + F_DEPTH];
            calls = t[at + F_CALLS];
            total = t[at + F_TOTAL];
            self = t[at + F_SELF];
            longest = t[at + F_MAX];
            return true;
        }
    }

    private static final class RunSource extends Source {
        private final FileChannel in;
        /** A whole number of paths, read a buffer at a time. */
        private final ByteBuffer b = ByteBuffer.allocate(RUN_BUFFER / (WIDTH * Long.BYTES) * (WIDTH * Long.BYTES)).flip();

        RunSource(Path run) throws IOException {
            in = FileChannel.open(run, StandardOpenOption.READ);
        }

        @Override
        boolean advance() throws IOException {
            if (!b.hasRemaining()) {
                b.clear();
                while (b.hasRemaining() && in.read(b) >= 0) {
                    // fill the buffer: a run is whole paths, so it ends at a path's end
                }
                b.flip();
                if (!b.hasRemaining()) {
                    return false;
                }
            }
            stack = b.getLong();
            parent = b.getLong();
            method = b.getLong();
            depth = b.getLong();
            calls = b.getLong();
            total = b.getLong();
            self = b.getLong();
            longest = b.getLong();
            return true;
        }

        @Override
        void close() throws IOException {
            in.close();
        }
    }

    /** Sifts {@code heap[i]} down a min-heap of {@code n} sources ordered by their current path. */
    private static void down(Source[] heap, int i, int n) {
        while (true) {
            int least = i;
            int l = 2 * i + 1;
            if (l < n && before(heap[l], heap[least])) {
                least = l;
            }
            if (l + 1 < n && before(heap[l + 1], heap[least])) {
                least = l + 1;
            }
            if (least == i) {
                return;
            }
            Source x = heap[i];
            heap[i] = heap[least];
            heap[least] = x;
            i = least;
        }
    }

    private static boolean before(Source a, Source b) {
        return compare(a.stack, a.parent, a.method, a.depth, b.stack, b.parent, b.method, b.depth) < 0;
    }

    /** The paths' order: the stack id's high bits unsigned, then stack id, caller's path, method and depth. */
    private static int compare(long s1, long p1, long m1, long d1, long s2, long p2, long m2, long d2) {
        int c = Long.compareUnsigned(s1 >>> SLOT_BITS, s2 >>> SLOT_BITS);
        if (c == 0) {
            c = Long.compare(s1, s2);
        }
        if (c == 0) {
            c = Long.compare(p1, p2);
        }
        if (c == 0) {
            c = Long.compare(m1, m2);
        }
        return c != 0 ? c : Long.compare(d1, d2);
    }

    private int compareSlots(int a, int b) {
        int x = a * WIDTH;
        int y = b * WIDTH;
        return compare(slots[x + F_STACK], slots[x + F_PARENT], slots[x + F_METHOD], slots[x + F_DEPTH], slots[y + F_STACK],
                slots[y + F_PARENT], slots[y + F_METHOD], slots[y + F_DEPTH]);
    }
}
