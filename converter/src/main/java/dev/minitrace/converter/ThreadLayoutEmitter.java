package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;

/** The thread-local logger layout: one stream per thread (stream id = thread id), {@code aux} = bytecode index. */
final class ThreadLayoutEmitter extends RecordEmitter {
    ThreadLayoutEmitter(MtlogWriter writer, GcTable gcs, long from, long to, int typeMask) {
        super(writer, gcs, from, to, typeMask);
    }

    @Override
    void emit(ThreadState[] threads, EventBuffer[] batches, int n) throws IOException {
        boolean all = selectsAll();
        for (int k = 0; k < n; k++) {
            if (all) {
                emitRuns(threads[k], batches[k]);
            } else {
                emitSelected(threads[k], batches[k]);
            }
        }
    }

    /**
     * Every record passes: the records between two fragment points are written as one run straight
     * from the columns; only a record at or after the next fragment point takes the per-record
     * fragment rule.
     */
    private void emitRuns(ThreadState ts, EventBuffer b) throws IOException {
        if (b.count == 0) {
            return;
        }
        int stream = ts.streamId();
        long[] time = b.time;
        byte[] type = b.type;
        long[] counts = countByType;
        boolean started = ts.started;
        long cursor = ts.cursor;
        long limit = started ? nextPoint(cursor) : Long.MAX_VALUE;
        int run = b.start;
        for (int i = b.start; i < b.size; i++) {
            long t = time[i];
            if (!started) {
                started = true;
                cursor = t;
                limit = nextPoint(cursor);
            } else if (t >= limit) {
                writer.records(stream, type, b.value, b.aux, run, i);
                run = i;
                cursor = fragmentsBefore(stream, true, cursor, t);
                limit = nextPoint(cursor);
            } else if (t > cursor) {
                cursor = t;
            }
            counts[type[i]]++;
        }
        writer.records(stream, type, b.value, b.aux, run, b.size);
        ts.started = true;
        ts.cursor = cursor;
        ts.used = true;
    }

    /** With a time window or a type selection: record by record. */
    private void emitSelected(ThreadState ts, EventBuffer b) throws IOException {
        int stream = ts.streamId();
        for (int i = b.start; i < b.size; i++) {
            if (!selected(b, i)) {
                continue;
            }
            ts.cursor = fragmentsBefore(stream, ts.started, ts.cursor, b.time[i]);
            ts.started = true;
            ts.used = true;
            write(stream, b.type[i], b.value[i], b.aux[i]);
        }
    }
}
