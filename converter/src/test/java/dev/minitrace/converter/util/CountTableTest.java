package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CountTableTest {
    @Test
    void rowsInFirstSeenOrderWithTheirCountersThroughGrowth() {
        CountTable t = new CountTable(3, 1);
        Map<Long, long[]> reference = new LinkedHashMap<>();
        Random random = new Random(5);
        for (int i = 0; i < 50_000; i++) {
            long key = random.nextInt(3000) - 1500L; // includes 0 and negatives
            long n = random.nextInt(100);
            int row = t.row(key);
            long[] ref = reference.computeIfAbsent(key, k -> new long[3]);
            t.add(row, 0, 1);
            t.add(row, 1, n);
            t.max(row, 2, n);
            ref[0]++;
            ref[1] += n;
            ref[2] = Math.max(ref[2], n);
        }
        assertEquals(reference.size(), t.rows());
        List<Long> order = List.copyOf(reference.keySet());
        for (int r = 0; r < t.rows(); r++) {
            long key = order.get(r);
            assertEquals(key, t.key(r));
            assertEquals(r, t.find(key));
            long[] ref = reference.get(key);
            for (int c = 0; c < 3; c++) {
                assertEquals(ref[c], t.get(r, c), "key " + key + " counter " + c);
            }
        }
        assertEquals(CountTable.FULL, t.find(1_000_000));
    }

    @Test
    void aFullTableTurnsNewKeysAwayButKeepsCountingItsRows() {
        CountTable t = new CountTable(1, 2, 3);
        Map<Long, Integer> rows = new HashMap<>();
        for (long k = 10; k < 13; k++) {
            rows.put(k, t.row(k));
        }
        assertEquals(CountTable.FULL, t.row(13));
        assertEquals(CountTable.FULL, t.find(13));
        assertEquals(rows.get(11L).intValue(), t.row(11));
        t.set(t.row(12), 0, 7);
        assertEquals(7, t.get(2, 0));
        assertEquals(3, t.rows());
    }
}
