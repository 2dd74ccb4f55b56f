package dev.minitrace.query.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * One Parquet file (zstd, data pages v2), written a slice of rows at a time, column after column,
 * through parquet-java's own column writers, page store and file writer. parquet-java's
 * record-at-a-time API costs several times more per value (a call chain per field of every row);
 * the table classes hold each slice as primitive columns instead and hand them over here.
 *
 * <p>Nullable columns take a sentinel for null: {@link #NULL_LONG}, {@link #NULL_INT}. A row group
 * ends after {@code rowGroupRows} rows or when its buffered pages pass {@code rowGroupBytes}, which
 * bounds the heap a file holds.
 */
public final class ParquetFile implements Closeable {
    /** Null in a nullable INT64 column. */
    public static final long NULL_LONG = Long.MIN_VALUE;
    /** Null in a nullable INT32 column. */
    public static final int NULL_INT = Integer.MIN_VALUE;

    private static final int PAGE_BYTES = 512 << 10;
    private static final int DICTIONARY_PAGE_BYTES = 256 << 10;
    private static final int PAGE_CHECK_ROWS = 4096;

    private final MessageType schema;
    private final List<ColumnDescriptor> descriptors;
    private final boolean[] nullable;
    private final ParquetProperties properties;
    private final ZstdCompressor compressor = new ZstdCompressor();
    private final ParquetFileWriter file;
    private final int rowGroupRows;
    private final long rowGroupBytes;
    private final Map<String, String> metadata;
    private final ColumnWriter[] writers;
    private ColumnChunkPageWriteStore pages;
    private ColumnWriteStore store;
    private int rowsInGroup;
    private long rows;
    private boolean closed;

    /**
     * Creates {@code path} (which must not exist) for rows of {@code schema}.
     *
     * @param plainColumns the columns stored PLAIN (see {@link PlainWhereAsked}); the others take
     *                     parquet-java's defaults for data pages v2: a dictionary, falling back to
     *                     delta encoding for numbers
     * @param metadata     key-value pairs for the file's footer
     */
    public ParquetFile(Path path, MessageType schema, Set<String> plainColumns, int rowGroupRows, long rowGroupBytes,
            Map<String, String> metadata) throws IOException {
        this.schema = schema;
        this.descriptors = schema.getColumns();
        this.nullable = new boolean[descriptors.size()];
        for (int i = 0; i < nullable.length; i++) {
            nullable[i] = schema.getType(i).isRepetition(Type.Repetition.OPTIONAL);
        }
        ParquetProperties.Builder builder = ParquetProperties.builder();
        for (String column : plainColumns) {
            // min and max of random values (identity hashes) let no reader skip anything
            builder.withStatisticsEnabled(column, false);
        }
        this.properties = builder
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                // per-page level histograms and byte counts, updated for every value: no reader of
                // these tables (DuckDB, Spark) uses them
                .withSizeStatisticsEnabled(false)
                .withPageSize(PAGE_BYTES)
                .withDictionaryPageSize(DICTIONARY_PAGE_BYTES)
                // parquet-java checks every column's page size from every 100th row on; rows come
                // in slices of thousands here, and checking once a slice kept a third of the
                // records table's encoding time
                .withMinRowCountForPageSizeCheck(PAGE_CHECK_ROWS)
                .withMaxRowCountForPageSizeCheck(4 * PAGE_CHECK_ROWS)
                .withValuesWriterFactory(new PlainWhereAsked(plainColumns))
                .build();
        this.rowGroupRows = rowGroupRows;
        this.rowGroupBytes = rowGroupBytes;
        this.metadata = metadata;
        this.file = new ParquetFileWriter(new LocalOutputFile(path), schema, ParquetFileWriter.Mode.CREATE, rowGroupBytes, 0,
                null, properties);
        file.start();
        this.writers = new ColumnWriter[descriptors.size()];
        startGroup();
    }

    private void startGroup() {
        pages = new ColumnChunkPageWriteStore(compressor, schema, properties.getAllocator(),
                properties.getColumnIndexTruncateLength(), properties.getPageWriteChecksumEnabled());
        store = properties.newColumnWriteStore(schema, pages, pages);
        for (int i = 0; i < writers.length; i++) {
            writers[i] = store.getColumnWriter(descriptors.get(i));
        }
        rowsInGroup = 0;
    }

    /** Column {@code c} gets {@code v[0, n)}; {@link #NULL_LONG} is null where the column is nullable. */
    public void longs(int c, long[] v, int n) {
        ColumnWriter w = writers[c];
        if (nullable[c]) {
            for (int i = 0; i < n; i++) {
                long x = v[i];
                if (x == NULL_LONG) {
                    w.writeNull(0, 0);
                } else {
                    w.write(x, 0, 1);
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                w.write(v[i], 0, 0);
            }
        }
    }



    /** Column {@code c} gets {@code v[0, n)}; {@link #NULL_INT} is null where the column is nullable. */
    public void ints(int c, int[] v, int n) {
        ColumnWriter w = writers[c];
        if (nullable[c]) {
            for (int i = 0; i < n; i++) {
                int x = v[i];
                if (x == NULL_INT) {
                    w.writeNull(0, 0);
                } else {
                    w.write(x, 0, 1);
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                w.write(v[i], 0, 0);
            }
        }
    }

    /** Column {@code c} gets the booleans {@code v[0, n)}: 0 false, 1 true, anything else null. */
    public void booleans(int c, byte[] v, int n) {
        ColumnWriter w = writers[c];
        for (int i = 0; i < n; i++) {
            byte x = v[i];
            if (x == 0 || x == 1) {
                w.write(x == 1, 0, nullable[c] ? 1 : 0);
            } else {
                w.writeNull(0, 0);
            }
        }
    }

    /** Column {@code c} gets {@code codes[v[i]]} for {@code i < n} (a string column of a few values). */
    public void codes(int c, byte[] v, Binary[] codes, int n) {
        ColumnWriter w = writers[c];
        int level = nullable[c] ? 1 : 0;
        for (int i = 0; i < n; i++) {
            w.write(codes[v[i]], 0, level);
        }
    }

    /** Column {@code c} gets one string value, or null. */
    public void string(int c, String s) {
        if (s == null) {
            writers[c].writeNull(0, 0);
        } else {
            writers[c].write(Binary.fromString(s), 0, nullable[c] ? 1 : 0);
        }
    }


    /** Every column got {@code n} more values: the rows are complete. */
    public void endRows(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            store.endRecord();
        }
        rowsInGroup += n;
        rows += n;
        if (rowsInGroup >= rowGroupRows || store.getBufferedSize() >= rowGroupBytes) {
            endGroup();
            startGroup();
        }
    }

    private void endGroup() throws IOException {
        if (rowsInGroup == 0) {
            store.close();
            pages.close();
            return;
        }
        file.startBlock(rowsInGroup);
        store.flush();
        pages.flushToFileWriter(file);
        file.endBlock();
        store.close();
        pages.close();
    }

    /** The rows written so far. */
    public long rows() {
        return rows;
    }

    /** Writes the last row group and the footer: the file is complete. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            endGroup();
            file.end(metadata);
        } finally {
            compressor.release();
        }
    }

    /** Stops writing without completing the file (the caller deletes it). */
    public void abandon() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            file.close();
        } catch (IOException | RuntimeException e) {
            // the file is deleted by the caller: nothing of it is kept
        }
    }
}
