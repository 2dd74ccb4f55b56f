package dev.minitrace.converter.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Splits a JFR file into its chunks by reading only the chunk headers (big-endian: magic
 * {@code FLR\0}, major u16, minor u16, chunk size u64, constant pool offset u64, metadata offset
 * u64, start ns u64, duration ns u64, ...). A recording cut short (a crash, a copy of a file still
 * being written) ends with an incomplete chunk: it is reported as the {@link #lostTail()} instead
 * of failing, so every complete chunk can still be read.
 */
public final class JfrChunks {
    /** Size of a JFR chunk header. */
    static final int HEADER_SIZE = 68;
    private static final int MAGIC = 0x464C5200; // "FLR\0"

    private final Path file;
    private final long fileSize;
    private final List<JfrChunk> chunks;
    private final long lostTail;
    private final String tailProblem;

    private JfrChunks(Path file, long fileSize, List<JfrChunk> chunks, long lostTail, String tailProblem) {
        this.file = file;
        this.fileSize = fileSize;
        this.chunks = chunks;
        this.lostTail = lostTail;
        this.tailProblem = tailProblem;
    }

    /** Scans {@code file}; a file that is empty or does not start with a JFR chunk is rejected with a clear message. */
    public static JfrChunks scan(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                throw new JfrInputException("empty file, not a JFR recording");
            }
            ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
            List<JfrChunk> chunks = new ArrayList<>();
            long pos = 0;
            String problem = null;
            while (pos < size) {
                h.clear();
                int n = 0;
                while (h.hasRemaining()) {
                    int r = ch.read(h, pos + h.position());
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
                h.flip();
                if (n < 4 || h.getInt(0) != MAGIC) {
                    if (pos == 0) {
                        throw new JfrInputException(n < 4 && size < 4 ? "not a JFR recording (" + size + " bytes)"
                                : "not a JFR recording (no FLR magic at offset 0)");
                    }
                    problem = "no chunk header at offset " + pos;
                    break;
                }
                if (n < HEADER_SIZE) {
                    problem = "incomplete chunk header at offset " + pos;
                    break;
                }
                int major = Short.toUnsignedInt(h.getShort(4));
                if (major != 1 && major != 2) {
                    if (pos == 0) {
                        throw new JfrInputException("unsupported JFR file version " + major + "." + Short.toUnsignedInt(h.getShort(6)));
                    }
                    problem = "chunk at offset " + pos + " has unsupported version " + major;
                    break;
                }
                long chunkSize = h.getLong(8);
                if (chunkSize < HEADER_SIZE || chunkSize > size - pos) {
                    problem = "incomplete chunk at offset " + pos + " (header says " + chunkSize + " bytes, "
                            + (size - pos) + " present)";
                    break;
                }
                long ticksPerSecond = h.getLong(56);
                if (ticksPerSecond <= 0) {
                    problem = "chunk at offset " + pos + " has a tick frequency of " + ticksPerSecond;
                    break;
                }
                chunks.add(new JfrChunk(chunks.size(), pos, chunkSize, h.getLong(32), h.getLong(40), h.getLong(48), ticksPerSecond));
                pos += chunkSize;
            }
            return new JfrChunks(file, size, Collections.unmodifiableList(chunks), size - pos, problem);
        }
    }

    /** The complete chunks in file order. */
    public List<JfrChunk> chunks() {
        return chunks;
    }

    /** The scanned file. */
    public Path file() {
        return file;
    }

    /** The size of the file. */
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
