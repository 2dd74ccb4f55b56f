package dev.minitrace.query.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/** {@link DefinedBits} encodes levels that parquet-java's decoder reads back, in about as many bytes as its encoder. */
class DefinedBitsTest {
    private static byte[] parquet(int[] v) throws Exception {
        RunLengthBitPackingHybridEncoder e = new RunLengthBitPackingHybridEncoder(1, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
        for (int x : v) {
            e.writeInt(x);
        }
        return e.toBytes().toByteArray();
    }

    private static byte[] encode(DefinedBits bits, int[] v) throws Exception {
        bits.room(v.length);
        for (int i = 0; i < v.length; i++) {
            if (v[i] == 1) {
                bits.set(i);
            }
        }
        byte[] b = bits.encode(v.length).toByteArray();
        bits.clear(v.length);
        return b;
    }

    private static void assertDecodes(int[] v, byte[] encoded, String what) throws Exception {
        RunLengthBitPackingHybridDecoder d = new RunLengthBitPackingHybridDecoder(1, new ByteArrayInputStream(encoded));
        for (int i = 0; i < v.length; i++) {
            assertEquals(v[i], d.readInt(), what + ": level of row " + i);
        }
    }

    /** Runs of random lengths up to {@code longest}, the value of each drawn with probability {@code p} percent of 1. */
    private static int[] levels(SplittableRandom r, int n, int longest, int p) {
        int[] v = new int[n];
        int i = 0;
        while (i < n) {
            int x = r.nextInt(100) < p ? 1 : 0;
            int len = 1 + r.nextInt(longest);
            for (int k = 0; k < len && i < n; k++) {
                v[i++] = x;
            }
        }
        return v;
    }

    @Test
    void parquetJavaReadsTheLevelsBack() throws Exception {
        SplittableRandom r = new SplittableRandom(42);
        // one object, reused from page to page as a column does: clear() must leave no bit behind
        DefinedBits bits = new DefinedBits(16);
        for (int longest : new int[] {1, 2, 5, 9, 24, 70, 5000}) {
            for (int p : new int[] {0, 3, 50, 97, 100}) {
                for (int n : new int[] {1, 7, 8, 9, 23, 24, 25, 63 * 8, 63 * 8 + 1, 64 * 8 + 3, 5000, 20000}) {
                    int[] v = levels(r, n, longest, p);
                    String what = "runs up to " + longest + ", " + p + " % set, " + n + " rows";
                    byte[] ours = encode(bits, v);
                    assertDecodes(v, ours, what);
                    byte[] theirs = parquet(v);
                    // runs starting off a multiple of eight rows stay bit-packed: at most a byte per eight rows more
                    assertTrue(ours.length <= theirs.length + (n + 7) / 8 / 4 + 4,
                            what + ": " + ours.length + " bytes against parquet-java's " + theirs.length);
                }
            }
        }
    }

    @Test
    void longRunsAreRunLengthEncoded() throws Exception {
        DefinedBits bits = new DefinedBits(16);
        int[] v = new int[20000];
        for (int i = 10000; i < v.length; i++) {
            v[i] = 1;
        }
        byte[] b = encode(bits, v);
        assertDecodes(v, b, "two runs");
        // two RLE runs, each a three-byte header (20,000 as a varint) and the value's byte
        assertEquals(8, b.length);
    }

    /** A range of rows set at once sets what setting each row does, at every word boundary. */
    @Test
    void aRangeSetsEachOfItsRows() throws Exception {
        SplittableRandom r = new SplittableRandom(7);
        DefinedBits bits = new DefinedBits(16);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + r.nextInt(700);
            int[] v = new int[n];
            bits.room(n);
            int at = 0;
            while (at < n) {
                int len = 1 + r.nextInt(round % 2 == 0 ? 8 : 200);
                int to = Math.min(n, at + len);
                if (r.nextBoolean()) {
                    bits.set(at, to);
                    Arrays.fill(v, at, to, 1);
                }
                at = to;
            }
            bits.set(n, n);
            byte[] b = bits.encode(n).toByteArray();
            bits.clear(n);
            assertDecodes(v, b, "round " + round + ", " + n + " rows");
        }
    }
}
