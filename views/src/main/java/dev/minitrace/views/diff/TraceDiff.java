package dev.minitrace.views.diff;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.CountTable;
import dev.minitrace.converter.util.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The rows of {@code mt diff}: the counts of a base and a new trace, matched by name: methods by
 * class, name and descriptor (two ids of one name, e.g. one class in two loaders, add up), classes
 * by name, call paths by the methods along them. A trace's own ids mean nothing in the other, so
 * both are first mapped to names, each distinct name to one index, and the rows are keyed by those
 * indexes in primitive maps.
 *
 * <p>Allocation and throw sites are methods, not bytecode indexes: any edit of a method moves its
 * bytecode indexes, and a regression check must not report every later instruction of an edited
 * method as removed and added.
 */
public final class TraceDiff {
    private final DiffBy by;
    private final int metrics;
    private final List<String> methodNames = new ArrayList<>();
    private final Map<String, Integer> methodIndex = new HashMap<>();
    private final List<String> classNames = new ArrayList<>();
    private final Map<String, Integer> classIndex = new HashMap<>();
    private boolean[] selected = new boolean[64];
    private final BiPredicate<String, String> filter;
    private final LongIntMap rowIndex = new LongIntMap(1024);
    /** Row key parts: a method index (or a parent row for a path), a class index (or a method index for a path). */
    private int[] keyA = new int[256];
    private int[] keyB = new int[256];
    /** Counts: row r's metric k of side s at {@code (r * metrics + k) * 2 + s}. */
    private long[] counts;
    private int rows;

    /**
     * Compares {@code base} with {@code next} by {@code by}; {@code filter} tells from a method's
     * class and name whether its rows count (allocations, acquisitions and throws outside any
     * traced method are asked with a null class and name).
     */
    public static TraceDiff of(DiffBy by, TraceCounts base, TraceCounts next, BiPredicate<String, String> filter) {
        TraceDiff d = new TraceDiff(by, filter);
        if (by == DiffBy.PATH) {
            d.keyA[0] = -1; // row 0: the root of the merged path tree, never shown
            d.keyB[0] = -1;
            d.rows = 1;
        }
        d.add(base, 0);
        d.add(next, 1);
        return d;
    }

    private TraceDiff(DiffBy by, BiPredicate<String, String> filter) {
        this.by = by;
        this.metrics = by.metrics().size();
        this.filter = filter;
        this.counts = new long[256 * metrics * 2];
    }

    /** What a row is. */
    public DiffBy by() {
        return by;
    }

    private void add(TraceCounts t, int side) {
        MtlogInfo info = t.info();
        CountTable methods = t.methods;
        int[] method = new int[methods.rows()];
        for (int m = 0; m < method.length; m++) {
            method[m] = method(info.methods().get(methods.key(m)), methods.key(m));
        }
        switch (by) {
            case METHOD -> {
                for (int m = 0; m < method.length; m++) {
                    int c = method[m];
                    if (selected[c]) {
                        int r = row(c, 0);
                        put(r, 0, side, methods.get(m, TraceCounts.CALLS));
                        put(r, 1, side, methods.get(m, TraceCounts.EXCEPTION_EXITS));
                        put(r, 2, side, methods.get(m, TraceCounts.ALLOCS));
                        put(r, 3, side, methods.get(m, TraceCounts.LOCKS));
                    }
                }
            }
            case ALLOC -> pairs(t.allocsBySite, method, info, side, false);
            case LOCK -> pairs(t.locksBySite, method, info, side, true);
            case EXCEPTION -> pairs(t.throwsBySite, method, info, side, false);
            case PATH -> {
                if (!t.hasPaths()) {
                    throw new IllegalStateException("the trace was counted without call paths");
                }
                int[] merged = new int[t.paths.rows()];
                merged[0] = 0;
                for (int n = 1; n < merged.length; n++) {
                    int c = method[t.pathMethod(n)];
                    merged[n] = row(merged[t.pathParent(n)], c);
                    if (selected[c]) {
                        put(merged[n], 0, side, t.paths.get(n, 0));
                    }
                }
            }
            default -> throw new IllegalStateException(by.toString());
        }
    }

    private void pairs(CountTable p, int[] method, MtlogInfo info, int side, boolean classOnly) {
        for (int i = 0; i < p.rows(); i++) {
            int pm = TraceCounts.pairMethod(p.key(i));
            int m = pm < 0 ? -1 : method[pm];
            if (m < 0 ? !filter.test(null, null) : !selected[m]) {
                continue;
            }
            int c = className(info, TraceCounts.pairClass(p.key(i)));
            put(classOnly ? row(c, 0) : row(c, m), 0, side, p.get(i, 0));
        }
    }

    private int method(MtlogInfo.MethodInfo mi, long id) {
        String cls = mi == null ? "?" : mi.className();
        String name = mi == null ? "method#" + Long.toUnsignedString(id) : mi.methodName();
        String desc = mi == null ? "" : mi.descriptor();
        String key = cls + '\t' + name + '\t' + desc;
        Integer i = methodIndex.get(key);
        if (i == null) {
            i = methodNames.size();
            methodNames.add(key);
            methodIndex.put(key, i);
            if (i == selected.length) {
                selected = Arrays.copyOf(selected, i * 2);
            }
            selected[i] = filter.test(cls, name);
        }
        return i;
    }

