package dev.minitrace.converter.util;

/**
 * Rows of {@code long} counters keyed by a {@code long} (a method id, a (method, class) pair, a step
 * of a call path, an allocation site), numbered densely in the order their keys are first seen: the
 * one table behind the views' counts per method, site, monitor class and call path. The rows are a
 * {@link LongRows} (the key is the last cell of its row), so a row is no object and growing is one
 * copy; a bound on the rows keeps memory bounded for any trace, and the caller counts what it turns
 * away.
 */
public final class CountTable {
    /** What {@link #row} returns for a new key once the table holds its bound of rows. */
    public static final int FULL = -1;

    private final int width;
    private final int limit;
    private final LongIntMap index;
    private final LongRows cells;

    /** A table of {@code width} counters a row, room for about {@code expected} rows, no bound. */
    public CountTable(int width, int expected) {
        this(width, expected, Integer.MAX_VALUE);
    }

    /** A table of {@code width} counters a row, room for about {@code expected} rows, at most {@code limit} rows. */
    public CountTable(int width, int expected, int limit) {
        if (width < 1 || expected < 1 || limit < 0) {
            throw new IllegalArgumentException("width " + width + ", expected " + expected + ", limit " + limit);
        }
        this.width = width;
        this.limit = limit;
        this.index = new LongIntMap(expected);
        this.cells = new LongRows(width + 1, expected);
    }

    /** The row of {@code key}, added with its counters at 0 when new; {@link #FULL} when new and the table is full. */
    public int row(long key) {
        int r = index.get(key);
        return r != LongIntMap.MISSING ? r : addRow(key);
    }

    /**
     * Adds a row for {@code key}, which has none ({@link #find} answered {@link #FULL}), with its
     * counters at 0; {@link #FULL} when the table is full. A caller that has just looked the key up
     * saves the second lookup of {@link #row}.
     */
    public int addRow(long key) {
        if (cells.size() >= limit) {
            return FULL;
        }
        // no row is ever dropped, so the cells past the last row are still zeros
        int r = cells.append();
        cells.set(r, width, key);
        index.put(key, r);
        return r;
    }

    /** The row of {@code key}, or {@link #FULL} when it has none. */
    public int find(long key) {
        int r = index.get(key);
        return r == LongIntMap.MISSING ? FULL : r;
    }

    /** The number of rows. */
    public int rows() {
        return cells.size();
    }

    /** The key of {@code row}. */
    public long key(int row) {
        return cells.get(row, width);
    }

    /** Counter {@code counter} of {@code row}. */
    public long get(int row, int counter) {
        return cells.get(row, counter);
    }

    /** Adds {@code n} to counter {@code counter} of {@code row}. */
    public void add(int row, int counter, long n) {
        cells.add(row, counter, n);
    }

    /** Raises counter {@code counter} of {@code row} to {@code value} if it is below. */
    public void max(int row, int counter, long value) {
        if (cells.get(row, counter) < value) {
            cells.set(row, counter, value);
        }
    }

    /** Sets counter {@code counter} of {@code row}. */
    public void set(int row, int counter, long value) {
        cells.set(row, counter, value);
    }
}
