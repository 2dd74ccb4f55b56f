package dev.minitrace.query.parquet;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/**
 * The definition levels of one page of a nullable column, a bit per row (1: the row has a value),
 * and their encoding in Parquet's RLE/bit-packing hybrid at bit width 1.
 *
 * <p>Width 1 bit-packing puts value {@code j} of a group of eight at bit {@code j} of one byte,
 * which is exactly byte {@code k} of the little-endian bits of rows {@code 8k} to {@code 8k + 7}.
 * So the encoder works a byte (eight rows) at a time: three or more bytes of one value in a row
 * become an RLE run, every other byte is copied as it is into a bit-packed run. That replaces an
 * int per row and a per-row encoder (a quarter of the records table's encoding time); the runs it
 * gives up, those not starting on a multiple of eight rows, are too few to matter after zstd.
 */
final class DefinedBits {
    /** Fewer bytes of one value than this stay bit-packed: an RLE run costs two bytes and splits the packed run around it. */
    private static final int MIN_RLE_BYTES = 3;

    private long[] bits;
    private byte[] out = new byte[1024];
    private int size;

    DefinedBits(int capacity) {
        bits = new long[(capacity + 63) >>> 6];
    }

    /** Room for rows {@code [0, rows)}. */
    void room(int rows) {
        int words = (rows + 63) >>> 6;
        if (words > bits.length) {
            bits = Arrays.copyOf(bits, Math.max(words, 2 * bits.length));
        }
    }

    /** Row {@code row} of the page has a value (rows not set are null). */
    void set(int row) {
        bits[row >>> 6] |= 1L << row;
    }

    /** Rows {@code [from, to)} of the page have a value. */
    void set(int from, int to) {
        if (from >= to) {
            return;
        }
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long head = -1L << from;
        long tail = -1L >>> -to;
        if (first == last) {
            bits[first] |= head & tail;
            return;
        }
        bits[first] |= head;
        Arrays.fill(bits, first + 1, last, -1L);
        bits[last] |= tail;
    }

    /** The encoding of the levels of the page's first {@code rows} rows; the bytes stay valid until {@link #clear}. */
    BytesInput encode(int rows) {
        size = 0;
        int bytes = (rows + 7) >>> 3;
        int packedFrom = 0;
        int i = 0;
        while (i < bytes) {
            int v = uniform(i, rows);
            if (v < 0) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < bytes && uniform(j, rows) == v) {
                j++;
            }
            if (j - i >= MIN_RLE_BYTES) {
                packed(packedFrom, i);
                rle(Math.min(rows, 8 * j) - 8 * i, v);
                packedFrom = j;
            }
            i = j;
        }
        packed(packedFrom, bytes);
        return BytesInput.from(out, 0, size);
    }

    /** Empties a page of {@code rows} rows. */
    void clear(int rows) {
        Arrays.fill(bits, 0, (rows + 63) >>> 6, 0L);
    }

    /** 0 or 1 when every row of byte {@code i} (of a page of {@code rows} rows) has that level, else -1. */
    private int uniform(int i, int rows) {
        int b = (int) (bits[i >>> 3] >>> ((i & 7) << 3)) & 0xFF;
        int all = i == (rows - 1) >>> 3 && (rows & 7) != 0 ? (1 << (rows & 7)) - 1 : 0xFF;
        return b == 0 ? 0 : b == all ? 1 : -1;
    }

    /**
     * Bytes {@code [from, to)} of the bits as one bit-packed run. Its header is a varint, so the run
     * is never cut: parquet-java's encoder cuts at 63 groups for a one-byte header, and those headers
     * break the periodic patterns of kinds that zstd otherwise finds (1.4 % of the standard bench
     * recording's export).
     */
    private void packed(int from, int to) {
        if (from >= to) {
            return;
        }
        int groups = to - from;
        space(5 + groups);
        header(groups << 1 | 1);
        for (int k = from; k < to; k++) {
            out[size++] = (byte) (bits[k >>> 3] >>> ((k & 7) << 3));
        }
    }

    private void rle(int count, int value) {
        space(6);
        header(count << 1);
        out[size++] = (byte) value;
    }

    /** A run's header, a ULEB128 varint. */
    private void header(int h) {
        while ((h & ~0x7F) != 0) {
            out[size++] = (byte) (h & 0x7F | 0x80);
            h >>>= 7;
        }
        out[size++] = (byte) h;
    }

    private void space(int n) {
        if (size + n > out.length) {
            out = Arrays.copyOf(out, Math.max(size + n, out.length * 2));
        }
    }
}
