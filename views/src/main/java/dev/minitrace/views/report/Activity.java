package dev.minitrace.views.report;

import java.util.Arrays;

/**
 * A thread's activity over time for the overview: its records per time bin over the recording
 * (with times), or per fragment (an {@code .mtlog}, whose records have no times: a fragment is the
 * time between two GC points, which have times).
 */
final class Activity {
    /** Bins across the recording. */
    static final int BINS = 400;

    final long[] bins;
    /** Untimed: the start of each fragment the thread has records in, and its record count. */
    long[] fragmentStart = new long[4];
    long[] fragmentCount = new long[4];
    int fragments;

    Activity(boolean timed) {
        bins = timed ? new long[BINS] : null;
    }

    void add(long time, long start, long width) {
        if (bins != null) {
            long b = width <= 0 ? 0 : (time - start) / width;
            bins[(int) Math.max(0, Math.min(BINS - 1, b))]++;
            return;
        }
        if (fragments == 0 || fragmentStart[fragments - 1] != time) {
            if (fragments == fragmentStart.length) {
                fragmentStart = Arrays.copyOf(fragmentStart, fragments * 2);
                fragmentCount = Arrays.copyOf(fragmentCount, fragments * 2);
            }
            fragmentStart[fragments++] = time;
        }
        fragmentCount[fragments - 1]++;
    }
}
