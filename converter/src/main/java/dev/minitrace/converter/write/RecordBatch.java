package dev.minitrace.converter.write;

import java.io.IOException;

/**
 * Hands records read one at a time (from an {@code .mtlog}, an export) to a {@link TraceWriter} in
 * batches, as the converter does: a batch holds one thread's records and goes to the writer when
 * the thread changes, when it is full, and on {@link #flush}. The columns are reused.
 */
public final class RecordBatch {
    private final TraceWriter writer;
    private final byte[] type;
    private final long[] time;
    private final long[] value;
    private final int[] aux;
    private int size;
    private long thread = Long.MIN_VALUE;

    /** Batches of at most {@code capacity} records for {@code writer}. */
    public RecordBatch(TraceWriter writer, int capacity) {
        this.writer = writer;
        this.type = new byte[capacity];
        this.time = new long[capacity];
        this.value = new long[capacity];
        this.aux = new int[capacity];
    }

    /** Adds a record of thread {@code threadKey}; the batch before it goes to the writer first if it was another thread's or full. */
    public void add(long threadKey, int recordType, long recordTime, long recordValue, int recordAux) throws IOException {
        if (threadKey != thread || size == type.length) {
            flush();
            thread = threadKey;
        }
        type[size] = (byte) recordType;
        time[size] = recordTime;
        value[size] = recordValue;
        aux[size] = recordAux;
        size++;
    }

    /** Hands the records batched so far to the writer. */
    public void flush() throws IOException {
        if (size > 0) {
            writer.records(thread, type, time, value, aux, 0, size);
            size = 0;
        }
    }
}
