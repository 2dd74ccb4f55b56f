package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** LongRows against a list of arrays, through growth, pops, removals in the middle and inserts. */
class LongRowsTest {
    private static final int WIDTH = 3;

    @Test
    void behavesAsAListOfRowsThroughGrowthRemovalAndInsertion() {
        LongRows rows = new LongRows(WIDTH, 1);
        List<long[]> reference = new ArrayList<>();
        Random random = new Random(11);
        for (int step = 0; step < 100_000; step++) {
            int op = random.nextInt(10);
            if (op < 5 || reference.isEmpty()) {
                // append leaves the cells as they were; this caller sets them all
                boolean zeroed = random.nextBoolean();
                int r = zeroed ? rows.add() : rows.append();
                assertEquals(reference.size(), r);
                long[] ref = new long[WIDTH];
                for (int c = 0; c < WIDTH; c++) {
                    if (zeroed) {
                        assertEquals(0, rows.get(r, c), "a new row is zeros, also where a dropped row was");
                    }
                    // few distinct values, so that lastIndexOf meets repeats
                    ref[c] = random.nextInt(8);
                    rows.set(r, c, ref[c]);
                }
                reference.add(ref);
            } else if (op == 5) {
                int at = random.nextInt(reference.size() + 1);
                rows.insert(at);
                reference.add(at, new long[WIDTH]);
            } else if (op == 6) {
                int at = random.nextInt(reference.size());
                rows.remove(at);
                reference.remove(at);
            } else if (op == 7) {
                int keep = random.nextInt(reference.size() + 1);
                rows.truncate(keep);
                reference.subList(keep, reference.size()).clear();
            } else if (op == 8) {
                int first = random.nextInt(reference.size() + 1);
                rows.removeFirst(first);
                reference.subList(0, first).clear();
            } else {
                int r = random.nextInt(reference.size());
                int c = random.nextInt(WIDTH);
                long d = random.nextInt(1000);
                rows.add(r, c, d);
                reference.get(r)[c] += d;
            }
            assertEquals(reference.size(), rows.size());
            int column = random.nextInt(WIDTH);
            long value = random.nextInt(8);
            int below = random.nextInt(reference.size() + 1);
            int expected = below - 1;
            while (expected >= 0 && reference.get(expected)[column] != value) {
                expected--;
            }
            assertEquals(expected, rows.lastIndexOf(column, value, below));
        }
        for (int r = 0; r < reference.size(); r++) {
            long[] row = new long[WIDTH];
            for (int c = 0; c < WIDTH; c++) {
                row[c] = rows.get(r, c);
            }
            assertArrayEquals(reference.get(r), row, "row " + r);
        }
    }

    @Test
    void searchAnswersAsArraysBinarySearchOnAColumn() {
        LongRows rows = new LongRows(2, 4);
        long[] column = {1, 3, 3, 3, 7, 9, 9, 12};
        for (long v : column) {
            rows.set(rows.add(), 1, v);
        }
        for (int from = 0; from <= column.length; from++) {
            for (int to = from; to <= column.length; to++) {
                for (long key = 0; key <= 13; key++) {
                    assertEquals(Arrays.binarySearch(column, from, to, key), rows.search(from, to, 1, key),
                            "key " + key + " in [" + from + ", " + to + ")");
                }
            }
        }
    }
}
