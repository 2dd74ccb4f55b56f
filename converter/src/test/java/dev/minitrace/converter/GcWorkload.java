package dev.minitrace.converter;

import java.nio.file.Paths;

/**
 * Child-JVM main for the collector tests: the known two-phase trace of {@link TestRecordings} with
 * enough allocation around it to make the collector run its usual cycles, then System.gc().
 */
public final class GcWorkload {
    private GcWorkload() {
    }

    /** {@code args[0]}: the recording to write. */
    public static void main(String[] args) throws Exception {
        Object[] retained = new Object[2000];
        Thread churn = new Thread(() -> {
            for (int i = 0; i < 400_000; i++) {
                retained[i % retained.length] = new byte[512];
            }
        }, "churn");
        // the trace runs while the churn thread keeps the collector busy
        churn.start();
        TestRecordings.record(Paths.get(args[0]), 2, 3000, false);
        churn.join();
    }
}
