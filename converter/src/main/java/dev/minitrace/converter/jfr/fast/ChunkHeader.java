package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.FileReads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The fixed 68-byte header that starts every JFR chunk (same layout in JDK 17 and JDK 25, file
 * format 2.x; 1.x differs only in the unused flag bits). Offsets are relative to the chunk start.
 * The only decoder of this layout: the reader ({@link #parse}), the chunk scan and recovery
 * ({@link #read}, {@link #decode}) all go through it.
 *
 * @param index               0-based index of the chunk in the file
 * @param fileOffset          absolute file offset of the chunk's first byte
 * @param major               format major version (1 or 2)
 * @param minor               format minor version
 * @param size                chunk size in bytes, header included
 * @param constantPoolOffset  offset of the last checkpoint event (the head of the pool chain)
 * @param metadataOffset      offset of the last metadata event
 * @param startNanos          chunk start, epoch nanoseconds
 * @param durationNanos       chunk duration in nanoseconds
 * @param startTicks          chunk start in ticks
 * @param ticksPerSecond      tick frequency
 * @param generation          the file-state byte: 0 when the chunk was finished, non-zero while written
 * @param flags               the flag byte: bit 0 compressed integers, bit 1 final chunk
 */
public record ChunkHeader(int index, long fileOffset, int major, int minor, long size,
                          long constantPoolOffset, long metadataOffset, long startNanos,
                          long durationNanos, long startTicks, long ticksPerSecond,
                          int generation, int flags) {
    /** Bytes in a chunk header. */
    public static final int SIZE = 68;
    /** Offset of the file-state (generation) byte: 0 when the chunk is finished, non-zero while the JVM writes it. */
    public static final int STATE_OFFSET = 64;
    static final int MASK_COMPRESSED_INTEGERS = 1;
    static final int MASK_FINAL_CHUNK = 1 << 1;

    /** @return true when integers are LEB128-style varints, false for fixed big-endian */
    public boolean compressedIntegers() {
        return (flags & MASK_COMPRESSED_INTEGERS) != 0;
    }

    /** @return true when the JVM marked this chunk as the last one of its recording */
    public boolean finalChunk() {
        return (flags & MASK_FINAL_CHUNK) != 0;
    }

    /** @return true when the JVM had finished the chunk (state byte 0); false while it was writing it */
    public boolean finished() {
        return generation == 0;
    }

    /** @return true for the format versions this reader knows (1.x and 2.x) */
    public boolean knownVersion() {
        return major == 1 || major == 2;
    }

    /**
     * Decodes a header from {@code b[off..off+68)}. Validates only the magic and version; the
     * caller checks sizes against the file.
     */
    static ChunkHeader parse(byte[] b, int off, int index, long fileOffset) throws JfrFormatException {
        if (!hasMagic(b, off, b.length - off)) {
            throw new JfrFormatException(index, fileOffset, index == 0
                    ? "Not a JFR file: missing magic 'FLR\\0'"
                    : "Chunk header magic 'FLR\\0' missing: not a chunk boundary", null);
        }
        ChunkHeader h = decode(b, off, index, fileOffset);
        if (!h.knownVersion()) {
            throw new JfrFormatException(index, fileOffset,
                    "Unsupported JFR format version " + h.major + "." + h.minor, null);
        }
        return h;
    }

    /**
     * Decodes the fields of {@code b[off..off+68)} without judging them, for callers that meet
     * untrusted bytes (a cut file, a chunk the JVM died writing) and say themselves what is wrong.
     */
    public static ChunkHeader decode(byte[] b, int off, int index, long fileOffset) {
        return new ChunkHeader(index, fileOffset, u2(b, off + 4), u2(b, off + 6), i8(b, off + 8), i8(b, off + 16),
                i8(b, off + 24), i8(b, off + 32), i8(b, off + 40), i8(b, off + 48), i8(b, off + 56),
                b[off + STATE_OFFSET] & 0xFF, b[off + 67] & 0xFF);
    }

    /** @return true when the {@code length} bytes at {@code b[off]} start with the chunk magic {@code FLR\0} */
    public static boolean hasMagic(byte[] b, int off, int length) {
        return length >= 4 && b[off] == 'F' && b[off + 1] == 'L' && b[off + 2] == 'R' && b[off + 3] == 0;
    }

    /**
     * Reads the {@value #SIZE} header bytes at {@code position} of {@code ch} into {@code b}, fewer
     * where the file ends first.
     *
     * @return the bytes read
     */
    public static int read(FileChannel ch, long position, byte[] b) throws IOException {
        return FileReads.readAt(ch, ByteBuffer.wrap(b, 0, SIZE), position);
    }

    private static int u2(byte[] b, int i) {
        return ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
    }

    static long i8(byte[] b, int i) {
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (b[i + k] & 0xFF);
        }
        return v;
    }

    /**
     * Converts a tick timestamp of this chunk to epoch nanoseconds with the arithmetic of the
     * JDK's {@code jdk.jfr.internal.consumer.TimeConverter} (double divisor {@code ticksPerSecond
     * / 1e9}, quotient truncated toward zero), so results match {@code RecordingFile} exactly.
     */
    public long ticksToEpochNanos(long ticks) {
        return startNanos + (long) ((ticks - startTicks) / tickDivisor());
    }

    /** Converts a tick duration of this chunk to nanoseconds, like the JDK's {@code TimeConverter}. */
    public long ticksToNanos(long ticks) {
        return (long) (ticks / tickDivisor());
    }

    double tickDivisor() {
        // ChunkHeader.getTicksPerSecond() is a double in the JDK, so this is a double division.
        return (double) ticksPerSecond / 1_000_000_000L;
    }
}
