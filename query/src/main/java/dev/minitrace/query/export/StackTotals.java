package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code stacks} table: the calls summed per call path ({@code stack_id}, with its caller's path
 * and its method), one row per path, so that a question about call paths (the call tree) reads a
 * row per path and not a row per call, and need not sum again. The sums are kept in a table of
 * bounded size, open addressing over primitives; whenever it fills, its paths are sorted and
 * written to a scratch file (a run), and at the end the runs and the table are merged in the
 * paths' order, the sums of a path that several runs hold added up into its one row. A real
 * program's trace has a few million paths, most of them rare: the heap stays bounded and the
 * scratch files hold 48 bytes per path and run.
 */
final class StackTotals {
    static final TableSchema STACKS = TraceTables.STACKS.stored();
    private static final int STACK = STACKS.index("stack_id");
    private static final int PARENT = STACKS.index("parent_stack_id");
    private static final int METHOD = STACKS.index("method_id");
    private static final int CALLS = STACKS.index("calls");
    private static final int TOTAL = STACKS.index("total_ns");
    private static final int SELF = STACKS.index("self_ns");

    /** Slots of the table: a power of two. */
    static final int SLOTS = 1 << 18;
    /** The table is written to a run when it holds this many paths. */
    private static final int FULL = SLOTS / 4 * 3;
    /** Each run's read buffer while merging. */
    private static final int RUN_BUFFER = 1 << 15;
    /** The heap the table holds: six arrays of longs. */
    static final long HEAP_BYTES = SLOTS * 6L * Long.BYTES;

    private final TableWriter out;
    private final Path scratch;
    private final List<Path> runs = new ArrayList<>();
    private final long[] stack = new long[SLOTS];
    private final long[] parent = new long[SLOTS];
    private final long[] method = new long[SLOTS];
    /** Calls per slot; 0 is an empty slot. */
    private final long[] calls = new long[SLOTS];
    /** Sums of the known durations and self times; NULL_LONG while none is known. */
    private final long[] total = new long[SLOTS];
    private final long[] self = new long[SLOTS];
    private int size;

    /** Sums written as rows of {@code out}; runs go to folder {@code scratch}. */
    StackTotals(TableWriter out, Path scratch) {
        this.out = out;
        this.scratch = scratch;
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
                spill();
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
        total[h] = plus(total[h], duration);
        self[h] = plus(self[h], selfNs);
    }

    /** A sum of known values: null while neither is known. */
    private static long plus(long sum, long value) {
        return value == NULL_LONG ? sum : sum == NULL_LONG ? value : sum + value;
    }

    /** Packs the table's paths into its first {@code size} slots, sorted by path. */
    private void compactAndSort() {
        int k = 0;
        for (int h = 0; h < SLOTS; h++) {
            if (calls[h] != 0) {
                if (h != k) {
                    move(h, k);
                    calls[h] = 0;
                }
                k++;
            }
        }
        sort(0, size - 1);
    }

    /** Writes the table's paths, sorted, to a new run and empties the table. */
    private void spill() throws IOException {
        compactAndSort();
        Path run = scratch.resolve("stacks-" + runs.size() + ".run");
        runs.add(run);
        try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), RUN_BUFFER))) {
            for (int i = 0; i < size; i++) {
                o.writeLong(stack[i]);
                o.writeLong(parent[i]);
                o.writeLong(method[i]);
                o.writeLong(calls[i]);
                o.writeLong(total[i]);
                o.writeLong(self[i]);
            }
        }
        Arrays.fill(calls, 0, size, 0);
        size = 0;
    }

    /** Writes every path's row: the runs and the table merged, the sums of a path added up. */
    void finish() throws IOException {
        compactAndSort();
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
            long c = 0;
            long t = NULL_LONG;
            long f = NULL_LONG;
            while (n > 0) {
                Source top = heap[0];
                if (c != 0 && (top.stack != s || top.parent != p || top.method != m)) {
                    row(s, p, m, c, t, f);
                    c = 0;
                }
                if (c == 0) {
                    s = top.stack;
                    p = top.parent;
                    m = top.method;
                    t = NULL_LONG;
                    f = NULL_LONG;
                }
                c += top.calls;
                t = plus(t, top.total);
                f = plus(f, top.self);
                if (!top.advance()) {
                    heap[0] = heap[--n];
                }
                down(heap, 0, n);
            }
            if (c != 0) {
                row(s, p, m, c, t, f);
            }
        } finally {
            for (Source src : sources) {
                src.close();
            }
            for (Path run : runs) {
                Files.deleteIfExists(run);
            }
            Arrays.fill(calls, 0);
            size = 0;
        }
    }

    private void row(long s, long p, long m, long c, long t, long f) throws IOException {
        int r = out.next();
        long[][] l = out.longs;
        l[STACK][r] = s;
        l[PARENT][r] = p;
        l[METHOD][r] = m;
        l[CALLS][r] = c;
        l[TOTAL][r] = t;
        l[SELF][r] = f;
    }

    /** The paths in order from one run or the table: the current one's key and sums. */
    private abstract static class Source {
        long stack;
        long parent;
        long method;
        long calls;
        long total;
        long self;

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
            stack = StackTotals.this.stack[i];
            parent = StackTotals.this.parent[i];
            method = StackTotals.this.method[i];
            calls = StackTotals.this.calls[i];
            total = StackTotals.this.total[i];
            self = StackTotals.this.self[i];
            return true;
        }
    }

    private static final class RunSource extends Source {
        private final DataInputStream in;

        RunSource(Path run) throws IOException {
            in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), RUN_BUFFER));
        }

        @Override
        boolean advance() throws IOException {
            try {
                stack = in.readLong();
            } catch (EOFException e) {
                return false;
            }
            parent = in.readLong();
            method = in.readLong();
            calls = in.readLong();
            total = in.readLong();
            self = in.readLong();
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
        return compare(a.stack, a.parent, a.method, b.stack, b.parent, b.method) < 0;
    }

    private static int compare(long s1, long p1, long m1, long s2, long p2, long m2) {
        int c = Long.compare(s1, s2);
        if (c == 0) {
            c = Long.compare(p1, p2);
        }
        return c != 0 ? c : Long.compare(m1, m2);
    }

    private int compareSlots(int a, int b) {
        return compare(stack[a], parent[a], method[a], stack[b], parent[b], method[b]);
    }

    /** Quicksort of slots {@code [lo, hi]} by path, the six arrays moved together. */
    private void sort(int lo, int hi) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            swap(mid, hi);
            int store = lo;
            for (int i = lo; i < hi; i++) {
                if (compareSlots(i, hi) < 0) {
                    swap(i, store++);
                }
            }
            swap(store, hi);
            // the smaller side by recursion, the larger by the loop: the stack stays shallow
            if (store - lo < hi - store) {
                sort(lo, store - 1);
                lo = store + 1;
            } else {
                sort(store + 1, hi);
                hi = store - 1;
            }
        }
    }

    private void move(int from, int to) {
        stack[to] = stack[from];
        parent[to] = parent[from];
        method[to] = method[from];
        calls[to] = calls[from];
        total[to] = total[from];
        self[to] = self[from];
    }

    private void swap(int a, int b) {
        long x = stack[a];
        stack[a] = stack[b];
        stack[b] = x;
        x = parent[a];
        parent[a] = parent[b];
        parent[b] = x;
        x = method[a];
        method[a] = method[b];
        method[b] = x;
        x = calls[a];
        calls[a] = calls[b];
        calls[b] = x;
        x = total[a];
        total[a] = total[b];
        total[b] = x;
        x = self[a];
        self[a] = self[b];
        self[b] = x;
    }
}
