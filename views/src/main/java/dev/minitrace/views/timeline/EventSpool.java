package dev.minitrace.views.timeline;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The timeline's events on disk until the names are known. The converter resolves method and
 * class names only at the end of the recording, so the events are written here as fixed-size
 * binary records while the recording is read, and turned into JSON at the end. The file is removed
 * on close (and, on POSIX, is already unlinked while open).
 */
final class EventSpool implements Closeable {
    /** kind, end kind, thread, time, value, aux. */
    static final int RECORD_BYTES = 1 + 1 + 8 + 8 + 8 + 4;
    private static final int BUFFER_BYTES = 1 << 20;

    /** Receives the spooled events in the order they were written. */
    interface Visitor {
        void event(int kind, int endKind, long thread, long displayNanos, long value, int aux) throws IOException;
    }

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES - BUFFER_BYTES % RECORD_BYTES);
    private long count;

    /** A spool file in {@code dir}. */
    EventSpool(Path dir) throws IOException {
        Path file = Files.createTempFile(dir, ".minitrace-timeline-", ".spool");
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        file.toFile().deleteOnExit();
    }

    void add(int kind, int endKind, long thread, long displayNanos, long value, int aux) throws IOException {
        if (buffer.remaining() < RECORD_BYTES) {
            flush();
        }
        buffer.put((byte) kind).put((byte) endKind).putLong(thread).putLong(displayNanos).putLong(value).putInt(aux);
        count++;
    }

    /** Events written so far. */
    long count() {
        return count;
    }

    private void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Reads every event back, in order; no more may be added afterwards. */
    void replay(Visitor visitor) throws IOException {
        flush();
        long size = channel.size();
        long pos = 0;
        while (pos < size) {
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), size - pos));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, pos + buffer.position()) < 0) {
                    throw new EOFException("timeline spool ended early at " + (pos + buffer.position()));
                }
            }
            buffer.flip();
            pos += buffer.limit();
            while (buffer.hasRemaining()) {
                visitor.event(buffer.get(), buffer.get(), buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getInt());
            }
        }
        buffer.clear();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
