package dev.minitrace.converter.util;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * Files read as their concatenation, by position, without making it: a JFR recording is its
 * chunks one after the other, so a repository folder's chunk files, in the order the JVM wrote
 * them, read as one file are the recording JFR would have copied into {@code filename=}. A single
 * file is the common case. Thread-safe: positional reads only.
 */
public final class FileSequence implements Closeable {
    private final List<Path> files;
    private final FileChannel[] channels;
    /** Where each file starts in the concatenation; the last entry is the total size. */
    private final long[] starts;

    private FileSequence(List<Path> files, FileChannel[] channels, long[] starts) {
        this.files = files;
        this.channels = channels;
        this.starts = starts;
    }

    /** Opens {@code files} for reading, in this order; their sizes are taken now. */
    public static FileSequence open(List<Path> files) throws IOException {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no file to read");
        }
        FileChannel[] channels = new FileChannel[files.size()];
        long[] starts = new long[files.size() + 1];
        try {
            for (int i = 0; i < channels.length; i++) {
                channels[i] = FileChannel.open(files.get(i), StandardOpenOption.READ);
                starts[i + 1] = starts[i] + channels[i].size();
            }
        } catch (IOException | RuntimeException e) {
            closeAll(channels);
            throw e;
        }
        return new FileSequence(List.copyOf(files), channels, starts);
    }

    /** The files, in order. */
    public List<Path> files() {
        return files;
    }

    /** The size of the concatenation. */
    public long size() {
        return starts[starts.length - 1];
    }

    /** Where file {@code i} starts in the concatenation. */
    public long start(int i) {
        return starts[i];
    }

    /**
     * Reads from {@code position} into {@code dst} until it is full or the last file ends, across
     * file boundaries.
     *
     * @return the bytes read
     */
    public int readAt(ByteBuffer dst, long position) throws IOException {
        int start = dst.position();
        long p = position;
        int f = fileAt(p);
        while (dst.hasRemaining() && f < channels.length) {
            long inFile = starts[f + 1] - p;
            if (inFile <= 0) {
                f++;
                continue;
            }
            int limit = dst.limit();
            if (dst.remaining() > inFile) {
                dst.limit(dst.position() + (int) inFile);
            }
            int got = FileReads.readAt(channels[f], dst, p - starts[f]);
            dst.limit(limit);
            p += got;
            if (got < Math.min(inFile, Integer.MAX_VALUE)) {
                break; // the file shrank since it was opened
            }
        }
        return dst.position() - start;
    }

    /** Copies {@code length} bytes from {@code position} to the end of {@code to}, by the kernel where it can. */
    public void transferTo(long position, long length, FileChannel to) throws IOException {
        long p = position;
        long end = position + length;
        while (p < end) {
            int f = fileAt(p);
            if (f >= channels.length) {
                throw new IOException("position " + p + " is past the end of " + files.get(files.size() - 1));
            }
            long n = channels[f].transferTo(p - starts[f], Math.min(end, starts[f + 1]) - p, to);
            if (n <= 0) {
                throw new IOException("cannot copy from " + files.get(f) + " at offset " + (p - starts[f]));
            }
            p += n;
        }
    }

    /** The file that holds {@code position} (the number of files when it is at or past the end). */
    private int fileAt(long position) {
        int i = Arrays.binarySearch(starts, position);
        // an exact hit is where file i starts (or, for the last entry, the end); else the file before the insertion point
        int f = i >= 0 ? i : -i - 2;
        while (f < channels.length && starts[f + 1] == position && starts[f] == position) {
            f++; // an empty file starts where the next does
        }
        return Math.max(0, f);
    }

    @Override
    public void close() throws IOException {
        closeAll(channels);
    }

    private static void closeAll(FileChannel[] channels) throws IOException {
        IOException first = null;
        for (FileChannel c : channels) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
