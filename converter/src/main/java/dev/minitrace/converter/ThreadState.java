package dev.minitrace.converter;

import dev.minitrace.converter.util.LongRows;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the conversion keeps about one thread: its names, its records not written yet (in
 * memory and, when memory ran short, spilled to disk), the next sequence number it may write, its
 * sequence bookkeeping, its fragment cursor and, for {@code jdk.MethodTrace}, its method intervals.
 */
final class ThreadState {
    final long key;
    long javaThreadId;
    String name;
    boolean virtual;
    boolean selected;
    /** True once a record of this thread reached the output. */
    boolean used;

    /** Records read and not written yet that are in memory. */
    EventBuffer pending;
    /** The batch being written on the writer thread, then the next pending one. */
    EventBuffer spare;
    /** Records read and not written yet that were spilled to disk, each run sorted by sequence. */
    final List<SpillStore.Segment> segments = new ArrayList<>();
    /**
     * The sequence number the thread's next written record must have: 1 once the thread's first
     * record was seen; {@link OrderingPipeline#UNKNOWN} while the recording may lack the thread's
     * first records (it started late, or is a dump of some chunks), so that nothing is written before
     * the end of the recording tells.
     */
    long next = OrderingPipeline.UNKNOWN;
    /** True when the last release stopped at a missing record (the thread waits for a late one). */
    boolean waiting;
    /** The time of the last record handed to the writer, or {@link Long#MIN_VALUE}. */
    long lastTime = Long.MIN_VALUE;

    /** The highest minitrace sequence written so far, or {@link Long#MIN_VALUE}. */
    long lastSequence = Long.MIN_VALUE;

    /** Fragment cursor (thread layout): a record was written, and the latest timestamp written. */
    boolean started;
    long cursor;

    /** The thread's {@code jdk.MethodTrace} intervals, in {@link MethodTraceNester}'s columns; null: none. */
    LongRows traces;

    ThreadState(long key) {
        this(key, null);
    }

    /** A thread whose buffers count their capacity in {@code meter} (null: not counted). */
    ThreadState(long key, MemoryMeter meter) {
        this.key = key;
        this.pending = new EventBuffer(meter);
        this.spare = new EventBuffer(meter);
    }

    void addTrace(long start, long duration, long methodKey) {
        if (traces == null) {
            traces = new LongRows(MethodTraceNester.WIDTH, 16);
        }
        int i = traces.add();
        traces.set(i, MethodTraceNester.START, start);
        traces.set(i, MethodTraceNester.DURATION, duration);
        traces.set(i, MethodTraceNester.METHOD, methodKey);
    }

    /** The stream id: the JFR thread id, which is a small counter in every JDK. */
    int streamId() {
        return (int) key;
    }
}
