package dev.minitrace.views.timeline;

import java.io.IOException;
import java.util.Arrays;

/**
 * Lays out one thread's records in time without breaking their order. By default the agent reads
 * the clock only when its 1 ms ticker has advanced (docs/trace-buffer.md), so the records made in
 * one tick share one time. A viewer that sorts by time would scramble them, so the records that
 * share a stamp are held until the thread's next stamp is known and then spread, in sequence
 * order, evenly over the tick: over {@code [t, min(t + 1 ms, next stamp))}. Every record gets a
 * time strictly after the one before it in its thread (at least 1 ns later), so nesting and order
 * survive any sort. With {@code stamp=every} (or per-event records) each record keeps its own time.
 */
final class TickGroup {
    /** The agent's ticker period: records of one stamp were made within about this much time. */
    static final long TICK_NANOS = 1_000_000L;

    /** Receives the records of a group with their laid-out times. */
    interface Sink {
        void record(int type, long value, int aux, long displayNanos) throws IOException;
    }

    private byte[] type = new byte[16];
    private long[] value = new long[16];
    private int[] aux = new int[16];
    private int size;
    private long stamp;
    private long last = Long.MIN_VALUE;

    /** True when records wait for the thread's next stamp. */
    boolean pending() {
        return size > 0;
    }

    /** The stamp of the waiting records. */
    long stamp() {
        return stamp;
    }

    /**
     * Adds a record of time {@code time}. A time before the group's stamp (the thread's clock
     * never goes back, but a merged stream may disagree by a tick) is taken as the stamp, since the
     * record came after those of the group.
     */
    void add(int t, long v, int a, long time, Sink sink) throws IOException {
        if (size > 0 && time > stamp) {
            flush(time, sink);
        }
        if (size == 0) {
            stamp = Math.max(time, stamp);
        }
        if (size == type.length) {
            type = Arrays.copyOf(type, size * 2);
            value = Arrays.copyOf(value, size * 2);
            aux = Arrays.copyOf(aux, size * 2);
        }
        type[size] = (byte) t;
        value[size] = v;
        aux[size] = a;
        size++;
    }

    /**
     * Lays out and hands over the waiting records; nothing of the thread happens at or after
     * {@code limit} (its next stamp, a GC pause or the end of the recording).
     */
    void flush(long limit, Sink sink) throws IOException {
        int n = size;
        if (n == 0) {
            return;
        }
        long span = Math.max(0, Math.min(TICK_NANOS, limit - stamp));
        for (int i = 0; i < n; i++) {
            // no overflow: span <= 1 ms and i < 2^31
            long t = stamp + span * i / n;
            if (t <= last) {
                t = last + 1;
            }
            last = t;
            sink.record(type[i], value[i], aux[i], t);
        }
        size = 0;
        if (type.length > 1 << 16) {
            // a long burst in one tick: give the memory back
            type = new byte[16];
            value = new long[16];
            aux = new int[16];
        }
    }

    /** The latest time handed out, or {@link Long#MIN_VALUE}. */
    long last() {
        return last;
    }
}
