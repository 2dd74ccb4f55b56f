package dev.minitrace.converter;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap bytes of the columns that the waiting records' buffers hold, capacity and not count: a
 * buffer that was emptied keeps some of its arrays, and thousands of threads each keeping a little add up.
 * {@link EventBuffer}s report their growth and shrinking here (from the reading and the writing
 * thread), and the {@link OrderingPipeline} spills when the total passes its budget.
 */
final class MemoryMeter {
    /** Heap bytes per slot of the type, time, value and aux columns (the sequence column, allocated once a buffer is appended, adds 8). */
    static final int BYTES_PER_SLOT = 1 + 8 + 8 + 4;
    private final AtomicLong slots = new AtomicLong(); // bytes

    void add(long delta) {
        slots.addAndGet(delta);
    }

    long bytes() {
        return slots.get();
    }
}
