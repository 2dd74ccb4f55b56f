package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive map agrees with a HashMap; the index sort is a stable sort. */
class PrimitiveCollectionsTest {
    @Test
    void longIntMapAgreesWithHashMapThroughGrowth() {
        LongIntMap m = new LongIntMap(4);
        Map<Long, Integer> ref = new HashMap<>();
        Random rnd = new Random(1);
        for (int i = 0; i < 20_000; i++) {
            long k = rnd.nextInt(5000) * 0x1_0000_0001L - 7; // includes negatives and keys above 2^32
            int v = rnd.nextInt(1000);
            m.put(k, v);
            ref.put(k, v);
        }
        assertEquals(ref.size(), m.size());
        ref.forEach((k, v) -> assertEquals(v, m.get(k)));
        assertEquals(LongIntMap.MISSING, m.get(123456789L));
        long[] keys = m.keys();
        Arrays.sort(keys);
        assertArrayEquals(ref.keySet().stream().mapToLong(Long::longValue).sorted().toArray(), keys);
        assertThrows(IllegalArgumentException.class, () -> m.put(1, LongIntMap.MISSING));
    }

    @Test
    void denseKeySortGivesTheSameOrderAsTheMergeSort() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = r.nextInt(3000);
            long[] key = new long[n];
            long base = r.nextInt(1_000_000) - 500_000;
            for (int i = 0; i < n; i++) {
                key[i] = base + i + (round % 3 == 0 ? i / 7 : 0); // consecutive, or with gaps
            }
            // runs moved out of order, like thread buffers written late
            for (int swaps = r.nextInt(6); swaps > 0 && n > 2; swaps--) {
                int a = r.nextInt(n);
                int len = Math.min(n - a, 1 + r.nextInt(200));
                int b = r.nextInt(n - len + 1);
                long[] run = Arrays.copyOfRange(key, a, a + len);
                System.arraycopy(key, b, key, a, len);
                System.arraycopy(run, 0, key, b, len);
            }
            if (round % 5 == 1 && n > 1) {
                key[r.nextInt(n)] = key[r.nextInt(n)]; // a repeated key
            }
            if (round % 7 == 2 && n > 0) {
                key[r.nextInt(n)] = Long.MAX_VALUE / 2; // a sparse key
            }
            assertArrayEquals(IndexSort.byKey(key, n), IndexSort.byDenseKey(key, n), "round " + round);
        }
    }

    @Test
    void indexSortIsStableAndPermutes() {
        Random rnd = new Random(2);
        int n = 5000;
        long[] key = new long[n];
        for (int i = 0; i < n; i++) {
            key[i] = rnd.nextInt(50);
        }
        assertFalse(IndexSort.isSorted(key, n));
        int[] order = IndexSort.byKey(key, n);
        for (int i = 1; i < n; i++) {
            assertTrue(key[order[i - 1]] < key[order[i]] || key[order[i - 1]] == key[order[i]] && order[i - 1] < order[i],
                    "stable ascending at " + i);
        }
        long[] copy = key.clone();
        IndexSort.permute(copy, order, n, new long[n]);
        assertTrue(IndexSort.isSorted(copy, n));
    }
}
