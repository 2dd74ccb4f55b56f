package dev.minitrace.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import example.inventory.Stock;
import org.apache.commons.lang3.StringUtils;
import org.junit.jupiter.api.Test;

/**
 * {@link ExactTrace} in a test JVM that runs with the real agent (Surefire's argLine): the counts
 * of a block are exact, only the methods {@link Traced} names count, and a real library's code
 * (commons-lang3's {@link StringUtils}) is counted like the project's own.
 */
class ExactTraceTest {
    @Test
    @Traced("example.inventory.*")
    void countsTheCallsAllocationsAndMonitorsOfABlock(ExactTrace trace) throws Throwable {
        Stock stock = new Stock(5, "apple", "pear");
        ExactCounts c = trace.run(() -> {
            for (int i = 0; i < 3; i++) {
                stock.reserve("apple", 1);
            }
            stock.reserve("pear", 9);
        });
        assertEquals(4, c.calls("example.inventory.Stock::reserve"));
        assertEquals(4, c.calls("example.inventory.Stock::reserve(Ljava/lang/String;I)Z"));
        assertEquals(4, c.calls("example.inventory.Stock::lookup"));
        assertEquals(3, c.locksIn("example.inventory.Stock::reserve"), "the monitor is taken for each reservation made");
        assertEquals(3, c.locks("example.inventory.Stock"));
        assertEquals(3, c.allocations("example.inventory.Stock$Reservation"));
        assertEquals(3, c.calls("example.inventory.Stock$Reservation::<init>"));
        assertEquals(0, c.calls("example.inventory.Stock::<init>"), "the stock was made before the block");
    }

    @Test
    @Traced("example.inventory.Stock::lookup")
    void onlyTheNamedMethodsCountAndExitsByExceptionAreCounted(ExactTrace trace) throws Throwable {
        Stock stock = new Stock(5, "apple");
        ExactCounts c = trace.run(() -> {
            stock.reserve("apple", 1);
            assertThrows(IllegalArgumentException.class, () -> stock.reserve("plum", 1));
        });
        assertEquals(2, c.calls("example.inventory.Stock::lookup"));
        assertEquals(1, c.exceptions("example.inventory.Stock::lookup"));
        assertEquals(0, c.calls("example.inventory.Stock::reserve"), "traced by the agent, but not named by the test");
        assertEquals(1, c.methods().size(), c::toString);
    }

    @Test
    @Traced("org.apache.commons.lang3.StringUtils")
    void countsARealLibrarysCode(ExactTrace trace) throws Throwable {
        String[] words = {"exact", "", "counts", null, "as", "tests"};
        StringUtils.isBlank("initialized"); // the class's initializer runs once, before the counted blocks
        ExactCounts c = trace.run(() -> {
            for (String w : words) {
                StringUtils.isBlank(w);
            }
            assertEquals("exact counts", StringUtils.normalizeSpace("  exact \t counts "));
        });
        assertEquals(words.length, c.calls("org.apache.commons.lang3.StringUtils::isBlank"));
        assertEquals(1, c.calls("org.apache.commons.lang3.StringUtils::normalizeSpace"));
        assertTrue(c.allocationsIn("org.apache.commons.lang3.StringUtils::normalizeSpace") <= 2,
                "normalizeSpace allocates its buffer and its result at most: " + c);
        ExactCounts again = trace.run(() -> {
            for (String w : words) {
                StringUtils.isBlank(w);
            }
            assertEquals("exact counts", StringUtils.normalizeSpace("  exact \t counts "));
        });
        assertEquals(c.methods(), again.methods(), "the same code counts the same");
    }

    @Test
    @Traced("example.inventory.*")
    void aMethodNamedWithoutItsClassIsRefused(ExactTrace trace) throws Throwable {
        ExactCounts c = trace.run(() -> new Stock(1, "fig").reserve("fig", 1));
        assertThrows(IllegalArgumentException.class, () -> c.calls("reserve"));
    }
}
