package dev.minitrace.junit;

import example.inventory.Stock;
import org.junit.jupiter.api.Test;

/**
 * A test with a baseline, as a project would write it; {@link BaselineTest} runs it through
 * JUnit's launcher (Surefire leaves {@code *Example} classes out).
 */
class BaselineExample {
    static final String FILE = "target/baseline-example/stock.csv";

    @Test
    @Traced(value = "example.inventory.*", baseline = FILE)
    void reserveThreeApples() {
        Stock stock = new Stock(5, "apple");
        for (int i = 0; i < 3; i++) {
            stock.reserve("apple", 1);
        }
    }
}
