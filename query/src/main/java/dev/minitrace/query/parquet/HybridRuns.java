package dev.minitrace.query.parquet;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Parquet's RLE/bit-packing hybrid encoding of a page's small integers (definition levels,
 * dictionary ids), from an array in one pass into a reusable byte array. It makes the same bytes as
 * parquet-java's {@code RunLengthBitPackingHybridEncoder}, decision for decision (a test holds the
 * two together on every bit width), and packs with parquet-java's own {@link BytePacker}.
 *
 * <p>Why not that encoder itself: it takes one value per call and ends every bit-packed run by
 * rewriting the run's header through {@code CapacityByteArrayOutputStream.setByte}, which boxes its
 * arguments and walks the buffer's slabs. The records of a trace interleave kinds, so most columns'
 * definition levels alternate in short runs; on the standard bench recording that encoder was a
 * fifth of the export's CPU.
 */
final class HybridRuns {
    private final int width;
    private final int padded;
    private final BytePacker packer;
    private final int[] group = new int[8];
    private byte[] out = new byte[1024];
    private int size;

    /** Values of {@code width} bits (0 to 32). */
    HybridRuns(int width) {
        this.width = width;
        this.padded = (width + 7) / 8;
        this.packer = Packer.LITTLE_ENDIAN.newBytePacker(width);
    }

    /** The encoding of {@code v[0, n)}; the bytes stay valid until the next call. */
    BytesInput encode(int[] v, int n) {
        size = 0;
        int previous = 0;
        int repeats = 0;
        int buffered = 0;
        int header = -1;
        int groups = 0;
        for (int i = 0; i < n; i++) {
            int x = v[i];
            if (x == previous) {
                if (++repeats >= 8) {
                    continue;
                }
            } else {
                if (repeats >= 8) {
                    // an RLE run of the repeated value; it ends the bit-packed run before it
                    if (header >= 0) {
                        out[header] = (byte) (groups << 1 | 1);
                        header = -1;
                        groups = 0;
                    }
                    rle(repeats, previous);
                    buffered = 0;
                }
                repeats = 1;
                previous = x;
            }
            group[buffered++] = x;
            if (buffered == 8) {
                if (groups >= 63) {
                    out[header] = (byte) (groups << 1 | 1);
                    header = -1;
                    groups = 0;
                }
                if (header < 0) {
                    room(1);
                    header = size++;
                }
                room(width);
                packer.pack8Values(group, 0, out, size);
                size += width;
                buffered = 0;
                repeats = 0;
                groups++;
            }
        }
        if (repeats >= 8) {
            if (header >= 0) {
                out[header] = (byte) (groups << 1 | 1);
            }
            rle(repeats, previous);
        } else {
            if (buffered > 0) {
                Arrays.fill(group, buffered, 8, 0);
                if (groups >= 63) {
                    out[header] = (byte) (groups << 1 | 1);
                    header = -1;
                    groups = 0;
                }
                if (header < 0) {
                    room(1);
                    header = size++;
                }
                room(width);
                packer.pack8Values(group, 0, out, size);
                size += width;
                groups++;
            }
            if (header >= 0) {
                out[header] = (byte) (groups << 1 | 1);
            }
        }
        return BytesInput.from(out, 0, size);
    }

    private void rle(int count, int value) {
        room(5 + padded);
        int h = count << 1;
        while ((h & ~0x7F) != 0) {
            out[size++] = (byte) (h & 0x7F | 0x80);
            h >>>= 7;
        }
        out[size++] = (byte) h;
        for (int b = 0; b < padded; b++) {
            out[size++] = (byte) (value >>> 8 * b);
        }
    }

    private void room(int n) {
        if (size + n > out.length) {
            out = Arrays.copyOf(out, Math.max(size + n, out.length * 2));
        }
    }
}
