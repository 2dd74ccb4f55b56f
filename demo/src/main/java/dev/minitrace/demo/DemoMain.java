package dev.minitrace.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The workload {@code mt demo} traces: {@value #WORKERS} threads process orders through nested
 * calls, share a warehouse ({@code synchronized} methods, one static) and a ledger (nested
 * {@code synchronized} blocks), allocate objects and arrays, throw and catch an exception for
 * every rejected order, and the main thread forces a GC after making garbage. What each thread
 * does is fixed; only the interleaving of threads varies. Prints one line with the result.
 */
public final class DemoMain {
    /** Number of worker threads. */
    static final int WORKERS = 4;
    /** Orders per worker. */
    static final int ORDERS_PER_WORKER = 2_000;
    /** Distinct items in the warehouse. */
    static final int ITEMS = 8;

    private DemoMain() {
    }

    /** Runs the demo and prints its one-line result. */
    public static void main(String[] args) throws InterruptedException {
        System.out.println(run().line());
    }

    /** Runs the workload and returns its result (deterministic: the same on every run). */
    static Result run() throws InterruptedException {
        Warehouse warehouse = new Warehouse(ITEMS, 1_000_000);
        Ledger ledger = new Ledger();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            Thread t = new Thread(new OrderWorker(w, ORDERS_PER_WORKER, warehouse, ledger), "demo-worker-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long garbageChecksum = collectGarbage();
        long stockLeft = 0;
        for (long s : warehouse.snapshot()) {
            stockLeft += s;
        }
        return new Result(ledger.accepted(), ledger.rejected(), ledger.revenue(), stockLeft,
                Warehouse.reservations(), garbageChecksum);
    }

    /**
     * Makes short-lived garbage (object and multi-dimensional array allocations) and then asks for
     * a full collection, so the trace always holds at least one GC pause.
     */
    private static long collectGarbage() {
        long checksum = 0;
        for (int i = 0; i < 200; i++) {
            int[][] block = new int[64][256];
            block[i % 64][i % 256] = i;
            checksum += block[i % 64][i % 256];
        }
        System.gc();
        return checksum;
    }

    /** The demo's outcome; {@link #line()} is what it prints. */
    record Result(int accepted, int rejected, long revenue, long stockLeft, int reservations, long garbageChecksum) {
        String line() {
            return "minitrace demo: " + WORKERS + " workers, " + accepted + " orders accepted, " + rejected
                    + " rejected, revenue " + revenue + ", stock left " + stockLeft + ", garbage checksum "
                    + garbageChecksum + ", System.gc() called";
        }
    }
}
