package dev.minitrace.views.report;

import dev.minitrace.converter.util.CountTable;

/**
 * Per monitor (object id): acquisitions, holds (outermost acquire to its release), their total and
 * longest time, and the threads that took it (the number, and the first few). The same per class
 * of monitor. Monitors beyond {@link #MAX_MONITORS} are counted only per class.
 */
final class MonitorStats {
    static final int MAX_MONITORS = 100_000;
    /** Thread ordinals kept per monitor for the page. */
    static final int NAMED_THREADS = 4;

    static final int ACQUISITIONS = 0;
    static final int HOLD_TIME = 1;
    static final int LONGEST = 2;
    static final int HOLDS = 3;
    static final int THREADS = 4;
    /** The last thread's ordinal + 1 (0: none yet). */
    static final int LAST_THREAD = 5;
    /** The first {@link #NAMED_THREADS} threads' ordinals. */
    static final int NAMED = 6;

    /** Per monitor (the row's key, an object id): {@link #ACQUISITIONS} ... {@link #NAMED}. */
    final CountTable monitors = new CountTable(NAMED + NAMED_THREADS, 256, MAX_MONITORS);
    long unlisted;

    /** Per class of monitor (the row's key): {@link #ACQUISITIONS}, {@link #HOLD_TIME}, {@link #LONGEST}. */
    final CountTable classes = new CountTable(LONGEST + 1, 64);

    /** A monitor acquire by thread {@code thread} (an ordinal). */
    void acquire(long objectId, int thread) {
        classes.add(classes.row(objectId >>> 32), ACQUISITIONS, 1);
        int i = monitors.row(objectId);
        if (i == CountTable.FULL) {
            unlisted++;
            return;
        }
        monitors.add(i, ACQUISITIONS, 1);
        if (monitors.get(i, LAST_THREAD) != thread + 1) {
            // threads are written one after another, so a monitor meets each thread in one run
            long threads = monitors.get(i, THREADS);
            if (threads < NAMED_THREADS) {
                monitors.set(i, NAMED + (int) threads, thread);
            }
            monitors.set(i, THREADS, threads + 1);
            monitors.set(i, LAST_THREAD, thread + 1);
        }
    }

    /** The end of an outermost hold of {@code durationNanos} (unknown: -1). */
    void hold(long objectId, long durationNanos) {
        int c = classes.row(objectId >>> 32);
        int i = monitors.find(objectId);
        if (i != CountTable.FULL) {
            monitors.add(i, HOLDS, 1);
        }
        if (durationNanos >= 0) {
            classes.add(c, HOLD_TIME, durationNanos);
            classes.max(c, LONGEST, durationNanos);
            if (i != CountTable.FULL) {
                monitors.add(i, HOLD_TIME, durationNanos);
                monitors.max(i, LONGEST, durationNanos);
            }
        }
    }
}
