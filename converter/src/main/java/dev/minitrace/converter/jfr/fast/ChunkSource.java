package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.FileSequence;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads chunk headers and chunk contents of a recording (a JFR file is a concatenation of
 * self-contained chunks; a repository's chunk files read as one, {@link FileSequence}) by position,
 * for chunks whose completeness the caller has established.
 */
final class ChunkSource {
    private static final int READ_SLICE = 1 << 20;
    private final FileSequence files;
    private final long fileSize;

    ChunkSource(FileSequence files) {
        this.files = files;
        this.fileSize = files.size();
    }

    long fileSize() {
        return fileSize;
    }

    /**
     * Reads and parses the header of the chunk at {@code offset} (whose completeness the caller
     * has already established).
     */
    ChunkHeader headerAt(long offset, int chunkIndex) throws IOException {
        byte[] b = new byte[ChunkHeader.SIZE];
        readFully(ByteBuffer.wrap(b), offset, chunkIndex);
        return ChunkHeader.parse(b, 0, chunkIndex, offset);
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
        int wanted = dst.remaining();
        int read = files.readAt(dst, position);
        if (read < wanted) {
            throw new JfrFormatException(chunk, position + read, "File shrank while being read", null);
        }
    }
}
