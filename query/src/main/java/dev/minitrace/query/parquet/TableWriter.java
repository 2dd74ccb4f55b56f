package dev.minitrace.query.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.parquet.io.api.Binary;

/**
 * Rows of one table, gathered in primitive columns and written to its {@link ParquetFile} a slice
 * at a time. A caller fills row {@link #next()} through the column arrays ({@link #longs},
 * {@link #ints}, {@link #bytes}) by the column's index in the schema; nulls are the sentinels of
 * {@link ParquetFile}. A STRING column is written from byte codes into the values given to
 * {@link #codes}, or row by row with {@link #string}.
 */
public final class TableWriter implements Closeable {
    /** Rows per slice: the columns of a slice stay in the CPU's caches while they are written. */
    public static final int SLICE = 4096;

    private final TableSchema schema;
    private final ParquetFile file;
    /** Per column, by index: the values of the slice (only the arrays of the column's kind exist). */
    public final long[][] longs;
    /** See {@link #longs}. */
    public final int[][] ints;
    /** BOOLEAN (0, 1, other = null) and STRING code columns. */
    public final byte[][] bytes;
    private final Binary[][] codes;
    private final String[][] strings;
    private int n;

    /** A table written to {@code path}, with row groups of at most {@code rowGroupRows} rows and {@code rowGroupBytes} bytes. */
    public TableWriter(TableSchema schema, Path path, int rowGroupRows, long rowGroupBytes, Map<String, String> metadata)
            throws IOException {
        this.schema = schema;
        int k = schema.columns().size();
        longs = new long[k][];
        ints = new int[k][];
        bytes = new byte[k][];
        codes = new Binary[k][];
        strings = new String[k][];
        for (int c = 0; c < k; c++) {
            switch (schema.columns().get(c).kind()) {
                case LONG -> longs[c] = new long[SLICE];
                case INT -> ints[c] = new int[SLICE];
                case BOOLEAN -> bytes[c] = new byte[SLICE];
                case STRING -> {
                    bytes[c] = new byte[SLICE];
                    strings[c] = new String[SLICE];
                }
                default -> throw new IllegalStateException();
            }
        }
        this.file = new ParquetFile(path, schema.parquet(), schema.randomColumns(), rowGroupRows, rowGroupBytes, metadata);
    }

    /** STRING column {@code c} is written from codes: code {@code i} stands for {@code values[i]}. */
    public void codes(int c, String... values) {
        Binary[] b = new Binary[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = values[i] == null ? null : Binary.fromConstantByteArray(values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        codes[c] = b;
    }

    /** The index of the row to fill; the slice is written first when it is full. */
    public int next() throws IOException {
        if (n == SLICE) {
            flush();
        }
        return n++;
    }

    /** Sets STRING column {@code c} of row {@code row} to {@code s} (null allowed), for tables of few rows. */
    public void string(int row, int c, String s) {
        strings[c][row] = s;
    }

    /** Writes the rows gathered so far. */
    public void flush() throws IOException {
        if (n == 0) {
            return;
        }
        for (int c = 0; c < longs.length; c++) {
            switch (schema.columns().get(c).kind()) {
                case LONG -> file.longs(c, longs[c], n);
                case INT -> file.ints(c, ints[c], n);
                case BOOLEAN -> file.booleans(c, bytes[c], n);
                case STRING -> {
                    if (codes[c] != null) {
                        file.codes(c, bytes[c], codes[c], n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            file.string(c, strings[c][i]);
                            strings[c][i] = null;
                        }
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        file.endRows(n);
        n = 0;
    }

    /** Rows written or gathered. */
    public long rows() {
        return file.rows() + n;
    }

    /** Writes what is gathered and completes the file. */
    @Override
    public void close() throws IOException {
        flush();
        file.close();
    }

    /** Stops without completing the file. */
    public void abandon() {
        file.abandon();
    }
}
