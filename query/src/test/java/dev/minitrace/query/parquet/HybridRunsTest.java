package dev.minitrace.query.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/** {@link HybridRuns} makes parquet-java's bytes, byte for byte, on every bit width and run shape. */
class HybridRunsTest {
    private static byte[] parquet(int width, int[] v, int n) throws Exception {
        RunLengthBitPackingHybridEncoder e = new RunLengthBitPackingHybridEncoder(width, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
        for (int i = 0; i < n; i++) {
            e.writeInt(v[i]);
        }
        return e.toBytes().toByteArray();
    }

    /** Runs of random lengths (1 to {@code longest}) of random values below {@code 2^width}. */
    private static int[] runs(SplittableRandom r, int width, int n, int longest) {
        int[] v = new int[n];
        long bound = 1L << width;
        int i = 0;
        while (i < n) {
            int x = width == 32 ? r.nextInt() : (int) r.nextLong(bound);
            int len = 1 + r.nextInt(longest);
            for (int k = 0; k < len && i < n; k++) {
                v[i++] = x;
            }
        }
        return v;
    }

    @Test
    void sameBytesAsParquetJava() throws Exception {
        SplittableRandom r = new SplittableRandom(42);
        for (int width = 0; width <= 32; width++) {
            HybridRuns runs = new HybridRuns(width);
            for (int longest : new int[] {1, 3, 9, 20, 700}) {
                for (int n : new int[] {0, 1, 7, 8, 9, 63 * 8, 63 * 8 + 1, 64 * 8 + 3, 5000, 20000}) {
                    int[] v = runs(r, width, n, longest);
                    assertArrayEquals(parquet(width, v, n), runs.encode(v, n).toByteArray(), "width " + width + ", runs up to " + longest + ", " + n + " values");
                }
            }
        }
    }

    @Test
    void definitionLevelsOfInterleavedKinds() throws Exception {
        // the shape that made this class: levels of one column over records of alternating kinds
        SplittableRandom r = new SplittableRandom(7);
        HybridRuns runs = new HybridRuns(1);
        for (int round = 0; round < 200; round++) {
            int n = 1 + r.nextInt(20000);
            int[] v = new int[n];
            int p = r.nextInt(100);
            for (int i = 0; i < n; i++) {
                v[i] = r.nextInt(100) < p ? 1 : 0;
            }
            assertArrayEquals(parquet(1, v, n), runs.encode(v, n).toByteArray(), "round " + round);
        }
    }
}
