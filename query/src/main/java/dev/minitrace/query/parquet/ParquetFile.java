package dev.minitrace.query.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * One Parquet file (zstd, data pages v1), written a slice of rows at a time, column after column:
 * each column's {@link ColumnPages} encodes its values with parquet-java's encoders into pages,
 * parquet-java's page store and file writer put them in row groups and write the footer.
 * parquet-java's record-at-a-time API costs several times more per value (a call chain per field of
 * every row); the table classes hold each slice as primitive columns instead and hand them over
 * here.
 *
 * <p>Nullable columns take a sentinel for null: {@link #NULL_LONG}, {@link #NULL_INT}. A row group
 * ends after {@code rowGroupRows} rows or when its pages pass {@code rowGroupBytes}, which bounds
 * the heap a file holds.
 */
public final class ParquetFile implements Closeable {
    /** Null in a nullable INT64 column. */
    public static final long NULL_LONG = Long.MIN_VALUE;
    /** Null in a nullable INT32 column. */
    public static final int NULL_INT = Integer.MIN_VALUE;

    private final MessageType schema;
    private final List<ColumnDescriptor> descriptors;
    private final ParquetProperties properties;
    private final ZstdCompressor compressor = new ZstdCompressor();
    private final ParquetFileWriter file;
    private final int rowGroupRows;
    private final long rowGroupBytes;
    private final Map<String, String> metadata;
    private final ColumnPages[] columns;
    /** Per column, the zstd level of its pages: chosen once from its encoding. */
    private final int[] levels;
    private ColumnChunkPageWriteStore pages;
    private int rowsInGroup;
    private long rows;
    private boolean closed;

    /**
     * Creates {@code path} (which must not exist) for rows of {@code table}.
     *
     * @param metadata key-value pairs for the file's footer
     */
    public ParquetFile(Path path, TableSchema table, int rowGroupRows, long rowGroupBytes, Map<String, String> metadata)
            throws IOException {
        this.schema = table.parquet();
        this.descriptors = schema.getColumns();
        this.properties = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withPageSize(ColumnPages.PAGE_BYTES)
                .build();
        this.rowGroupRows = rowGroupRows;
        this.rowGroupBytes = rowGroupBytes;
        this.metadata = metadata;
        this.file = new ParquetFileWriter(new LocalOutputFile(path), schema, ParquetFileWriter.Mode.CREATE, rowGroupBytes, 0,
                null, properties);
        file.start();
        this.columns = new ColumnPages[descriptors.size()];
        this.levels = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            TableSchema.Column c = table.columns().get(i);
            levels[i] = c.encoding().plainValues() ? ZstdCompressor.RANDOM_LEVEL : ZstdCompressor.LEVEL;
            columns[i] = new ColumnPages(descriptors.get(i), c.kind(), c.encoding(), properties.getAllocator());
        }
        startGroup();
    }

    private void startGroup() {
        pages = new ColumnChunkPageWriteStore(compressor, schema, properties.getAllocator(),
                properties.getColumnIndexTruncateLength(), properties.getPageWriteChecksumEnabled());
        for (int i = 0; i < columns.length; i++) {
            columns[i].start(pages.getPageWriter(descriptors.get(i)));
        }
        rowsInGroup = 0;
    }

    /** Column {@code c} gets {@code v[0, n)}; {@link #NULL_LONG} is null where the column is nullable. */
    public void longs(int c, long[] v, int n) {
        columns[c].longs(v, n);
    }

    /** Column {@code c} gets {@code v[0, n)}; {@link #NULL_INT} is null where the column is nullable. */
    public void ints(int c, int[] v, int n) {
        columns[c].ints(v, n);
    }

    /** Column {@code c} gets the booleans {@code v[0, n)}: 0 false, 1 true, anything else null. */
    public void booleans(int c, byte[] v, int n) {
        columns[c].booleans(v, n);
    }

    /** Column {@code c} gets {@code codes[v[i]]} for {@code i < n} (a string column of a few values, always the same codes). */
    public void codes(int c, byte[] v, Binary[] codes, int n) {
        columns[c].codes(v, codes, n);
    }

    /** Column {@code c} gets one string value, or null. */
    public void string(int c, String s) {
        columns[c].string(s);
    }

    /** Every column got {@code n} more values: the rows are complete. */
    public void endRows(int n) throws IOException {
        long buffered = 0;
        for (int i = 0; i < columns.length; i++) {
            compressor.level(levels[i]);
            columns[i].endSlice();
            buffered += columns[i].bufferedBytes();
        }
        rowsInGroup += n;
        rows += n;
        if (rowsInGroup >= rowGroupRows || buffered >= rowGroupBytes) {
            endGroup();
            startGroup();
        }
    }

    private void endGroup() throws IOException {
        if (rowsInGroup == 0) {
            pages.close();
            return;
        }
        file.startBlock(rowsInGroup);
        for (int i = 0; i < columns.length; i++) {
            compressor.level(levels[i]);
            columns[i].endChunk();
        }
        pages.flushToFileWriter(file);
        file.endBlock();
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
            release();
        }
    }

    private void release() {
        for (ColumnPages c : columns) {
            c.close();
        }
        compressor.release();
    }

    /** Stops writing without completing the file (the caller deletes it). */
    public void abandon() {
        if (closed) {
            return;
        }
        closed = true;
        release();
        try {
            file.close();
        } catch (IOException | RuntimeException e) {
            // the file is deleted by the caller: nothing of it is kept
        }
    }
}
