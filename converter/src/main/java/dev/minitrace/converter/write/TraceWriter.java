package dev.minitrace.converter.write;

import dev.minitrace.converter.mtlog.MtlogInfo;
import java.io.Closeable;
import java.io.IOException;

/**
 * An output format of the converter. The converter reads a recording, orders each thread's
 * records exactly (by sequence number, across chunks, spilling to disk when memory is short),
 * places the fragment points of the GCs and hands the result to one writer, in the {@link Order}
 * the writer asks for. A new output format is one class implementing this interface.
 *
 * <p>Record columns are the {@code .mtlog} record's fields: {@code type} (1–5, see
 * {@link dev.minitrace.converter.mtlog.MtlogFormat}), {@code value} (method id or object id) and
 * {@code aux} (bytecode index), plus {@code time}, the record's time in ns since the epoch (the
 * agent's ticker resolution: records of one thread may share a time; their order is the array's,
 * never the time's). The arrays are views, valid only during the call.
 * {@link #close()} without {@link #finish} must leave no output behind.
 */
public interface TraceWriter extends Closeable {
    /** How the records reach the writer. */
    enum Order {
        /** Each thread's records in its exact order, one thread's batch after another's. */
        THREAD,
        /** All threads' records merged by time, each thread's own order kept, ties by thread key. */
        TIME
    }

    /** The order this writer wants; asked once, before the first record. */
    Order order();

    /** The records {@code [from, to)} of thread {@code threadKey}, the next ones in the writer's order. */
    void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException;

    /**
     * A fragment starts: GC {@code gcId} paused the application at {@code startNanos} (ns since the
     * epoch). In {@link Order#THREAD} it comes in the stream of {@code threadKey}, before that
     * thread's first record after the pause; in {@link Order#TIME} once, with {@code threadKey} -1.
     */
    void fragment(long threadKey, long gcId, long startNanos) throws IOException;

    /** All records were delivered; {@code tables} names every id they use. Completes the output. */
    void finish(MtlogInfo tables) throws IOException;

    /**
     * The heap this writer holds at most (its buffers), which the converter keeps free beside the
     * records that wait; the default is what the {@code .mtlog} writers need.
     */
    default long heapBytes() {
        return DEFAULT_HEAP_BYTES;
    }

    /** The {@code .mtlog} writers' buffers: 16 MB. */
    long DEFAULT_HEAP_BYTES = 16L << 20;
}