    private int className(MtlogInfo info, int classId) {
        String name = info.classes().get(classId & 0xFFFF_FFFFL);
        if (name == null) {
            name = "class#" + Integer.toUnsignedString(classId);
        }
        return classIndex.computeIfAbsent(name, k -> {
            classNames.add(k);
            return classNames.size() - 1;
        });
    }

    private int row(int a, int b) {
        long key = ((long) (a + 1) << 32) | (b & 0xFFFF_FFFFL);
        int r = rowIndex.get(key);
        if (r != LongIntMap.MISSING) {
            return r;
        }
        if (rows == keyA.length) {
            keyA = Arrays.copyOf(keyA, rows * 2);
            keyB = Arrays.copyOf(keyB, rows * 2);
        }
        if ((rows + 1) * metrics * 2 > counts.length) {
            counts = Arrays.copyOf(counts, counts.length * 2);
        }
        r = rows++;
        keyA[r] = a;
        keyB[r] = b;
        rowIndex.put(key, r);
        return r;
    }

    private void put(int row, int metric, int side, long n) {
        counts[(row * metrics + metric) * 2 + side] += n;
    }

    /** The base count of row {@code r}'s metric {@code k}. */
    public long base(int r, int k) {
        return counts[(r * metrics + k) * 2];
    }

    /** The new count of row {@code r}'s metric {@code k}. */
    public long next(int r, int k) {
        return counts[(r * metrics + k) * 2 + 1];
    }

    /** True when some count of row {@code r} differs between the traces. */
    public boolean differs(int r) {
        for (int k = 0; k < metrics; k++) {
            if (base(r, k) != next(r, k)) {
                return true;
            }
        }
        return false;
    }

    private boolean counted(int r) {
        for (int k = 0; k < metrics; k++) {
            if (base(r, k) != 0 || next(r, k) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The rows to show: those that differ ({@code all}: every row with a count), the largest change
     * first, ties by key, so that the output of two runs is the same.
     */
    public int[] rows(boolean all) {
        int[] shown = new int[rows];
        int n = 0;
        for (int r = by == DiffBy.PATH ? 1 : 0; r < rows; r++) {
            if (all ? counted(r) : differs(r)) {
                shown[n++] = r;
            }
        }
        Integer[] boxed = new Integer[n]; // the rows shown, not the records: a sort of a few thousand
        String[] keys = new String[rows];
        for (int i = 0; i < n; i++) {
            boxed[i] = shown[i];
            keys[shown[i]] = String.join("\t", key(shown[i]));
        }
        Arrays.sort(boxed, (x, y) -> {
            int c = Long.compare(change(y), change(x));
            return c != 0 ? c : keys[x].compareTo(keys[y]);
        });
        for (int i = 0; i < n; i++) {
            shown[i] = boxed[i];
        }
        return Arrays.copyOf(shown, n);
    }

    private long change(int r) {
        long max = 0;
        for (int k = 0; k < metrics; k++) {
            max = Math.max(max, Math.abs(next(r, k) - base(r, k)));
        }
        return max;
    }

    /** The key columns of row {@code r} ({@link DiffBy#keys()}). */
    public List<String> key(int r) {
        return switch (by) {
            case METHOD -> List.of(methodNames.get(keyA[r]).split("\t", -1));
            case ALLOC, EXCEPTION -> List.of(classNames.get(keyA[r]), site(keyB[r]));
            case LOCK -> List.of(classNames.get(keyA[r]));
            case PATH -> List.of(path(r));
        };
    }

    /**
     * Row {@code r} in one phrase: a method {@code class::name descriptor}, a path its methods, a
     * site's class {@code in} its method.
     */
    public String label(int r) {
        return switch (by) {
            case METHOD -> site(keyA[r]);
            case ALLOC, EXCEPTION -> classNames.get(keyA[r]) + " in " + site(keyB[r]);
            case LOCK -> classNames.get(keyA[r]);
            case PATH -> path(r);
        };
    }

    /** The number of rows, path row 0 (the root) included. */
    public int size() {
        return rows;
    }

    /** The parent of path row {@code r} (0: the root; the root's is -1). A parent's row comes before its children's. */
    public int parent(int r) {
        return keyA[r];
    }

    /** The last method of path row {@code r}, {@code class::name descriptor}. */
    public String pathMethod(int r) {
        return site(keyB[r]);
    }

    /** The methods along path row {@code r}, outermost first, each {@code class::name descriptor}. */
    public List<String> pathMethods(int r) {
        List<String> methods = new ArrayList<>();
        for (int n = r; n > 0; n = keyA[n]) {
            methods.add(site(keyB[n]));
        }
        java.util.Collections.reverse(methods);
        return methods;
    }

    private String path(int r) {
        return String.join(";", pathMethods(r));
    }

    private String site(int m) {
        if (m < 0) {
            return "-";
        }
        String[] f = methodNames.get(m).split("\t", -1);
        return f[0] + "::" + f[1] + f[2];
    }
}
