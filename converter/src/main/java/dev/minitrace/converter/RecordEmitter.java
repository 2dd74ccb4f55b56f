package dev.minitrace.converter;

import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.util.Arrays;

/**
 * Hands batches of per-thread records (each already in its thread's order) to the
 * {@link TraceWriter} in the order it wants, applying the time window and the record-type selection and placing
 * GC_TIMESTAMP records. A layout decides which stream each record goes to and how threads
 * interleave; the fragment rule is shared: a stream gets a GC_TIMESTAMP for each fragment point
 * {@code p} with {@code cursor < p <= t}, written just before a record of time {@code t}, where
 * {@code cursor} is the latest timestamp the stream has written, and only once the stream has a
 * record (the first fragment has no GC_TIMESTAMP before it).
 */
abstract class RecordEmitter {
    final TraceWriter writer;
    final long from;
    final long to;
    final int typeMask;
    final long[] countByType = new long[MtlogFormat.MAX_TYPE + 1];
    /** The methods' return bytecode indexes, defined by the collector ({@link #completeAux}). */
    final MethodReturns returns = new MethodReturns();
    /** Exits written with bytecode index 0 because no definition of their method gave its return's. */
    long unknownReturns;
    /**
     * One-entry cache of the fragment point search: {@code cacheIndex} is the first point after
     * {@code cacheCursor} in {@code cachePoints}. Streams are written a batch at a time, so it
     * saves a binary search per record.
     */
    private long[] cachePoints;
    /** Fragment points (times, ascending, and their GC ids) known when the current batch was handed over. */
    private long[] pointTime = new long[0];
    private long[] pointGc = new long[0];
    private long cacheCursor;
    private int cacheIndex;

    RecordEmitter(TraceWriter writer, long from, long to, int typeMask) {
        this.writer = writer;
        this.from = from;
        this.to = to;
        this.typeMask = typeMask;
    }

    /**
     * Sets the fragment points for the next batches: a snapshot of the {@link GcTable}'s, taken
     * when the batch is handed over, since the table keeps growing while a batch is written on
     * another thread. The arrays are not modified afterwards.
     */
    final void points(long[] times, long[] gcIds) {
        pointTime = times;
        pointGc = gcIds;
    }

    /** A thread's next records, a block at a time. */
    interface Source {
        /** The current block, normalized; its entries are {@code [start, size)}. */
        EventBuffer block();

        /** Replaces the block with the next one; false when there is none. */
        boolean refill() throws IOException;
    }

    /** A source of one block. */
    static Source of(EventBuffer b) {
        return new Source() {
            @Override
            public EventBuffer block() {
                return b;
            }

            @Override
            public boolean refill() {
                return false;
            }
        };
    }

    /**
     * Writes the sources' records; {@code sources[i]} belongs to {@code threads[i]}; threads are in
     * ascending key order. Returns the records taken from the sources.
     */
    abstract long emit(ThreadState[] threads, Source[] sources, int n) throws IOException;

    /** The same with one block per thread. */
    final long emit(ThreadState[] threads, EventBuffer[] batches, int n) throws IOException {
        Source[] s = new Source[n];
        for (int i = 0; i < n; i++) {
            s[i] = of(batches[i]);
        }
        return emit(threads, s, n);
    }

    /** The writer's order fixed at start: the matching emitter. */
    static RecordEmitter forWriter(TraceWriter writer, long from, long to, int typeMask) {
        return writer.order() == TraceWriter.Order.TIME ? new GlobalLayoutEmitter(writer, from, to, typeMask)
                : new ThreadLayoutEmitter(writer, from, to, typeMask);
    }

    /** True when the record at {@code i} of {@code b} passes the window and the type selection. */
    final boolean selected(EventBuffer b, int i) {
        long t = b.time[i];
        return t >= from && t < to && (typeMask & (1 << b.type[i])) != 0;
    }

