package dev.minitrace.bench.overhead;

import java.util.Arrays;

/**
 * MooBench-style workload: a method that recurses to depth 10 and returns, called in a loop. Runs
 * in a child JVM and prints {@code RESULT <ns per call tree>}, the median over measured batches.
 *
 * <p>Arguments: {@code plain|rich|store|throw|death warmupTrees measuredTrees batches}. Prints {@code RESULT <median wall
 * ns per tree> <process CPU ns per tree>}. {@code rich} also takes a monitor and allocates an
 * object at every level, for the lock and allocation events; {@code store} makes one reference
 * field store, {@code throw} throws and catches one exception, and {@code death} allocates one
 * object that dies, at every level, for the heap records' costs.
 */
public final class CallTreeWorkload {
    /** Depth of one call tree: calls of the traced method per tree. */
    public static final int DEPTH = 10;

    private static final Object LOCK = new Object();
    // Published results so the JIT cannot drop the work.
    static volatile long sink;
    static Object last;

    private CallTreeWorkload() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) {
        String mode = args[0];
        long warmup = Long.parseLong(args[1]);
        long measured = Long.parseLong(args[2]);
        int batches = Integer.parseInt(args[3]);
        run(mode, warmup);
        long perBatch = measured / batches;
        double[] nsPerTree = new double[batches];
        long cpu0 = processCpuNanos();
        for (int b = 0; b < batches; b++) {
            long t0 = System.nanoTime();
            run(mode, perBatch);
            nsPerTree[b] = (System.nanoTime() - t0) / (double) perBatch;
        }
        // The whole process's CPU time (JFR's threads, the GC and the JIT included): on a shared
        // machine it is disturbed less than the wall time, which counts the time other work ran.
        double cpuPerTree = (processCpuNanos() - cpu0) / (double) (perBatch * batches);
        Arrays.sort(nsPerTree);
        System.out.println("RESULT " + nsPerTree[batches / 2] + " " + cpuPerTree);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void run(String mode, long trees) {
        long acc = 0;
        if (mode.equals("rich")) {
            for (long i = 0; i < trees; i++) {
                acc += recurseRich(DEPTH);
            }
        } else if (mode.equals("store")) {
            for (long i = 0; i < trees; i++) {
                acc += recurseStore(DEPTH);
            }
        } else if (mode.equals("throw")) {
            for (long i = 0; i < trees; i++) {
                acc += recurseThrow(DEPTH);
            }
        } else if (mode.equals("death")) {
            for (long i = 0; i < trees; i++) {
                acc += recurseAlloc(DEPTH);
            }
        } else if (mode.equals("recv")) {
            for (long i = 0; i < trees; i++) {
                acc += RECEIVER.recurseOn(DEPTH);
            }
        } else {
            for (long i = 0; i < trees; i++) {
                acc += recurse(DEPTH);
            }
        }
        sink += acc;
    }

    /** The traced method of the plain workload. */
    public static int recurse(int depth) {
        if (depth <= 1) {
            return 1;
        }
        return recurse(depth - 1) + 1;
    }

    /** Holders of the store workload: one per level, so every store changes a field's target. */
    private static final Node[] HOLDERS = new Node[DEPTH + 1];
    private static final Node[] TARGETS = new Node[DEPTH + 2];
    private static final IllegalStateException THROWN = new IllegalStateException("bench");

    static {
        for (int i = 0; i < TARGETS.length; i++) {
            TARGETS[i] = new Node();
        }
        for (int i = 0; i < HOLDERS.length; i++) {
            HOLDERS[i] = new Node();
        }
    }

    /** A holder and target of reference stores. */
    static final class Node {
        Node next;
    }

    /** The traced method of the store workload: one reference field store per level. */
    public static int recurseStore(int depth) {
        Node h = HOLDERS[depth];
        h.next = h.next == TARGETS[depth] ? TARGETS[depth + 1] : TARGETS[depth];
        if (depth <= 1) {
            return 1;
        }
        return recurseStore(depth - 1) + 1;
    }

    /** The traced method of the throw workload: one exception thrown and caught per level. */
    public static int recurseThrow(int depth) {
        int r = 0;
        try {
            throw THROWN;
        } catch (IllegalStateException e) {
            r = 1;
        }
        if (depth <= 1) {
            return r;
        }
        return recurseThrow(depth - 1) + r;
    }

    /** The receiver of the receiver workload. */
    private static final CallTreeWorkload RECEIVER = new CallTreeWorkload();

    /** The traced method of the receiver workload: an instance method, so each entry has a receiver. */
    public int recurseOn(int depth) {
        if (depth <= 1) {
            return 1;
        }
        return recurseOn(depth - 1) + 1;
    }

    /** The traced method of the death workload: one object allocated, published and dropped per level. */
    public static int recurseAlloc(int depth) {
        last = new Object();
        if (depth <= 1) {
            return 1;
        }
        return recurseAlloc(depth - 1) + 1;
    }

    /** The traced method of the rich workload: one monitor and one allocation per level. */
    public static int recurseRich(int depth) {
        Object o = new Object();
        synchronized (LOCK) {
            last = o;
        }
        if (depth <= 1) {
            return 1;
        }
        return recurseRich(depth - 1) + 1;
    }
}
