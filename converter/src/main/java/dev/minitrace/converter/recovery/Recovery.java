package dev.minitrace.converter.recovery;

import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.converter.jfr.fast.ChunkHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes one readable recording out of what a JVM left behind: a repository folder (its chunk
 * files in order) or a single file whose last chunk the JVM was still writing. Finished chunks are
 * copied whole; an unfinished chunk is cut after its last complete flush segment
 * ({@link FlushSegments}) and given that segment's header, marked finished, so that any JFR
 * reader (MiniTrace's or the JDK's) reads it like a finished chunk. Bad data never throws: what
 * cannot be read is counted in the {@link RecoveryReport}.
 */
public final class Recovery {
    /** What a folder without chunk files is told. */
    public static final String NO_CHUNK_FILES =
            "no .jfr chunk files in this folder (a JFR repository holds files named like 2026_01_02_03_04_05.jfr)";

    private Recovery() {
    }

    /**
     * True when {@code in} must be recovered before it can be read as one file: a folder, or a file
     * with a chunk the JVM had not finished (state byte not 0). The converter reads a
     * {@link #completeFolder complete} folder in place.
     */
    public static boolean needed(Path in) throws IOException {
        if (Files.isDirectory(in)) {
            return true;
        }
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
            long size = ch.size();
            byte[] b = new byte[ChunkHeader.SIZE];
            for (long pos = 0; pos < size;) {
                ChunkHeader h = header(ch, pos, b);
                if (h == null) {
                    return false; // not a chunk: the reader reports it as it always did
                }
                if (!h.finished()) {
                    return true;
                }
                if (h.size() < ChunkHeader.SIZE) {
                    return false;
                }
                pos += h.size();
            }
            return false;
        }
    }

    /**
     * True when {@code file} is a whole recording: one or more chunks, each with JFR's magic and
     * finished (state byte 0), their sizes adding up to the file's. An empty file (what JFR leaves
     * when the JVM dies before it dumps), a cut one or one with an unfinished chunk is not.
     */
    public static boolean complete(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return false;
            }
            byte[] b = new byte[ChunkHeader.SIZE];
            long pos = 0;
            while (pos < size) {
                ChunkHeader h = header(ch, pos, b);
                if (h == null || !h.finished() || h.size() < ChunkHeader.SIZE || h.size() > size - pos) {
                    return false;
                }
                pos += h.size();
            }
            return true;
        }
    }

    /**
     * True when the repository folder {@code folder} is a whole recording, readable in place as its
     * chunk files in order: it has some, and each is {@link #complete}. That is what an orderly
     * exit leaves with {@code preserve-repository=true}.
     */
    public static boolean completeFolder(Path folder) throws IOException {
        List<Path> files = RecordingRepository.chunkFiles(folder);
        if (files.isEmpty()) {
            return false;
        }
        for (Path f : files) {
            if (!complete(f)) {
                return false;
            }
        }
        return true;
    }

    /** Writes the readable part of {@code in} (a folder or a file) to {@code out}. */
    public static RecoveryReport write(Path in, Path out) throws IOException {
        List<Path> files;
        if (Files.isDirectory(in)) {
            files = RecordingRepository.chunkFiles(in);
            if (files.isEmpty()) {
                throw new JfrInputException(NO_CHUNK_FILES);
            }
        } else {
            files = List.of(in);
        }
        Tally t = new Tally();
        try (FileChannel dst = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            for (Path f : files) {
                copyFile(f, dst, t);
            }
        }
        if (t.completeChunks == 0 && t.segments == 0) {
            throw new JfrInputException("nothing recoverable: no finished chunk and no complete flush segment ("
                    + String.join("; ", t.problems) + ")");
        }
        return new RecoveryReport(files.size(), t.completeChunks, t.unfinishedChunks, t.segments, t.recoveredBytes,
                t.lostBytes, List.copyOf(t.problems));
    }

    private static void copyFile(Path f, FileChannel dst, Tally t) throws IOException {
        String name = f.getFileName().toString();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                t.problems.add(name + ": empty (the JVM had only just created it)");
                return;
            }
            byte[] b = new byte[ChunkHeader.SIZE];
            long pos = 0;
            while (pos < size) {
                ChunkHeader h = header(ch, pos, b);
                if (h == null) {
                    t.lose(size - pos, name + ": " + (size - pos) + " bytes at offset " + pos + " are not a chunk"
                            + (size - pos < ChunkHeader.SIZE ? " (the JVM had only just created it)" : ""));
                    return;
                }
                long chunkSize = h.size();
                boolean finished = h.finished();
                if (finished && chunkSize >= ChunkHeader.SIZE && chunkSize <= size - pos) {
                    transfer(ch, pos, chunkSize, dst);
                    t.completeChunks++;
                    pos += chunkSize;
                    continue;
                }
                // Unfinished (the JVM died while writing it) or cut short (a copy, a full disk).
                t.unfinishedChunks++;
                FlushSegments.Result r = FlushSegments.scan(ch, pos, size - pos);
                long lost = size - pos - r.end();
                if (r.end() > 0) {
                    dst.write(ByteBuffer.wrap(r.header()));
                    transfer(ch, pos + ChunkHeader.SIZE, r.end() - ChunkHeader.SIZE, dst);
                    t.segments += r.segments();
                    t.recoveredBytes += r.end();
                }
                t.lose(lost, name + ": " + (finished ? "chunk cut short" : "unfinished chunk") + " at offset " + pos + ", "
                        + r.segments() + " complete flush segments (" + r.end() + " bytes) recovered, " + lost
                        + " bytes after the last one lost");
                return; // nothing after an unfinished chunk is a chunk boundary we could trust
            }
        }
    }

    private static void transfer(FileChannel src, long position, long length, FileChannel dst) throws IOException {
        long done = 0;
        while (done < length) {
            long n = src.transferTo(position + done, length - done, dst);
            if (n <= 0) {
                throw new JfrInputException("file shrank while it was being recovered");
            }
            done += n;
        }
    }

    /** The whole chunk header at {@code pos}, or null when the file ends first or the bytes there are not one. */
    private static ChunkHeader header(FileChannel ch, long pos, byte[] b) throws IOException {
        int n = ChunkHeader.read(ch, pos, b);
        return n == ChunkHeader.SIZE && ChunkHeader.hasMagic(b, 0, n) ? ChunkHeader.decode(b, 0, 0, pos) : null;
    }

    private static final class Tally {
        int completeChunks;
        int unfinishedChunks;
        int segments;
        long recoveredBytes;
        long lostBytes;
        final List<String> problems = new ArrayList<>();

        void lose(long bytes, String problem) {
            lostBytes += bytes;
            problems.add(problem);
        }
    }
}
