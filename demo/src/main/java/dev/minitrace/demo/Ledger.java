package dev.minitrace.demo;

/**
 * Totals shared by all workers, guarded by {@code synchronized} blocks on two lock objects, one
 * nested in the other, so a trace shows block-structured monitor events.
 */
final class Ledger {
    private final Object totalsLock = new Object();
    private final Object countLock = new Object();
    private long revenue;
    private int accepted;
    private int rejected;

    void accept(long amount) {
        synchronized (totalsLock) {
            revenue += amount;
            synchronized (countLock) {
                accepted++;
            }
        }
    }

    void reject() {
        synchronized (countLock) {
            rejected++;
        }
    }

    long revenue() {
        synchronized (totalsLock) {
            return revenue;
        }
    }

    int accepted() {
        synchronized (countLock) {
            return accepted;
        }
    }

    int rejected() {
        synchronized (countLock) {
            return rejected;
        }
    }
}
