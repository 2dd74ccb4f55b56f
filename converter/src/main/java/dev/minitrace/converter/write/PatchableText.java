package dev.minitrace.converter.write;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An ASCII text file written front to back whose fixed-width fields can be filled in later, in the
 * buffer or on disk: what a line learns after it was written (an array's length, the allocation of
 * an object named earlier) goes into the line itself instead of a map held until the end.
 */
final class PatchableText implements Closeable {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final FileChannel channel;
    private final byte[] buf = new byte[1 << 20];
    private int n;
    /** Bytes already in the file. */
    private long flushed;

    /** Opens the existing {@code file}, emptied. */
    PatchableText(Path file) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Where the next byte goes. */
    long position() {
        return flushed + n;
    }

    PatchableText put(char c) throws IOException {
        if (n == buf.length) {
            flush();
        }
        buf[n++] = (byte) c;
        return this;
    }

    /** {@code v} in upper-case hexadecimal without leading zeros, as {@link Long#toHexString} (unsigned). */
    PatchableText hex(long v) throws IOException {
        int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        return hex(v, digits);
    }

    /** The low {@code digits} hexadecimal digits of {@code v}, upper case, zero-padded. */
    PatchableText hex(long v, int digits) throws IOException {
        if (buf.length - n < digits) {
            flush();
        }
        put(buf, n, v, digits);
        n += digits;
        return this;
    }

    private static void put(byte[] to, int at, long v, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            to[at + i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    /** Overwrites the byte at {@code pos} (written already). */
    void patch(long pos, char c) throws IOException {
        byte[] b = {(byte) c};
        patch(pos, b);
    }

    /** Overwrites the {@code digits} bytes at {@code pos} (written already) with {@code v} as {@link #hex(long, int)} writes it. */
    void patchHex(long pos, long v, int digits) throws IOException {
        byte[] b = new byte[digits];
        put(b, 0, v, digits);
        patch(pos, b);
    }

    private void patch(long pos, byte[] b) throws IOException {
        if (pos < flushed && pos + b.length > flushed) {
            flush(); // straddles the buffer's start: all of it on disk
        }
        if (pos >= flushed) {
            System.arraycopy(b, 0, buf, (int) (pos - flushed), b.length);
        } else {
            ByteBuffer w = ByteBuffer.wrap(b);
            long at = pos;
            while (w.hasRemaining()) {
                at += channel.write(w, at);
            }
        }
    }

    private void flush() throws IOException {
        ByteBuffer w = ByteBuffer.wrap(buf, 0, n);
        while (w.hasRemaining()) {
            flushed += channel.write(w, flushed);
        }
        n = 0;
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            channel.close();
        }
    }
}
