package dev.minitrace.spark.fleet;

/**
 * The program each JVM of {@code FleetAtScaleTest} runs under the agent: {@code THREADS} workers
 * each make {@code ROUNDS} calls of {@link #step}, which allocates an {@code int[]} and holds the
 * shared monitor (a plain {@code Object}) once. Every count the fleet questions give follows from
 * the two arguments.
 */
public final class FleetWorkload {
    private static final Object LOCK = new Object();
    private static long total;

    private FleetWorkload() {
    }

    /** {@code FleetWorkload THREADS ROUNDS}. */
    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(new Worker(rounds), "fleet-worker-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        // join() orders the workers' writes before this read; no lock, so every hold is a step's
        System.out.println("fleet workload: " + threads + " x " + rounds + ", total " + total);
    }

    static int step(int r) {
        int[] a = new int[8];
        a[r & 7] = r;
        synchronized (LOCK) {
            total += a[r & 7];
        }
        return a[r & 7];
    }

    private static final class Worker implements Runnable {
        private final int rounds;

        Worker(int rounds) {
            this.rounds = rounds;
        }

        @Override
        public void run() {
            for (int r = 0; r < rounds; r++) {
                step(r);
            }
        }
    }
}
