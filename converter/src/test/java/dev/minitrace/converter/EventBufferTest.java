package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The buffer's placed mode (events put at their sequence offset) and its fallback to appending
 * and sorting must give the same order as a stable sort by sequence of the arrival order.
 */
class EventBufferTest {
    private record Ev(long seq, int arrival) {
    }

    /** Adds the sequences in the given order and checks the normalized buffer against a stable sort. */
    private static EventBuffer check(EventBuffer b, long[] seqs) {
        List<Ev> expected = new ArrayList<>();
        for (int i = 0; i < seqs.length; i++) {
            b.add(1 + i % 5, seqs[i], 1000 + i, seqs[i] * 7, i);
            expected.add(new Ev(seqs[i], i));
        }
        expected.sort(Comparator.comparingLong(Ev::seq)); // stable
        b.normalize();
        assertEquals(seqs.length, b.count);
        assertEquals(seqs.length, b.size - b.start);
        for (int k = 0; k < expected.size(); k++) {
            int i = b.start + k;
            Ev e = expected.get(k);
            assertEquals(e.seq(), b.seq(i), "seq at " + k);
            assertEquals(e.arrival(), b.aux[i], "arrival at " + k);
            assertEquals(1000 + e.arrival(), b.time[i]);
            assertEquals(e.seq() * 7, b.value[i]);
            assertEquals(1 + e.arrival() % 5, b.type[i]);
        }
        return b;
    }

    @Test
    void inOrderStaysPlaced() {
        long[] s = new long[10_000];
        for (int i = 0; i < s.length; i++) {
            s[i] = 500 + i;
        }
        assertTrue(check(new EventBuffer(), s).placed);
    }

    @Test
    void runsOutOfOrderAndStartingHighStayPlaced() {
        // blocks of 100 arriving in reverse block order: the first event is far from the lowest
        long[] s = new long[5_000];
        int n = 0;
        for (int block = 49; block >= 0; block--) {
            for (int i = 0; i < 100; i++) {
                s[n++] = 1 + block * 100L + i;
            }
        }
        assertTrue(check(new EventBuffer(), s).placed);
    }

    @Test
    void gapsAreCompacted() {
        long[] s = new long[3_000];
        int n = 0;
        for (long q = 10; n < s.length; q++) {
            if (q % 7 != 0) {
                s[n++] = q;
            }
        }
        EventBuffer b = check(new EventBuffer(), s);
        assertFalse(b.placed); // compacted into appended mode, in order
    }

    @Test
    void duplicatesKeepArrivalOrder() {
        long[] s = {5, 6, 7, 6, 8, 5, 9, 9, 4};
        assertFalse(check(new EventBuffer(), s).placed);
    }

    @Test
    void sparseSequencesFallBackToTheSort() {
        long[] s = {1, 1_000_000, 3, 2, 999_999, 5_000_000_000L, -7};
        check(new EventBuffer(), s);
    }

    @Test
    void randomArrivalWithGapsAndRepeats() {
        Random rnd = new Random(42);
        for (int round = 0; round < 200; round++) {
            int n = 1 + rnd.nextInt(3_000);
            long[] s = new long[n];
            long base = rnd.nextInt(1_000_000);
            for (int i = 0; i < n; i++) {
                s[i] = base + i + (rnd.nextInt(50) == 0 ? rnd.nextInt(40) : 0);
            }
            // shuffle locally (events arrive out of order by a bounded distance) or globally
            int dist = rnd.nextBoolean() ? 1 + rnd.nextInt(200) : n;
            for (int i = 0; i < n; i++) {
                int j = Math.min(n - 1, i + rnd.nextInt(dist));
                long t = s[i];
                s[i] = s[j];
                s[j] = t;
            }
            EventBuffer b = new EventBuffer();
            check(b, s);
            // reuse after clear: stale slots must not show up as events
            b.clear();
            long[] again = new long[n / 2 + 1];
            for (int i = 0; i < again.length; i++) {
                again[i] = 3 + (again.length - 1 - i);
            }
            check(b, again);
            b.clear();
        }
    }

