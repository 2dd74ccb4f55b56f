package dev.minitrace.converter.jfr.fast;

/**
 * The fixed 68-byte header that starts every JFR chunk (same layout in JDK 17 and JDK 25, file
 * format 2.x; 1.x differs only in the unused flag bits). Offsets are relative to the chunk start.
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

    /**
     * Decodes a header from {@code b[off..off+68)}. Validates only the magic and version; the
     * caller checks sizes against the file.
     */
    static ChunkHeader parse(byte[] b, int off, int index, long fileOffset) throws JfrFormatException {
        if (b[off] != 'F' || b[off + 1] != 'L' || b[off + 2] != 'R' || b[off + 3] != 0) {
            throw new JfrFormatException(index, fileOffset, index == 0
                    ? "Not a JFR file: missing magic 'FLR\\0'"
                    : "Chunk header magic 'FLR\\0' missing: not a chunk boundary", null);
        }
        int major = u2(b, off + 4);
        int minor = u2(b, off + 6);
        if (major != 1 && major != 2) {
            throw new JfrFormatException(index, fileOffset,
                    "Unsupported JFR format version " + major + "." + minor, null);
        }
        return new ChunkHeader(index, fileOffset, major, minor, i8(b, off + 8), i8(b, off + 16),
                i8(b, off + 24), i8(b, off + 32), i8(b, off + 40), i8(b, off + 48), i8(b, off + 56),
                b[off + 64] & 0xFF, b[off + 67] & 0xFF);
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
