package dev.minitrace.converter.recovery;

import dev.minitrace.converter.jfr.fast.ChunkHeader;
import dev.minitrace.converter.util.FileReads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Finds the last complete flush segment of a chunk the JVM was still writing.
 *
 * <p>Since JDK 14, JFR flushes a disk chunk about once a second so that its streaming API can
 * follow the file: it writes the threads' buffers, the constant pools and (when it changed) the
 * metadata, then ends the segment with a checkpoint event whose only pool is the chunk header
 * itself, a complete 68-byte copy of the header as it stands at that point (size = the end of
 * this event, constant pool offset = this event, metadata offset = the last metadata event),
 * and then rewrites the header at the start of the file with the same values. A reader that
 * stops at such a checkpoint has everything it needs to decode the events before it.
 *
 * <p>The header at the start of the file is not trusted: the JVM may have died while it rewrote
 * it (its state byte then stays 255), and a copied or cut file may have lost the bytes it points
 * to. The events are walked from the start of the chunk instead, each by its size, and the last
 * checkpoint that carries a self-consistent header copy (magic, size = its own end, constant pool
 * offset = its own start) wins. A torn event or garbage ends the walk; it never throws for bad
 * data, and it ends because every step advances by at least one byte within the file.
 */
public final class FlushSegments {
    private static final long CHECKPOINT_TYPE = 1;
    private static final int WINDOW = 1 << 20;

    private FlushSegments() {
    }

    /**
     * The readable part of an unfinished chunk.
     *
     * @param segments the complete flush segments found
     * @param end      chunk-relative end of the last complete segment (0 when there is none)
     * @param header   the header copy of the last segment, state byte set to finished, or null
     */
    public record Result(int segments, long end, byte[] header) {
    }

    /**
     * Walks the chunk that starts at {@code chunkStart} and has {@code available} bytes in the file.
     * Assumes the compressed-integer encoding (flag bit 0), the only one JDKs with flush segments write.
     */
    public static Result scan(FileChannel ch, long chunkStart, long available) throws IOException {
        ByteBuffer w = ByteBuffer.allocate(WINDOW).order(ByteOrder.BIG_ENDIAN);
        long winStart = -1;
        int winLen = 0;
        long p = ChunkHeader.SIZE;
        int segments = 0;
        long end = 0;
        byte[] header = null;
        long[] v = new long[2];
        while (p < available) {
            if (winStart < 0 || p + 20 > winStart + winLen && winStart + winLen < available) {
                winStart = p;
                winLen = fill(ch, w, chunkStart + p, Math.min(WINDOW, available - p));
            }
            int i = (int) (p - winStart);
            int n = varint(w, i, winLen, v, 0);
            if (n < 0) {
                break;
            }
            long size = v[0];
            if (size < 2 || size > available - p) {
                break; // torn or garbage: nothing after it can be trusted
            }
            if (varint(w, i + n, winLen, v, 1) < 0) {
                break;
            }
            if (v[1] == CHECKPOINT_TYPE && size > ChunkHeader.SIZE) {
                byte[] h = headerCopy(ch, chunkStart, p, size);
                if (h != null) {
                    segments++;
                    end = p + size;
                    header = h;
                }
            }
            p += size;
        }
        return new Result(segments, end, header);
    }

    /** The header copy that ends the checkpoint at {@code p} of {@code size} bytes, or null when it is none. */
    private static byte[] headerCopy(FileChannel ch, long chunkStart, long p, long size) throws IOException {
        byte[] b = new byte[ChunkHeader.SIZE];
        int n = ChunkHeader.read(ch, chunkStart + p + size - ChunkHeader.SIZE, b);
        if (n < ChunkHeader.SIZE || !ChunkHeader.hasMagic(b, 0, n)) {
            return null;
        }
        ChunkHeader h = ChunkHeader.decode(b, 0, 0, chunkStart);
        if (h.size() != p + size || h.constantPoolOffset() != p) {
            return null;
        }
        if (h.metadataOffset() < ChunkHeader.SIZE || h.metadataOffset() >= p || h.ticksPerSecond() <= 0) {
            return null; // no metadata yet: the events before it cannot be decoded
        }
        b[ChunkHeader.STATE_OFFSET] = 0;
        return b;
    }

    private static int fill(FileChannel ch, ByteBuffer b, long position, long length) throws IOException {
        b.clear();
        b.limit((int) Math.min(b.capacity(), length));
        return FileReads.readAt(ch, b, position);
    }

    /** JFR's varint at {@code i} into {@code out[slot]}: bytes used, or -1 when it runs past {@code limit}. */
    private static int varint(ByteBuffer b, int i, int limit, long[] out, int slot) {
        long v = 0;
        for (int k = 0; k < 9; k++) {
            if (i + k >= limit) {
                return -1;
            }
            int x = b.get(i + k) & 0xFF;
            if (k == 8) {
                v |= (long) x << 56;
                out[slot] = v;
                return 9;
            }
            v |= (long) (x & 0x7F) << (7 * k);
            if ((x & 0x80) == 0) {
                out[slot] = v;
                return k + 1;
            }
        }
        return -1;
    }
}
