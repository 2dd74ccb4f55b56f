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
        TestRecordings.record(Paths.get(args[0]), 2, 3000, false, GcWorkload::churn);
    }

    /**
     * Allocates about 300 MB with 8 MB kept live (so that the collector runs its young, old and
     * concurrent cycles) and commits a method entry and exit every 1000 allocations, so that this
     * thread has records on both sides of every GC.
     */
    private static void churn() {
        byte[][] live = new byte[8_000][];
        long[] seq = {0};
        java.util.List<String> ignored = new java.util.ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            live[i % live.length] = new byte[1024];
            if (i % 1000 == 0) {
                TestRecordings.entry(seq, ignored, 1);
                TestRecordings.exit(seq, ignored, 1, 5, false);
                ignored.clear();
            }
        }
    }
}