    /**
     * Writes the GC_TIMESTAMP records a stream needs before a record of time {@code t}; returns
     * the new cursor. {@code started} says whether the stream already has a record.
     */
    final long fragmentsBefore(long threadKey, boolean started, long cursor, long t) throws IOException {
        if (!started) {
            return t;
        }
        if (t <= cursor) {
            return cursor;
        }
        long[] pt = pointTime;
        if (pt.length > 0 && pt[pt.length - 1] > cursor) {
            int i;
            if (pt == cachePoints && cursor >= cacheCursor && (cacheIndex == pt.length || pt[cacheIndex] > cursor)) {
                i = cacheIndex;
            } else {
                i = Arrays.binarySearch(pt, cursor);
                if (i < 0) {
                    i = -i - 1;
                }
                while (i < pt.length && pt[i] <= cursor) {
                    i++;
                }
                cachePoints = pt;
                cacheCursor = cursor;
                cacheIndex = i;
            }
            if (i == pt.length || pt[i] > t) {
                return t;
            }
            long[] ids = pointGc;
            for (; i < pt.length && pt[i] <= t; i++) {
                writer.fragment(threadKey, ids[i], pt[i]);
                countByType[MtlogFormat.GC_TIMESTAMP]++;
            }
        }
        return t;
    }

    /**
     * The first fragment point after {@code cursor}, or {@link Long#MAX_VALUE} if none: a record of
     * time {@code t} needs GC_TIMESTAMP records before it exactly when the stream has started and
     * {@code t} is at least that point.
     */
    final long nextPoint(long cursor) {
        long[] pt = pointTime;
        if (pt.length == 0 || pt[pt.length - 1] <= cursor) {
            return Long.MAX_VALUE;
        }
        int i = Arrays.binarySearch(pt, cursor);
        if (i < 0) {
            i = -i - 1;
        }
        while (i < pt.length && pt[i] <= cursor) {
            i++;
        }
        return i < pt.length ? pt[i] : Long.MAX_VALUE;
    }

    /** True when every record passes: no time window and every data record type selected. */
    final boolean selectsAll() {
        int data = (1 << MtlogFormat.METHOD_ENTRY) | (1 << MtlogFormat.METHOD_EXIT) | (1 << MtlogFormat.LOCK_ACQUIRE)
                | (1 << MtlogFormat.LOCK_RELEASE) | (1 << MtlogFormat.OBJECT_ALLOC) | ConvertOptions.HEAP_TYPES;
        return from == Long.MIN_VALUE && to == Long.MAX_VALUE && (typeMask & data) == data;
    }

    /**
     * Sets in place the aux of record {@code i} of {@code b} that is known only when it is written:
     * an OBJECT_DEATH's GC ({@link #attributeDeath}), the bytecode index of an exit that its
     * method's definition gives ({@link dev.minitrace.converter.jfr.RecordingSink#DEFINED_RETURN_BCI}).
     */
    final void completeAux(EventBuffer b, int i) {
        if (b.aux[i] == RecordingSink.DEFINED_RETURN_BCI && b.type[i] == MtlogFormat.METHOD_EXIT) {
            int bci = returns.returnBci(b.value[i]);
            if (bci < 0) {
                unknownReturns++;
                bci = 0;
            }
            b.aux[i] = bci;
        } else if (b.type[i] == MtlogFormat.OBJECT_DEATH) {
            attributeDeath(b, i);
        }
    }

    /**
     * An OBJECT_DEATH's aux: the GC id of the latest fragment point at or before its time (the
     * collection that found the object unreachable, as far as the fragments tell), 0xFFFFFFFF when
     * none; set in place before the record is written.
     */
    final void attributeDeath(EventBuffer b, int i) {
        long[] pt = pointTime;
        int k = Arrays.binarySearch(pt, b.time[i]);
        if (k < 0) {
            k = -k - 2; // the last point before the time
        } else {
            while (k + 1 < pt.length && pt[k + 1] == b.time[i]) {
                k++;
            }
        }
        b.aux[i] = k < 0 ? -1 : (int) pointGc[k];
    }

    /** Writes the record at {@code i} of {@code b} and counts it. */
    final void write(long threadKey, EventBuffer b, int i) throws IOException {
        completeAux(b, i);
        writer.records(threadKey, b.type, b.time, b.value, b.aux, i, i + 1);
        countByType[b.type[i]]++;
    }
}
