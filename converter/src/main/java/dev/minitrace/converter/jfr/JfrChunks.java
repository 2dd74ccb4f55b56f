package dev.minitrace.converter.jfr;

import dev.minitrace.converter.jfr.fast.ChunkHeader;
import dev.minitrace.converter.util.FileSequence;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Splits a JFR file into its chunks by reading only the chunk headers ({@link ChunkHeader}). A
 * recording cut short (a crash, a copy of a file still being written) ends with an incomplete
 * chunk: it is reported as the {@link #lostTail()} instead of failing, so every complete chunk can
 * still be read. The recording may be several files read as their concatenation (a JFR
 * repository's chunk files, {@link FileSequence}): chunk offsets are then offsets in it.
 */
public final class JfrChunks {
    private final List<Path> files;
    private final long fileSize;
    private final List<JfrChunk> chunks;
    private final long lostTail;
    private final String tailProblem;

    private JfrChunks(List<Path> files, long fileSize, List<JfrChunk> chunks, long lostTail, String tailProblem) {
        this.files = files;
        this.fileSize = fileSize;
        this.chunks = chunks;
        this.lostTail = lostTail;
        this.tailProblem = tailProblem;
    }

    /** Scans {@code file}; a file that is empty or does not start with a JFR chunk is rejected with a clear message. */
    public static JfrChunks scan(Path file) throws IOException {
        return scan(List.of(file));
    }

    /** Scans {@code files} read as one recording, in this order; the first must start with a JFR chunk. */
    public static JfrChunks scan(List<Path> files) throws IOException {
        try (FileSequence ch = FileSequence.open(files)) {
            long size = ch.size();
            if (size == 0) {
                throw new JfrInputException("empty file, not a JFR recording");
            }
            byte[] b = new byte[ChunkHeader.SIZE];
            List<JfrChunk> chunks = new ArrayList<>();
            long pos = 0;
            String problem = null;
            while (pos < size) {
                int n = ch.readAt(ByteBuffer.wrap(b), pos);
                if (!ChunkHeader.hasMagic(b, 0, n)) {
                    if (pos == 0) {
                        throw new JfrInputException(n < 4 && size < 4 ? "not a JFR recording (" + size + " bytes)"
                                : "not a JFR recording (no FLR magic at offset 0)");
                    }
                    problem = "no chunk header at offset " + pos;
                    break;
                }
                if (n < ChunkHeader.SIZE) {
                    problem = "incomplete chunk header at offset " + pos;
                    break;
                }
                ChunkHeader h = ChunkHeader.decode(b, 0, chunks.size(), pos);
                if (!h.knownVersion()) {
                    if (pos == 0) {
                        throw new JfrInputException("unsupported JFR file version " + h.major() + "." + h.minor());
                    }
                    problem = "chunk at offset " + pos + " has unsupported version " + h.major();
                    break;
                }
                if (h.size() < ChunkHeader.SIZE || h.size() > size - pos) {
                    problem = "incomplete chunk at offset " + pos + " (header says " + h.size() + " bytes, "
                            + (size - pos) + " present)";
                    break;
                }
                if (h.ticksPerSecond() <= 0) {
                    problem = "chunk at offset " + pos + " has a tick frequency of " + h.ticksPerSecond();
                    break;
                }
                chunks.add(new JfrChunk(h.index(), pos, h.size(), h.startNanos(), h.durationNanos(), h.startTicks(),
                        h.ticksPerSecond()));
                pos += h.size();
            }
            return new JfrChunks(ch.files(), size, Collections.unmodifiableList(chunks), size - pos, problem);
        }
    }

    /** The complete chunks in file order. */
    public List<JfrChunk> chunks() {
        return chunks;
    }

    /** The scanned files, read as one recording (usually one file). */
    public List<Path> files() {
        return files;
    }

    /** The size of the recording (of its files together). */
    public long fileSize() {
        return fileSize;
    }

    /** Bytes after the last complete chunk that cannot be read (0 for a complete file). */
    public long lostTail() {
        return lostTail;
    }

    /** What is wrong with the tail, or null when the file is complete. */
    public String tailProblem() {
        return tailProblem;
    }

    /** The recording start (the first chunk's start), or 0 when there is no complete chunk. */
    public long startNanos() {
        return chunks.isEmpty() ? 0 : chunks.get(0).startNanos();
    }
}
