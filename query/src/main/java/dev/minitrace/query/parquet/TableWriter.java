package dev.minitrace.query.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.io.api.Binary;

/**
 * Rows of one table, gathered in primitive columns and written to its {@link ParquetFile} a slice
 * at a time. A caller fills row {@link #next()} through the column arrays ({@link #longs},
 * {@link #ints}, {@link #bytes}) by the column's index in the schema, reading the arrays anew after
 * each {@code next()}; nulls are the sentinels of {@link ParquetFile}. A STRING column is written
 * from byte codes into the values given to {@link #codes}, or row by row with {@link #string}.
 *
 * <p>An {@linkplain #background(String) encoding in the background} hands each full slice to a
 * thread of its own and goes on filling a second set of arrays: the encoding (most of an export's
 * work) then runs beside the converter's and the other tables' threads.
 */
public final class TableWriter implements Closeable {
    /** Rows per slice: the columns of a slice stay in the CPU's caches while they are written. */
    public static final int SLICE = 4096;

    private final TableSchema schema;
    private final ParquetFile file;
    /** Per column, by index: the values of the slice being filled (only the arrays of the column's kind exist). */
    public long[][] longs;
    /** See {@link #longs}. */
    public int[][] ints;
    /** BOOLEAN (0, 1, other = null) and STRING code columns. */
    public byte[][] bytes;
    private String[][] strings;
    private final Slice[] slices = new Slice[2];
    private int filling;
    private final Binary[][] codes;
    private int n;
    private long written;
    private ExecutorService encoder;
    private Future<?> encoding;

    /** The arrays of one slice. */
    private static final class Slice {
        final long[][] longs;
        final int[][] ints;
        final byte[][] bytes;
        final String[][] strings;

        Slice(TableSchema schema) {
            int k = schema.columns().size();
            longs = new long[k][];
            ints = new int[k][];
            bytes = new byte[k][];
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
        }
    }

    /** A table written to {@code path}, with row groups of at most {@code rowGroupRows} rows and {@code rowGroupBytes} bytes. */
    public TableWriter(TableSchema schema, Path path, int rowGroupRows, long rowGroupBytes, Map<String, String> metadata)
            throws IOException {
        this.schema = schema;
        this.codes = new Binary[schema.columns().size()][];
        slices[0] = new Slice(schema);
        use(slices[0]);
        this.file = new ParquetFile(path, schema.parquet(), schema.randomColumns(), rowGroupRows, rowGroupBytes, metadata);
    }

    private void use(Slice s) {
        longs = s.longs;
        ints = s.ints;
        bytes = s.bytes;
        strings = s.strings;
    }

    /** From now on each full slice is encoded on a thread of its own, named {@code name}, while the next one fills. */
    public TableWriter background(String name) {
        if (slices[1] == null) {
            slices[1] = new Slice(schema);
            encoder = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        return this;
    }

    /** STRING column {@code c} is written from codes: code {@code i} stands for {@code values[i]}. */
    public void codes(int c, String... values) {
        Binary[] b = new Binary[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = Binary.fromConstantByteArray(values[i].getBytes(StandardCharsets.UTF_8));
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

    /** Writes the rows gathered so far (in the background: starts writing them). */
    public void flush() throws IOException {
        if (n == 0) {
            return;
        }
        Slice full = slices[filling];
        int rows = n;
        written += rows;
        n = 0;
        if (encoder == null) {
            write(full, rows);
            return;
        }
        await();
        encoding = encoder.submit(() -> {
            try {
                write(full, rows);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        filling = 1 - filling;
        use(slices[filling]);
    }

    /** Waits for the slice being encoded in the background; its failure is this writer's. */
    private void await() throws IOException {
        if (encoding == null) {
            return;
        }
        try {
            encoding.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a slice of " + schema.name() + " was written");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        } finally {
            encoding = null;
        }
    }

    private void write(Slice s, int rows) throws IOException {
        for (int c = 0; c < s.longs.length; c++) {
            switch (schema.columns().get(c).kind()) {
                case LONG -> file.longs(c, s.longs[c], rows);
                case INT -> file.ints(c, s.ints[c], rows);
                case BOOLEAN -> file.booleans(c, s.bytes[c], rows);
                case STRING -> {
                    if (codes[c] != null) {
                        file.codes(c, s.bytes[c], codes[c], rows);
                    } else {
                        for (int i = 0; i < rows; i++) {
                            file.string(c, s.strings[c][i]);
                            s.strings[c][i] = null;
                        }
                    }
                }
                default -> throw new IllegalStateException();
            }
        }
        file.endRows(rows);
    }

    /** Rows written or gathered. */
    public long rows() {
        return written + n;
    }

    /** Writes what is gathered and completes the file. */
    @Override
    public void close() throws IOException {
        try {
            flush();
            await();
            file.close();
        } finally {
            stopEncoder();
        }
    }

    /** Stops without completing the file. */
    public void abandon() {
        if (encoding != null) {
            encoding.cancel(false);
            try {
                encoding.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                // abandoned: what the slice met no longer matters
            }
            encoding = null;
        }
        stopEncoder();
        file.abandon();
    }

    private void stopEncoder() {
        if (encoder != null) {
            encoder.shutdown();
            encoder = null;
        }
    }
}
