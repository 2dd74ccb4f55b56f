package dev.minitrace.query.parquet;

import dev.minitrace.converter.util.Tasks;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.io.api.Binary;

/**
 * Rows of one table, gathered in primitive columns and written a slice at a time to the table's
 * Parquet files ({@code part-0.parquet}, {@code part-1.parquet}, ... in one folder). A caller
 * fills row {@link #next()} through the column arrays ({@link #longs}, {@link #ints},
 * {@link #bytes}) by the column's index in the schema, reading the arrays anew after each
 * {@code next()}; nulls are the sentinels of {@link ParquetFile}. A STRING column is written from
 * byte codes into the values given to {@link #codes}, or row by row with {@link #string}.
 *
 * <p>With {@code parts} of 1 the slices are written by the caller. With more, or after
 * {@link #background}, each part encodes on a thread of its own: a full slice goes to the next
 * part in turn while the caller fills another slice, so the encoding (most of an export's work)
 * runs beside the converter's threads and on every core. Rows keep their order within a part,
 * not across parts.
 */
public final class TableWriter implements Closeable {
    /** Rows per slice: the columns of a slice stay in the CPU's caches while they are written. */
    public static final int SLICE = 4096;
    /** Rows of a {@link #staged} writer's small slice; a divisor of {@link #SLICE}. */
    static final int STAGE = 256;

    /**
     * The heap the {@link TableSchema.Encoding#REPEATS} columns of a file of {@code table} hold at
     * most: each its large page, the buffer the page grew in by doubling, and the page compressed.
     */
    public static long repeatBytes(TableSchema table) {
        long bytes = 0;
        for (TableSchema.Column c : table.columns()) {
            if (c.encoding() == TableSchema.Encoding.REPEATS) {
                int width = c.kind() == TableSchema.Kind.LONG ? 8 : 4;
                bytes += 3L * Math.min(ColumnPages.REPEAT_PAGE_BYTES, (long) ColumnPages.REPEAT_PAGE_ROWS * width);
            }
        }
        return bytes;
    }

    private final TableSchema schema;
    private final ParquetFile[] files;
    /** Per column, by index: the values of the slice being filled (only the arrays of the column's kind exist). */
    public long[][] longs;
    /** See {@link #longs}. */
    public int[][] ints;
    /** BOOLEAN (0, 1, other = null) and STRING code columns. */
    public byte[][] bytes;
    private String[][] strings;
    private final Binary[][] codes;
    /**
     * Slices queued per part beyond the one it encodes: on 2 cores the converter's threads and the
     * encoders take turns, and a deeper queue lets the filling thread go on while an encoder waits
     * for a core (one slice per part left both cores idle a sixth of an export).
     */
    static final int QUEUED = 3;
    /** A ring of slices: the one filling and, per part, the one being encoded and those queued. */
    private Slice[] slices;
    private int filling;
    private long flushes;
    private int n;
    /**
     * Staged: the rows are filled in this small slice, kept in the filling core's cache, and copied
     * into the ring's slice when it is full ({@link #staged}); null when rows go straight to the ring.
     */
    private Slice front;
    /** Rows copied from {@link #front} into the ring's slice being filled. */
    private int stagedRows;
    /** Rows of the slice {@link #next} fills: {@link #SLICE}, or {@link #STAGE} when staged. */
    private int limit = SLICE;
    private long written;
    private ExecutorService[] encoders;
    /** Per slice of the ring: its encoding, until the slice is free to fill again. */
    private Future<?>[] encoding;

    /** The arrays of one slice. */
    private static final class Slice {
        final long[][] longs;
        final int[][] ints;
        final byte[][] bytes;
        final String[][] strings;

        Slice(TableSchema schema) {
            this(schema, SLICE);
        }

        Slice(TableSchema schema, int rows) {
            int k = schema.columns().size();
            longs = new long[k][];
            ints = new int[k][];
            bytes = new byte[k][];
            strings = new String[k][];
            for (int c = 0; c < k; c++) {
                switch (schema.columns().get(c).kind()) {
                    case LONG -> longs[c] = new long[rows];
                    case INT -> ints[c] = new int[rows];
                    case BOOLEAN -> bytes[c] = new byte[rows];
                    case STRING -> {
                        bytes[c] = new byte[rows];
                        strings[c] = new String[rows];
                    }
                    default -> throw new IllegalStateException();
                }
            }
        }

        /** Copies rows {@code [0, rows)} of every column to {@code to} from row {@code at}; the strings are let go here. */
        void moveTo(Slice to, int at, int rows) {
            for (int c = 0; c < longs.length; c++) {
                if (longs[c] != null) {
                    System.arraycopy(longs[c], 0, to.longs[c], at, rows);
                } else if (ints[c] != null) {
                    System.arraycopy(ints[c], 0, to.ints[c], at, rows);
                } else {
                    System.arraycopy(bytes[c], 0, to.bytes[c], at, rows);
                    if (strings[c] != null) {
                        System.arraycopy(strings[c], 0, to.strings[c], at, rows);
                        Arrays.fill(strings[c], 0, rows, null);
                    }
                }
            }
        }
    }

    /**
     * A table written to {@code parts} files {@code dir/part-<i>.parquet}, with row groups of at
     * most {@code rowGroupRows} rows and {@code rowGroupBytes} bytes each.
     */
    public TableWriter(TableSchema schema, Path dir, int parts, int rowGroupRows, long rowGroupBytes, Map<String, String> metadata)
            throws IOException {
        this(schema, dir, 0, parts, rowGroupRows, rowGroupBytes, metadata);
    }

