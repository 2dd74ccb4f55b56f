package dev.minitrace.converter.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads that stop at the end of the file instead of failing: the caller says what a short read means (a cut file, or a file that shrank). */
public final class FileReads {
    private FileReads() {
    }

    /**
     * Reads from {@code position} of {@code ch} into {@code dst} until it is full or the file ends.
     *
     * @return the bytes read
     */
    public static int readAt(FileChannel ch, ByteBuffer dst, long position) throws IOException {
        int start = dst.position();
        long p = position;
        while (dst.hasRemaining()) {
            int r = ch.read(dst, p);
            if (r < 0) {
                break;
            }
            p += r;
        }
        return dst.position() - start;
    }
}
