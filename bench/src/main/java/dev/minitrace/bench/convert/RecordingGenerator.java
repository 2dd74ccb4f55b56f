package dev.minitrace.bench.convert;

import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import jdk.jfr.Recording;

/**
 * Writes a large recording the way users make one: the real agent (started by the benchmark with
 * {@link #AGENT_OPTIONS}) traces {@link TracedTree} while {@code threads} threads each run call
 * trees of depth 10 (entry, allocation, exit at every level; a monitor acquire/release at every
 * other level), so the recording holds what the agent writes by default: method, lock and
 * allocation records packed in {@code minitrace.MethodBuffer} events, method and class definitions
 * in every chunk, and a {@code System.gc()} every 200,000 trees of thread 0. Prints
 * {@code RESULT <minitrace events made>} (records and events together).
 *
 * <p>Arguments: {@code OUT.jfr totalEvents threads [running]}: with {@code running} > 0, at most
 * that many threads run call trees at once, taking turns batch by batch.
 */
public final class RecordingGenerator {
    private static final int DEPTH = 10;
    private static final int EVENTS_PER_TREE = 3 * DEPTH + DEPTH; // entry, alloc, exit per level; a lock pair every other level
    /** The agent options the benchmark starts this generator with. */
    public static final String AGENT_OPTIONS = "include=" + TracedTree.class.getName() + ",events=method+lock+alloc";

    private RecordingGenerator() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long total = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        int running = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        // fair: the threads take turns, so every thread's buffer fills a little in every chunk
        Semaphore turns = running > 0 ? new Semaphore(running, true) : null;
        long treesPerThread = (total / threads + EVENTS_PER_TREE - 1) / EVENTS_PER_TREE;
        try (Recording r = new Recording()) {
            for (String name : java.util.List.of("minitrace.MethodBuffer", "minitrace.LockAcquire", "minitrace.LockRelease",
                    "minitrace.ObjectAlloc")) {
                r.enable(name).withoutStackTrace().withThreshold(java.time.Duration.ZERO);
            }
            r.enable("minitrace.MethodDefinition").with("period", "everyChunk");
            r.enable("minitrace.ClassDefinition").with("period", "everyChunk");
            r.enable("jdk.GarbageCollection").withThreshold(java.time.Duration.ZERO);
            r.enable("jdk.GCPhasePause").withThreshold(java.time.Duration.ZERO);
            r.setToDisk(true);
            r.setMaxSize(0);
            r.setMaxAge(null);
            r.setDestination(out);
            r.start();
            Thread[] workers = new Thread[threads];
            long[] counts = new long[threads];
            // Workers stay alive until the recording stopped: JFR leaves the constant of a thread that
            // ended out of the chunk that follows, so its last events would have no thread.
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(threads);
            java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
            for (int t = 0; t < threads; t++) {
                final int id = t;
                workers[t] = new Thread(() -> {
                    counts[id] = work(id, treesPerThread, turns);
                    done.countDown();
                    try {
                        stopped.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "worker-" + t);
                workers[t].start();
            }
            done.await();
            r.stop();
            stopped.countDown();
            for (Thread w : workers) {
                w.join();
            }
            long sum = 0;
            for (long c : counts) {
                sum += c;
            }
            System.out.println("RESULT " + sum);
        }
    }

    /**
     * Four threads committing flat out on a 2-core machine starve JFR's recorder thread, which
     * then discards full buffers (several percent of the events, without a jdk.DataLoss event):
     * each worker pauses briefly now and then so the recorder can keep up.
     */
    private static final long PAUSE_EVERY_TREES = 100;

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long work(int thread, long trees, Semaphore turns) {
        Object lock = new Object();
        long sum = 0;
        if (turns != null) {
            turns.acquireUninterruptibly();
        }
        for (long t = 0; t < trees; t++) {
            if (thread == 0 && t % 200_000 == 199_999) {
                System.gc();
            }
            if (t % PAUSE_EVERY_TREES == PAUSE_EVERY_TREES - 1) {
                if (turns != null) {
                    turns.release();
                }
                pause();
                if (turns != null) {
                    turns.acquireUninterruptibly();
                }
            }
            sum += TracedTree.level(DEPTH, lock);
        }
        if (turns != null) {
            turns.release();
        }
        if (sum < 0) {
            throw new AssertionError(); // keeps the calls from being optimized away
        }
        return trees * EVENTS_PER_TREE;
    }
}
