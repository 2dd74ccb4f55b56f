package dev.minitrace.converter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The outcome of a conversion: what was written, and every problem found in the input as a
 * one-line warning. {@link #lostData()} is true when the input was truncated or lost events,
 * which the command line reports with exit status 3.
 */
public final class ConversionReport {
    long[] countByType = new long[0];
    long records;
    int chunks;
    int threads;
    long minitraceEvents;
    long methodTraceEvents;
    /** Trace events of threads the selection did not select (skipped). */
    long unselectedEvents;
    boolean selectedNoThread;
    int gcs;
    boolean lostData;
    long spilledRecords;
    long spilledBytes;
    long reorderedRecords;
    long reorderFileBytes;
    final List<String> warnings = new ArrayList<>();

    /**
     * Records whose buffer event reached the file ahead of an earlier one of its thread and waited
     * for it packed, before decoding ({@link dev.minitrace.converter.jfr.BufferReorder}).
     */
    public long reorderedRecords() {
        return reorderedRecords;
    }

    /** Bytes of those waiting events that went to the reader's scratch file (memory bound reached). */
    public long reorderFileBytes() {
        return reorderFileBytes;
    }

    /** Records that had to wait on disk (memory bound reached), and the bytes they took there. */
    public long spilledRecords() {
        return spilledRecords;
    }

    /** Bytes written to the temporary spill file. */
    public long spilledBytes() {
        return spilledBytes;
    }

    /** Records written per record type (index = type). */
    public long[] countByType() {
        return countByType.clone();
    }

    /** Records written in total ({@code recordCount}). */
    public long records() {
        return records;
    }

    /** Complete chunks read. */
    public int chunks() {
        return chunks;
    }

    /** Threads written to the INFO table. */
    public int threads() {
        return threads;
    }

    /** {@code minitrace.*} trace events read (selected threads). */
    public long minitraceEvents() {
        return minitraceEvents;
    }

    /** {@code jdk.MethodTrace} events read (selected threads). */
    public long methodTraceEvents() {
        return methodTraceEvents;
    }

    /** GCs in the recording. */
    public int gcs() {
        return gcs;
    }

    /** Trace events of threads that {@link ConvertOptions#threads()} did not select (skipped). */
    public long unselectedEvents() {
        return unselectedEvents;
    }

    /**
     * True when {@link ConvertOptions#threads()} selected none of the traced threads, so nothing
     * but GCs was written. Not among the {@link #warnings()}: the caller says it in its own terms.
     */
    public boolean selectedNoThread() {
        return selectedNoThread;
    }

    /** True when the input was truncated or lost data. */
    public boolean lostData() {
        return lostData;
    }

    /** One-line warnings, in the order found. */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }
}
