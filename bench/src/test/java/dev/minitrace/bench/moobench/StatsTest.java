package dev.minitrace.bench.moobench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** MooBench's figures of a sample, checked against values worked out by hand. */
class StatsTest {

    @Test
    void meanConfidenceIntervalMedianAndQuartiles() {
        Stats s = Stats.of(new int[] {8, 1, 7, 2, 6, 3, 5, 4});
        assertEquals(8, s.n());
        assertEquals(4.5, s.mean(), 1e-12);
        // sample variance of 1..8 is 6; 1.959964 * sqrt(6 / 8)
        assertEquals(1.959964 * Math.sqrt(0.75), s.ci95(), 1e-9);
        assertEquals(4, s.median(), "nearest rank: the 4th of 8");
        assertEquals(2, s.q1());
        assertEquals(6, s.q3());
        assertEquals(1, s.min());
        assertEquals(8, s.max());
    }

    @Test
    void oneValueAndTheDifferenceOfTwoMeans() {
        Stats one = Stats.of(new int[] {42});
        assertEquals(42, one.median());
        assertEquals(0, one.ci95());
        Stats a = Stats.of(new int[] {1, 2, 3, 4, 5, 6, 7, 8});
        Stats b = Stats.of(new int[] {10, 10, 12, 12});
        // b: mean 11, variance 4/3; the standard errors add in squares
        assertEquals(1.959964 * Math.sqrt(6.0 / 8 + (4.0 / 3) / 4), b.ci95OfDifference(a), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new int[0]));
    }
}
