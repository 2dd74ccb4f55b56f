package dev.minitrace.converter.util;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A large output file written front to back: appended bytes collect in a staging buffer that goes
 * to the file in whole blocks, with direct I/O ({@code O_DIRECT}) where the file system takes it.
 *
 * <p>Why: a converter writes gigabytes it will not read back, and through the page cache each
 * gigabyte cost about 1.5 s of kernel CPU on the 2-core benchmark machine (copying into the cache,
 * then the writer stalled by the kernel's dirty-page throttling at about 400 MB/s), where direct
 * writes of the same blocks cost under 0.1 s and ran at the disk's 1.3 GB/s (docs/performance.md,
 * "The log written past the page cache"). A direct write returns once the disk has the block; a
 * second buffer written on a thread of its own while the next one fills measured no faster, so
 * there is one. Where direct I/O is refused (tmpfs, some network or FUSE file systems), on opening
 * or on the first write, the same blocks go through the page cache.
 *
 * <p>The tail that does not fill a block, and any later patch, are written through an ordinary
 * channel on the same file once appending is over ({@link #complete()}); Linux keeps the two
 * coherent. Not thread-safe: one thread appends.
 */
public final class AppendFile implements Closeable {
    /** Bytes staged before a write; a multiple of every block size direct I/O asks for here. */
    static final int STAGE_BYTES = 8 << 20;

    private final FileChannel channel;
    private FileChannel direct;
    private final ByteBuffer stage;
    private long written;
    private boolean completed;

    /** Opens the existing {@code file}, emptied, for appending. */
    public AppendFile(Path file) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        FileChannel d = null;
        int block = 0;
        try {
            block = Math.toIntExact(Files.getFileStore(file).getBlockSize());
            if (block > 0 && STAGE_BYTES % block == 0) {
                d = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
            }
        } catch (IOException | UnsupportedOperationException | ArithmeticException e) {
            d = null; // no direct I/O here: the page cache it is
        }
        this.direct = d;
        this.stage = d != null ? ByteBuffer.allocateDirect(STAGE_BYTES + block).alignedSlice(block).limit(STAGE_BYTES)
                : ByteBuffer.allocateDirect(STAGE_BYTES);
    }

    /** True while blocks go to the file by direct I/O. */
    public boolean direct() {
        return direct != null;
    }

    /** Appends {@code b}'s remaining bytes. */
    public void append(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (!stage.hasRemaining()) {
                writeStage();
            }
            int n = Math.min(b.remaining(), stage.remaining());
            stage.put(stage.position(), b, b.position(), n);
            stage.position(stage.position() + n);
            b.position(b.position() + n);
        }
    }

    /** Bytes appended so far. */
    public long size() {
        return written + stage.position();
    }

    /**
     * Ends appending: writes what is staged, and returns an ordinary channel on the file, which
     * now holds every appended byte, for patches, {@code force} and closing (by {@link #close()}).
     */
    public FileChannel complete() throws IOException {
        if (!completed) {
            stage.flip();
            while (stage.hasRemaining()) {
                written += channel.write(stage, written);
            }
            stage.clear();
            closeDirect();
            completed = true;
        }
        return channel;
    }

    private void writeStage() throws IOException {
        stage.flip();
        if (direct != null) {
            try {
                while (stage.hasRemaining()) {
                    written += direct.write(stage, written);
                }
            } catch (IOException e) {
                if (stage.position() > 0) {
                    throw e; // part of the block went out: not a refusal of direct I/O
                }
                closeDirect(); // refused on its first write (EINVAL): the page cache from here on
            }
        }
        while (stage.hasRemaining()) {
            written += channel.write(stage, written);
        }
        stage.clear();
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
        try {
            closeDirect();
        } finally {
            channel.close();
        }
    }
}
