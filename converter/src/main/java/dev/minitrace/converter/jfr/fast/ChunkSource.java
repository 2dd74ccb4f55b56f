package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Walks the chunk headers of a file (a JFR file is a concatenation of self-contained chunks)
 * and loads one chunk at a time into a reusable buffer. Decides where the complete chunks end:
 * a chunk that runs past the end of the file, or that its JVM never finished, ends the walk and
 * is reported as lost bytes rather than thrown.
 */
final class ChunkSource {
    private static final int READ_SLICE = 1 << 20;
    private final FileChannel channel;
    private final long fileSize;
    private final byte[] headerBytes = new byte[ChunkHeader.SIZE];
    private long next;
    private int index;
    private long bytesLost;
    private String lostReason;

    ChunkSource(FileChannel channel) throws IOException {
        this.channel = channel;
        this.fileSize = channel.size();
    }

    long fileSize() {
        return fileSize;
    }

    long bytesLost() {
        return bytesLost;
    }

    String lostReason() {
        return lostReason;
    }

    /** @return the next complete chunk's header, or {@code null} at the end of the complete chunks */
    ChunkHeader nextHeader() throws IOException {
        long remaining = fileSize - next;
        if (remaining == 0) {
            if (index == 0) {
                throw new JfrFormatException(-1, 0, "Empty file: not a JFR recording", null);
            }
            return null;
        }
        int n = (int) Math.min(remaining, ChunkHeader.SIZE);
        readFully(ByteBuffer.wrap(headerBytes, 0, n), next, index);
        if (n < 4 || n < ChunkHeader.SIZE && !startsWithMagic(n)) {
            // Too short to tell: a JFR file with a cut header, or not JFR at all.
            if (index == 0 && !startsWithMagic(n)) {
                throw new JfrFormatException(-1, 0, "Not a JFR file: " + fileSize + " bytes, no 'FLR\\0' magic", null);
            }
            return lose(remaining, "the file ends inside the header of chunk " + index);
        }
        if (n < ChunkHeader.SIZE) {
            return lose(remaining, "the file ends inside the header of chunk " + index);
        }
        ChunkHeader h = ChunkHeader.parse(headerBytes, 0, index, next);
        if (h.size() == 0 || h.metadataOffset() == 0) {
            return lose(remaining, "chunk " + index + " was never finished (size " + h.size()
                    + ", metadata offset " + h.metadataOffset() + ")");
        }
        if (h.size() < ChunkHeader.SIZE) {
            throw new JfrFormatException(index, next, "Chunk size " + h.size() + " smaller than its header", null);
        }
        if (h.size() > remaining) {
            return lose(remaining, "chunk " + index + " declares " + h.size() + " bytes but only "
                    + remaining + " remain in the file");
        }
        if (h.size() > Integer.MAX_VALUE - 64) {
            throw new JfrFormatException(index, next, "Chunk of " + h.size() + " bytes is larger than 2 GB", null);
        }
        next += h.size();
        index++;
        return h;
    }

    /**
     * Reads and parses the header of the chunk at {@code offset} (whose completeness the caller
     * has already established), without moving the walk of {@link #nextHeader()}.
     */
    ChunkHeader headerAt(long offset, int chunkIndex) throws IOException {
        byte[] b = new byte[ChunkHeader.SIZE];
        readFully(ByteBuffer.wrap(b), offset, chunkIndex);
        return ChunkHeader.parse(b, 0, chunkIndex, offset);
    }

    private boolean startsWithMagic(int n) {
        byte[] magic = {'F', 'L', 'R', 0};
        for (int i = 0; i < Math.min(n, 4); i++) {
            if (headerBytes[i] != magic[i]) {
                return false;
            }
        }
        return true;
    }

    private ChunkHeader lose(long remaining, String reason) {
        bytesLost = remaining;
        lostReason = reason;
        next = fileSize;
        return null;
    }

    /**
     * Loads {@code length} bytes from offset {@code chunkOffset} of chunk {@code h} into the start of {@code b}. In
     * slices of at most 1 MB: reading into a heap array goes through a temporary direct buffer of
     * the request's size, which the JDK caches when small (one of a chunk's size would be
     * allocated and zeroed for every chunk). Thread-safe: positional reads only.
     */
    void load(ChunkHeader h, long chunkOffset, byte[] b, int length) throws IOException {
        for (int off = 0; off < length; off += READ_SLICE) {
            readFully(ByteBuffer.wrap(b, off, Math.min(READ_SLICE, length - off)),
                    h.fileOffset() + chunkOffset + off, h.index());
        }
    }

    private void readFully(ByteBuffer dst, long position, int chunk) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int r = channel.read(dst, p);
            if (r < 0) {
                throw new JfrFormatException(chunk, p, "File shrank while being read", null);
            }
            p += r;
        }
    }
}
