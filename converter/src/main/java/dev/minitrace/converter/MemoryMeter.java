package dev.minitrace.converter;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The column slots that the waiting records' buffers hold, capacity and not count: a buffer that
 * was emptied keeps some of its arrays, and thousands of threads each keeping a little add up.
 * {@link EventBuffer}s report their growth and shrinking here (from the reading and the writing
 * thread), and the {@link OrderingPipeline} spills when the total passes its budget.
 */
final class MemoryMeter {
    /** Heap bytes per slot: type, time, value, aux and (once a buffer is appended) sequence columns. */
    static final int BYTES_PER_SLOT = 1 + 8 + 8 + 4 + 8;
    private final AtomicLong slots = new AtomicLong();

    void add(long delta) {
        slots.addAndGet(delta);
    }

    long slots() {
        return slots.get();
    }
}
