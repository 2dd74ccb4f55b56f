package dev.minitrace.converter.util;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A large output file written front to back: appended bytes collect in a staging buffer that goes
 * to the file as one block when full, with direct I/O ({@code O_DIRECT}) where the file system
 * takes it, on a thread of its own while the next block fills.
 *
 * <p>Why: a converter writes gigabytes it will not read back, and through the page cache each
 * gigabyte costs kernel CPU for the copy and stalls the writer in the kernel's dirty-page
 * throttling, where direct writes run at the disk's speed (docs/decisions.md, "The log written past the page cache"). A direct
 * write returns only once the disk has the block, hence the second buffer: the next block fills
 * while one is written. Where direct I/O is refused (tmpfs, some network or FUSE file systems), on
 * opening or on the first write, the same blocks go through the page cache.
 *
 * <p>The tail that does not fill a block, and any later patch, are written through an ordinary
 * channel on the same file once appending is over ({@link #complete()}); Linux keeps the two
 * coherent. Not thread-safe: one thread appends.
 */
public final class AppendFile implements Closeable {
    /** Bytes staged before a write; a multiple of every block size direct I/O asks for here. */
    static final int STAGE_BYTES = 4 << 20;

    private final FileChannel channel;
    /**
     * Direct channel; null where refused, and once appending is over. The writing thread clears it
     * when a write is refused; the appender reads or clears it only after waiting for that thread.
     */
    private FileChannel direct;
    private ByteBuffer stage;
    /** The block being written, or free once {@link #pending} is done. */
    private ByteBuffer spare;
    private final ExecutorService writer;
    private Future<?> pending;
    /** Bytes handed to the writing thread. */
    private long submitted;
    private boolean completed;

    /** Opens the existing {@code file}, emptied, for appending. */
    public AppendFile(Path file) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        FileChannel d = null;
        int block = 1;
        try {
            int b = Math.toIntExact(Files.getFileStore(file).getBlockSize());
            if (b > 0 && STAGE_BYTES % b == 0) {
                d = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
                block = b;
            }
        } catch (IOException | UnsupportedOperationException | ArithmeticException e) {
            d = null; // no direct I/O here: the page cache it is
        }
        this.direct = d;
        this.stage = aligned(block);
        this.spare = aligned(block);
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "append-file-writer");
            t.setDaemon(true);
            return t;
        });
    }

    private static ByteBuffer aligned(int block) {
        return ByteBuffer.allocateDirect(STAGE_BYTES + block).alignedSlice(block).slice(0, STAGE_BYTES);
    }

    /** True while blocks go to the file by direct I/O. */
    public boolean direct() throws IOException {
        awaitPending();
        return direct != null;
    }

    /** Appends {@code b}'s remaining bytes. */
    public void append(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (!stage.hasRemaining()) {
                submitStage();
            }
            int n = Math.min(b.remaining(), stage.remaining());
            stage.put(stage.position(), b, b.position(), n);
            stage.position(stage.position() + n);
            b.position(b.position() + n);
        }
    }

    /** Bytes appended so far. */
    public long size() {
        return submitted + stage.position();
    }

    /**
     * Ends appending: writes what is staged, and returns an ordinary channel on the file, which
     * now holds every appended byte, for patches, {@code force} and closing (by {@link #close()}).
     */
    public FileChannel complete() throws IOException {
        if (!completed) {
            awaitPending();
            stage.flip();
            while (stage.hasRemaining()) {
                submitted += channel.write(stage, submitted);
            }
            stage.clear();
            closeDirect();
            writer.shutdown();
            completed = true;
        }
        return channel;
    }

    /** Hands the full stage to the writing thread, once it is done with the block before. */
    private void submitStage() throws IOException {
        awaitPending();
        ByteBuffer full = stage;
        full.flip();
        long at = submitted;
        submitted += full.remaining();
        stage = spare.clear();
        spare = full;
        pending = writer.submit(() -> {
            write(full, at);
            return null;
        });
    }

    private void awaitPending() throws IOException {
        if (pending == null) {
            return;
        }
        try {
            Tasks.await(pending, "writing");
        } finally {
            pending = null;
        }
    }

    /** On the writing thread: {@code block} at {@code at}. */
    private void write(ByteBuffer block, long at) throws IOException {
        long p = at;
        if (direct != null) {
            try {
                while (block.hasRemaining()) {
                    p += direct.write(block, p);
                }
                return;
            } catch (IOException e) {
                if (block.position() > 0) {
                    throw e; // part of the block went out: not a refusal of direct I/O
                }
                // refused before a byte went out (EINVAL on a file system that opens but will not
                // write directly): the page cache from here on; a real failure fails again below
                closeDirect();
            }
        }
        while (block.hasRemaining()) {
            p += channel.write(block, p);
        }
    }

    private void closeDirect() throws IOException {
        if (direct != null) {
            FileChannel d = direct;
            direct = null;
            d.close();
        }
    }

    @Override
    public void close() throws IOException {
        writer.shutdown(); // not shutdownNow: an interrupt would close the channel under a write
        try {
            try {
                awaitPending();
            } catch (IOException | RuntimeException e) {
                // closing after a failure: the failure was or will be reported by the appender
            }
            closeDirect();
        } finally {
            channel.close();
        }
    }
}