    @Test
    void splitHeadKeepsSequenceOrder() {
        long[] s = {20, 22, 21, 24, 23, 26, 25, 27};
        EventBuffer b = new EventBuffer();
        for (int i = 0; i < s.length; i++) {
            b.add(1, s[i], i, s[i], i);
        }
        EventBuffer head = b.splitHead(3);
        head.normalize();
        b.normalize();
        assertEquals(3, head.count);
        assertEquals(5, b.count);
        for (int i = 0; i < 3; i++) {
            assertEquals(20 + i, head.seq(head.start + i));
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(23 + i, b.seq(b.start + i));
        }
        b.add(1, 28, 0, 28, 0);
        b.normalize();
        assertEquals(28, b.seq(b.size - 1));
    }
    @Test
    void aBufferThatIsNeverEmptyStaysTheSizeOfWhatItHolds() {
        // TIME order: each chunk end writes the older half and keeps the newer one, forever
        EventBuffer b = new EventBuffer();
        EventBuffer batch = new EventBuffer();
        long next = 1;
        long written = 1;
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < 10_000; i++, next++) {
                b.add(1, next, next, next * 3, (int) next);
            }
            int k = b.releasable(written, Long.MAX_VALUE) - 10_000;
            b.moveHead(k, batch);
            for (int i = 0; i < k; i++) {
                assertEquals(written + i, batch.seq(i));
                assertEquals((written + i) * 3, batch.value[i]);
            }
            written += k;
            batch.empty();
            assertEquals(10_000, b.count);
        }
        assertTrue(b.placed);
        assertTrue(b.type.length <= 3 * 20_000, "capacity " + b.type.length + " for at most 20,000 held");
        assertEquals(written, b.minSeq());
    }

    @Test
    void moveHeadReusesTheBatchColumns() {
        EventBuffer b = new EventBuffer();
        EventBuffer batch = new EventBuffer();
        for (long s = 1; s <= 3_000; s++) {
            b.add(2, s, s, s, 0);
        }
        b.moveHead(1_000, batch);
        byte[] columns = batch.type;
        batch.empty();
        b.moveHead(1_000, batch);
        assertTrue(columns == batch.type, "the emptied batch's columns are used again");
        assertEquals(1_001, batch.seq(0));
        assertEquals(2_000, batch.seq(999));
        assertEquals(1_000, b.count);
        assertEquals(2_001, b.minSeq());
    }

    @Test
    void trimKeepsEveryEntryInOrder() {
        Random rnd = new Random(7);
        for (boolean gaps : new boolean[] {false, true}) {
            for (boolean shuffled : new boolean[] {false, true}) {
                EventBuffer b = new EventBuffer();
                List<Long> seqs = new ArrayList<>();
                for (long s = 1; s <= 50_000; s++) {
                    if (!gaps || s % 7 != 0) {
                        seqs.add(s);
                    }
                }
                if (shuffled) {
                    java.util.Collections.shuffle(seqs, rnd);
                }
                for (long s : seqs) {
                    b.add(1 + (int) (s % 5), s, s * 2, s * 3, (int) s);
                }
                b.dropHead(0);
                b.normalize();
                b.dropHead(10_000);
                int held = b.count;
                b.trim();
                assertTrue(b.type.length <= held + held / 8 + 64 + (b.size - b.start - held),
                        "capacity " + b.type.length + " for " + held);
                b.normalize();
                long prev = Long.MIN_VALUE;
                for (int i = b.start; i < b.size; i++) {
                    long s = b.seq(i);
                    assertTrue(s > prev);
                    assertEquals(s * 2, b.time[i]);
                    assertEquals(s * 3, b.value[i]);
                    assertEquals((int) s, b.aux[i]);
                    assertEquals(1 + (int) (s % 5), b.type[i]);
                    prev = s;
                }
                assertEquals(held, b.size - b.start);
                b.add(1, 1_000_000, 0, 0, 0); // still usable after trimming
                assertEquals(held + 1, b.count);
            }
        }
    }
}
