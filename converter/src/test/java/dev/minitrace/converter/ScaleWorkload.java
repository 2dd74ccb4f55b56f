package dev.minitrace.converter;

import java.util.concurrent.CountDownLatch;

/**
 * A traced child program whose every worker's trace is known exactly: each iteration of
 * {@link #step} is an entry, a nested call of {@link #leaf}, a monitor acquire and release, an
 * {@code int[]} allocation and the exit: seven records. Run as {@code ScaleWorkload THREADS ITERATIONS}
 * under the agent with {@code include=dev.minitrace.converter.ScaleWorkload}.
 */
public final class ScaleWorkload {
    private static final Object LOCK = new Object();
    private static int sink;

    private ScaleWorkload() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int iterations = Integer.parseInt(args[1]);
        CountDownLatch done = new CountDownLatch(threads);
        CountDownLatch exit = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                work(iterations);
                done.countDown();
                try {
                    // alive until the recording ends: JFR can lose the constant of a thread that ended just before
                    exit.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "scale-" + t);
            workers[t].start();
        }
        done.await();
        Thread.sleep(100); // the buffers of the finished traced frames reach the recording
        exit.countDown();
        for (Thread w : workers) {
            w.join();
        }
        System.out.println("sink " + sink);
    }

    static void work(int iterations) {
        int x = 0;
        for (int i = 0; i < iterations; i++) {
            x += step(i);
        }
        sink += x;
    }

    static int step(int i) {
        int x = leaf(i);
        synchronized (LOCK) {
            x += 1;
        }
        int[] a = new int[1];
        return x + a.length;
    }

    static int leaf(int i) {
        return i * 3;
    }
}
