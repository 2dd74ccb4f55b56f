package dev.minitrace.converter;

import java.util.Arrays;

/**
 * Everything the conversion keeps about one thread: its names, its pending events (the previous
 * chunk's, held back one chunk so that GCs reported late are known before the events are
 * written, and the current chunk's; a third is being written meanwhile), its sequence
 * bookkeeping, its fragment cursor and, for {@code jdk.MethodTrace}, its method intervals.
 */
final class ThreadState {
    final long key;
    long javaThreadId;
    String name;
    boolean virtual;
    boolean selected;
    /** True once a record of this thread reached the output. */
    boolean used;

    EventBuffer previous = new EventBuffer();
    EventBuffer current = new EventBuffer();
    /** The third buffer: the batch being written on the writer thread, then the next current one. */
    EventBuffer spare = new EventBuffer();

    /** The highest minitrace sequence written so far, or {@link Long#MIN_VALUE}. */
    long lastSequence = Long.MIN_VALUE;

    /** Fragment cursor (thread layout): a record was written, and the latest timestamp written. */
    boolean started;
    long cursor;

    long[] traceStart = new long[0];
    long[] traceDuration = new long[0];
    long[] traceMethod = new long[0];
    int traceSize;

    ThreadState(long key) {
        this.key = key;
    }

    void addTrace(long start, long duration, long methodKey) {
        if (traceSize == traceStart.length) {
            int n = Math.max(16, traceSize * 2);
            traceStart = Arrays.copyOf(traceStart, n);
            traceDuration = Arrays.copyOf(traceDuration, n);
            traceMethod = Arrays.copyOf(traceMethod, n);
        }
        traceStart[traceSize] = start;
        traceDuration[traceSize] = duration;
        traceMethod[traceSize] = methodKey;
        traceSize++;
    }

    /** The stream id: the JFR thread id, which is a small counter in every JDK. */
    int streamId() {
        return (int) key;
    }
}