    /**
     * As above, with files {@code part-<firstPart>.parquet} to {@code part-<firstPart + parts - 1>.parquet}:
     * several writers of one table share its folder.
     */
    public TableWriter(TableSchema schema, Path dir, int firstPart, int parts, int rowGroupRows, long rowGroupBytes,
            Map<String, String> metadata) throws IOException {
        this.schema = schema;
        this.codes = new Binary[schema.columns().size()][];
        this.files = new ParquetFile[parts];
        try {
            for (int p = 0; p < parts; p++) {
                files[p] = new ParquetFile(dir.resolve(partFile(firstPart + p)), schema, rowGroupRows,
                        rowGroupBytes, metadata);
            }
        } catch (IOException | RuntimeException e) {
            for (ParquetFile f : files) {
                if (f != null) {
                    f.abandon();
                }
            }
            throw e;
        }
        slices = new Slice[] {new Slice(schema)};
        use(slices[0]);
        if (parts > 1) {
            background("minitrace-" + schema.name());
        }
    }

    /** The name of part {@code p}'s file. */
    public static String partFile(int p) {
        return "part-" + p + ".parquet";
    }

    private void use(Slice s) {
        longs = s.longs;
        ints = s.ints;
        bytes = s.bytes;
        strings = s.strings;
    }

    /** From now on each part encodes on a thread of its own (named {@code name-<part>}) while the next slice fills. */
    public TableWriter background(String name) {
        if (encoders != null) {
            return this;
        }
        Slice[] ring = new Slice[files.length * (1 + QUEUED) + 1];
        ring[0] = slices[0];
        for (int i = 1; i < ring.length; i++) {
            ring[i] = new Slice(schema);
        }
        slices = ring;
        encoders = new ExecutorService[files.length];
        encoding = new Future<?>[ring.length];
        for (int p = 0; p < files.length; p++) {
            String thread = name + "-" + p;
            encoders[p] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, thread);
                t.setDaemon(true);
                return t;
            });
        }
        return this;
    }

    /**
     * From now on rows are filled in a slice of {@link #STAGE} rows and copied a column at a time into
     * the slice handed to the encoders. For a caller that fills several writers' rows in turn: each
     * writer's slice of {@link #SLICE} rows is a stream of stores per column, and the processor's
     * prefetchers lose track of that many streams at once (docs/decisions.md); the small slices
     * stay in the core's cache, and the copies are one stream per column at a time.
     */
    public TableWriter staged() {
        if (front == null && n == 0) {
            front = new Slice(schema, STAGE);
            limit = STAGE;
            use(front);
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
        if (n == limit) {
            if (front == null) {
                flush();
            } else {
                stage();
            }
        }
        return n++;
    }

    /** Copies the staged rows into the ring's slice, handing that to its part when it is full. */
    private void stage() throws IOException {
        front.moveTo(slices[filling], stagedRows, n);
        stagedRows += n;
        n = 0;
        if (stagedRows == SLICE) {
            handOver();
        }
    }

    /** Sets STRING column {@code c} of row {@code row} to {@code s} (null allowed), for tables of few rows. */
    public void string(int row, int c, String s) {
        strings[c][row] = s;
    }

    /** Writes the rows gathered so far (in the background: hands them to the next part's thread). */
    public void flush() throws IOException {
        if (front == null) {
            handOver();
        } else {
            if (n > 0) {
                stage();
            }
            if (stagedRows > 0) {
                handOver();
            }
        }
    }

    /** Writes the ring's slice being filled, or hands it to the next part's thread. */
    private void handOver() throws IOException {
        int rows = front == null ? n : stagedRows;
        if (rows == 0) {
            return;
        }
        Slice full = slices[filling];
        int part = (int) (flushes++ % files.length);
        written += rows;
        if (front == null) {
            n = 0;
        } else {
            stagedRows = 0;
        }
        if (encoders == null) {
            write(files[part], full, rows);
            return;
        }
        ParquetFile file = files[part];
        encoding[filling] = encoders[part].submit(() -> {
            try {
                write(file, full, rows);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        filling = (filling + 1) % slices.length;
        // the next slice of the ring was handed over a whole ring ago: it is free once written
        await(filling);
        if (front == null) {
            use(slices[filling]);
        }
    }

    /** Waits for slice {@code k} of the ring to be written; its failure is this writer's. */
    private void await(int k) throws IOException {
        Future<?> f = encoding[k];
        if (f == null) {
            return;
        }
        encoding[k] = null;
        Tasks.await(f, "a slice of " + schema.name() + " was written");
    }

    private void write(ParquetFile file, Slice s, int rows) throws IOException {
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
        return written + stagedRows + n;
    }

    /** Writes what is gathered and completes the files. */
    @Override
    public void close() throws IOException {
        try {
            flush();
            if (encoders != null) {
                for (int k = 0; k < encoding.length; k++) {
                    await((filling + 1 + k) % encoding.length);
                }
            }
            for (ParquetFile f : files) {
                f.close();
            }
        } finally {
            stopEncoders();
        }
    }

    /** Stops without completing the files. */
    public void abandon() {
        if (encoders != null) {
            for (int k = 0; k < encoding.length; k++) {
                Future<?> f = encoding[k];
                if (f != null) {
                    f.cancel(false);
                    try {
                        f.get();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (ExecutionException | CancellationException e) {
                        // abandoned: what the slice met no longer matters
                    }
                }
            }
        }
        stopEncoders();
        for (ParquetFile f : files) {
            f.abandon();
        }
    }

    private void stopEncoders() {
        if (encoders != null) {
            for (ExecutorService e : encoders) {
                e.shutdown();
            }
            encoders = null;
        }
    }
}
