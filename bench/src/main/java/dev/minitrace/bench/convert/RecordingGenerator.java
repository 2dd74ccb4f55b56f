package dev.minitrace.bench.convert;

import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.nio.file.Path;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/**
 * Writes a large recording of minitrace events as the agent would commit them: {@code threads}
 * threads each run call trees of depth 10 (entry, allocation, exit at every level; a monitor
 * acquire/release at every other level), with per-thread sequences, method definitions in every
 * chunk and a {@code System.gc()} every {@code gcEvery} trees of thread 0. Prints
 * {@code RESULT <minitrace events>}.
 *
 * <p>Arguments: {@code OUT.jfr totalEvents threads}.
 */
public final class RecordingGenerator {
    private static final int DEPTH = 10;
    private static final int EVENTS_PER_TREE = 3 * DEPTH + DEPTH; // entry, alloc, exit per level; a lock pair every other level
    private static final Class<?>[] CLASSES = {Object.class, int[].class, String.class, StringBuilder.class};

    private RecordingGenerator() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long total = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        long treesPerThread = (total / threads + EVENTS_PER_TREE - 1) / EVENTS_PER_TREE;
        FlightRecorder.addPeriodicEvent(MethodDefinitionEvent.class, RecordingGenerator::defineMethods);
        try (Recording r = new Recording()) {
            for (Class<? extends jdk.jfr.Event> c : java.util.List.of(MethodEntryEvent.class, MethodExitEvent.class,
                    LockAcquireEvent.class, LockReleaseEvent.class, ObjectAllocEvent.class)) {
                r.enable(c).withoutStackTrace().withThreshold(java.time.Duration.ZERO);
            }
            r.enable(MethodDefinitionEvent.class).with("period", "everyChunk");
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
                    counts[id] = work(id, treesPerThread);
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

    private static void defineMethods() {
        for (int m = 1; m <= DEPTH; m++) {
            MethodDefinitionEvent d = new MethodDefinitionEvent();
            d.methodId = m;
            d.className = "bench.Generated";
            d.methodName = "level" + m;
            d.descriptor = "(I)I";
            d.modifiers = 9;
            d.commit();
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

    private static long work(int thread, long trees) {
        long seq = 0;
        int hash = thread * 1_000_003;
        for (long t = 0; t < trees; t++) {
            if (thread == 0 && t % 200_000 == 199_999) {
                System.gc();
            }
            if (t % PAUSE_EVERY_TREES == PAUSE_EVERY_TREES - 1) {
                pause();
            }
            for (int level = 1; level <= DEPTH; level++) {
                MethodEntryEvent e = new MethodEntryEvent();
                e.methodId = level;
                e.sequence = ++seq;
                e.commit();
                ObjectAllocEvent a = new ObjectAllocEvent();
                a.objectClass = CLASSES[level & 3];
                a.identityHash = hash++;
                a.bytecodeIndex = 4;
                a.sequence = ++seq;
                a.commit();
                if ((level & 1) == 0) {
                    LockAcquireEvent la = new LockAcquireEvent();
                    la.monitorClass = Object.class;
                    la.identityHash = thread;
                    la.bytecodeIndex = 9;
                    la.sequence = ++seq;
                    la.commit();
                }
            }
            for (int level = DEPTH; level >= 1; level--) {
                if ((level & 1) == 0) {
                    LockReleaseEvent lr = new LockReleaseEvent();
                    lr.monitorClass = Object.class;
                    lr.identityHash = thread;
                    lr.bytecodeIndex = 12;
                    lr.sequence = ++seq;
                    lr.commit();
                }
                MethodExitEvent x = new MethodExitEvent();
                x.methodId = level;
                x.bytecodeIndex = 20;
                x.sequence = ++seq;
                x.commit();
            }
        }
        return seq;
    }
}
