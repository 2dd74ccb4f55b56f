package dev.minitrace.converter.mtlog;

import dev.minitrace.converter.util.AppendFile;
import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes an {@code .mtlog} file. Records are appended per stream into bounded buffers, each
 * flushed as one STREAM block when full (so memory stays bounded for any number of records). The
 * file is written to a temporary file in the target's folder; {@link #finish(MtlogInfo)} writes
 * the INFO block and the END block, patches {@code recordCount} in the header and renames the file
 * atomically to the target, so the target only ever holds a complete file. {@link #close()}
 * without {@code finish} deletes the temporary file.
 */
public final class MtlogWriter implements Closeable {
    /** Records per stream buffer before it is flushed as a block. */
    static final int DEFAULT_RECORDS_PER_BLOCK = 4096;
    /** When all stream buffers together hold this many records, all are flushed. */
    private static final int MAX_BUFFERED_RECORDS = 1 << 20;
    /**
     * Buffer memory above which all buffers are flushed and released before another is made, so
     * that thousands of streams do not cost thousands of full buffers.
     */
    private static final long MAX_BUFFER_BYTES = 16L << 20;

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Path target;
    private final Path temp;
    private final AppendFile file;
    private final int recordsPerBlock;
    private final Map<Integer, ByteBuffer> buffers = new HashMap<>();
    private final ByteBuffer blockHeader = ByteBuffer.allocate(MtlogFormat.BLOCK_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    private int lastStreamId;
    private ByteBuffer lastBuffer;
    private long bufferedRecords;
    private long recordCount;
    private boolean finished;

    /** Opens a writer for {@code target} with the given layout flags and recording start. */
    public MtlogWriter(Path target, int flags, long startNanos) throws IOException {
        this(target, flags, startNanos, DEFAULT_RECORDS_PER_BLOCK);
    }

    /** As {@link #MtlogWriter(Path, int, long)} with a chosen block size in records (tests use small blocks). */
    public MtlogWriter(Path target, int flags, long startNanos, int recordsPerBlock) throws IOException {
        if (recordsPerBlock < 1) {
            throw new IllegalArgumentException("recordsPerBlock must be positive: " + recordsPerBlock);
        }
        this.target = target.toAbsolutePath();
        this.recordsPerBlock = recordsPerBlock;
        Path dir = this.target.getParent();
        this.temp = createTemp(dir, this.target.getFileName().toString());
        // Ctrl-C or kill during a long conversion: close() never runs, but JVM shutdown does;
        // without this a hidden temporary file as large as the log stays behind
        try {
            this.temp.toFile().deleteOnExit();
        } catch (IllegalStateException e) {
            // the JVM is shutting down and its exit hook has run (or is running): nobody else
            // would remove this file
            Files.deleteIfExists(temp);
            throw new IOException("cannot write " + target + ": the JVM is shutting down", e);
        }
        this.file = new AppendFile(temp);
        ByteBuffer h = ByteBuffer.allocate(MtlogFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MtlogFormat.MAGIC).putShort((short) MtlogFormat.MAJOR).putShort((short) MtlogFormat.MINOR)
                .putInt(flags).putLong(startNanos).putLong(0L).flip();
        writeFully(h);
    }

    /**
     * A new hidden file next to the target. Not {@code Files.createTempFile}, whose owner-only
     * permissions would end up on the renamed target: this one gets the usual permissions (umask).
     */
    private static Path createTemp(Path dir, String name) throws IOException {
        java.util.concurrent.ThreadLocalRandom rnd = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve("." + name + "." + Long.toHexString(rnd.nextLong() >>> 1) + ".tmp");
            try {
                return Files.createFile(p);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
            }
        }
    }

    /** Appends one record to stream {@code streamId}. */
    public void record(int streamId, int type, long value, int aux) throws IOException {
        ByteBuffer b = buffer(streamId);
        int p = b.position();
        byte[] a = b.array();
        SHORT.set(a, p, (short) type);
        LONG.set(a, p + 2, value);
        INT.set(a, p + 10, aux);
        b.position(p + MtlogFormat.RECORD_SIZE);
        recordCount++;
        bufferedRecords++;
        afterAppend(streamId, b);
    }

    /**
     * Appends the records {@code [from, to)} of the columns to stream {@code streamId}: the same
     * bytes and blocks as a {@link #record} call per record, without the per-record overhead.
     */
    public void records(int streamId, byte[] type, long[] value, int[] aux, int from, int to) throws IOException {
        int i = from;
        while (i < to) {
            ByteBuffer b = buffer(streamId);
            int p = b.position();
            byte[] a = b.array();
            // Stop where a record at a time would flush: the buffer full or the total bound reached.
            int n = (int) Math.min(Math.min((b.limit() - p) / MtlogFormat.RECORD_SIZE, to - i),
                    MAX_BUFFERED_RECORDS - bufferedRecords);
            for (int end = i + n; i < end; i++) {
                SHORT.set(a, p, (short) type[i]);
                LONG.set(a, p + 2, value[i]);
                INT.set(a, p + 10, aux[i]);
                p += MtlogFormat.RECORD_SIZE;
            }
            b.position(p);
            recordCount += n;
            bufferedRecords += n;
            afterAppend(streamId, b);
        }
    }

    /** As {@link #records(int, byte[], long[], int[], int, int)} with the same {@code aux} for every record. */
    public void records(int streamId, byte[] type, long[] value, int aux, int from, int to) throws IOException {
        int i = from;
        while (i < to) {
            ByteBuffer b = buffer(streamId);
            int p = b.position();
            byte[] a = b.array();
            int n = (int) Math.min(Math.min((b.limit() - p) / MtlogFormat.RECORD_SIZE, to - i),
                    MAX_BUFFERED_RECORDS - bufferedRecords);
            for (int end = i + n; i < end; i++) {
                SHORT.set(a, p, (short) type[i]);
                LONG.set(a, p + 2, value[i]);
                INT.set(a, p + 10, aux);
                p += MtlogFormat.RECORD_SIZE;
            }
            b.position(p);
            recordCount += n;
            bufferedRecords += n;
            afterAppend(streamId, b);
        }
    }

    private ByteBuffer buffer(int streamId) throws IOException {
        if (lastBuffer != null && streamId == lastStreamId) {
            return lastBuffer;
        }
        ByteBuffer b = buffers.get(streamId);
        if (b == null) {
            int size = recordsPerBlock * MtlogFormat.RECORD_SIZE;
            if ((long) (buffers.size() + 1) * size > MAX_BUFFER_BYTES) {
                flushAll();
                buffers.clear();
            }
            b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
            buffers.put(streamId, b);
        }
        lastStreamId = streamId;
        lastBuffer = b;
        return b;
    }

    private void afterAppend(int streamId, ByteBuffer b) throws IOException {
        if (!b.hasRemaining()) {
            flush(streamId, b);
        } else if (bufferedRecords >= MAX_BUFFERED_RECORDS) {
            flushAll();
        }
    }

    /** The number of records appended so far. */
    public long recordCount() {
        return recordCount;
    }

    private void flush(int streamId, ByteBuffer b) throws IOException {
        if (b.position() == 0) {
            return;
        }
        bufferedRecords -= b.position() / MtlogFormat.RECORD_SIZE;
        b.flip();
        writeBlockHeader(MtlogFormat.BLOCK_STREAM, streamId, b.remaining());
        writeFully(b);
        b.clear();
    }

    private void flushAll() throws IOException {
        // Flush in ascending stream id so that the block order is deterministic.
        Integer[] ids = buffers.keySet().toArray(new Integer[0]);
        java.util.Arrays.sort(ids, Integer::compareUnsigned);
        for (Integer id : ids) {
            flush(id, buffers.get(id));
        }
    }

    /**
     * Completes the file: flushes every stream, writes INFO then END, patches {@code recordCount}
     * and atomically replaces the target with it.
     */
    public void finish(MtlogInfo info) throws IOException {
        flushAll();
        byte[] text = info.encode();
        writeBlockHeader(MtlogFormat.BLOCK_INFO, 0, text.length);
        writeFully(ByteBuffer.wrap(text));
        writeBlockHeader(MtlogFormat.BLOCK_END, 0, 0);
        FileChannel channel = file.complete();
        ByteBuffer count = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, recordCount);
        channel.write(count, MtlogFormat.RECORD_COUNT_OFFSET);
        channel.force(false);
        file.close();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        finished = true;
    }

    private void writeBlockHeader(int kind, int id, long length) throws IOException {
        blockHeader.clear();
        blockHeader.putInt(kind).putInt(id).putLong(length).flip();
        writeFully(blockHeader);
    }

    private void writeFully(ByteBuffer b) throws IOException {
        file.append(b);
    }

    /** Releases the file; if {@link #finish} did not complete, the temporary file is deleted and the target left untouched. */
    @Override
    public void close() throws IOException {
        if (!finished) {
            try {
                file.close();
            } finally {
                Files.deleteIfExists(temp);
            }
        }
    }
}
