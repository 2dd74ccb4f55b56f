package dev.minitrace.converter.util;

import java.util.Arrays;

/**
 * A growable table of fixed-width rows of {@code long} cells in one array, row after row: the open
 * calls and holds of a thread, the open slices of a timeline track, the nodes of a call tree, the
 * per-method counters. An {@code int}, {@code byte} or {@code boolean} column is kept as a long.
 * One array means one growth rule and one copy to move rows; cells are read and written in place,
 * so nothing is boxed or allocated per row once the table has grown to its working size.
 */
public final class LongRows {
    private final int width;
    private long[] cells;
    private int size;

    /** A table of rows of {@code width} cells, with room for {@code rows} rows before it grows. */
    public LongRows(int width, int rows) {
        if (width < 1) {
            throw new IllegalArgumentException("a row needs a cell, got width " + width);
        }
        this.width = width;
        this.cells = new long[Math.max(1, rows) * width];
    }

    /** The number of rows. */
    public int size() {
        return size;
    }

    /** Appends a row of zeros and returns its index. */
    public int add() {
        int end = (size + 1) * width;
        if (end > cells.length) {
            cells = Arrays.copyOf(cells, Math.max(end, cells.length * 2));
        } else {
            // a row dropped by truncate or remove left its cells behind
            Arrays.fill(cells, end - width, end, 0L);
        }
        return size++;
    }

    /**
     * Appends a row with its cells as they are (zeros, or those of a row dropped by truncate or
     * remove) and returns its index: for a caller that sets every cell, so that a push on a hot
     * path writes each cell once.
     */
    public int append() {
        int end = (size + 1) * width;
        if (end > cells.length) {
            cells = Arrays.copyOf(cells, Math.max(end, cells.length * 2));
        }
        return size++;
    }

    /** Inserts a row of zeros at {@code row}, moving the rows from there one place up. */
    public void insert(int row) {
        add();
        int at = row * width;
        System.arraycopy(cells, at, cells, at + width, (size - 1 - row) * width);
        Arrays.fill(cells, at, at + width, 0L);
    }

    /** Removes row {@code row}, moving the rows above it one place down. */
    public void remove(int row) {
        System.arraycopy(cells, (row + 1) * width, cells, row * width, (size - 1 - row) * width);
        size--;
    }

    /** Removes the first {@code rows} rows, moving the others down. */
    public void removeFirst(int rows) {
        System.arraycopy(cells, rows * width, cells, 0, (size - rows) * width);
        size -= rows;
    }

    /** Keeps the first {@code rows} rows ({@code rows} &lt;= {@link #size()}). */
    public void truncate(int rows) {
        size = rows;
    }

    public long get(int row, int column) {
        return cells[row * width + column];
    }

    public void set(int row, int column, long value) {
        cells[row * width + column] = value;
    }

    /** Adds {@code delta} to a cell. */
    public void add(int row, int column, long delta) {
        cells[row * width + column] += delta;
    }

    /**
     * The last of the rows below {@code below} whose {@code column} holds {@code value}, or -1: a
     * search from the top of a stack, in one loop over the array.
     */
    public int lastIndexOf(int column, long value, int below) {
        long[] c = cells;
        int w = width;
        for (int row = below - 1, i = row * w + column; row >= 0; row--, i -= w) {
            if (c[i] == value) {
                return row;
            }
        }
        return -1;
    }

    /**
     * Binary search of {@code key} in {@code column} of rows {@code from} (inclusive) to {@code to}
     * (exclusive), which must be sorted by that column: as {@link Arrays#binarySearch(long[], int, int, long)}.
     */
    public int search(int from, int to, int column, long key) {
        int low = from;
        int high = to - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long v = cells[mid * width + column];
            if (v < key) {
                low = mid + 1;
            } else if (v > key) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}
