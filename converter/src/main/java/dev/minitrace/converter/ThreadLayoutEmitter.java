package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;

/** {@link TraceWriter.Order#THREAD}: each thread's records in turn, with the thread's own fragment cursor. */
final class ThreadLayoutEmitter extends RecordEmitter {
    ThreadLayoutEmitter(TraceWriter writer, long from, long to, int typeMask) {
        super(writer, from, to, typeMask);
    }

    @Override
    long emit(ThreadState[] threads, Source[] sources, int n) throws IOException {
        boolean all = selectsAll();
        long taken = 0;
        for (int k = 0; k < n; k++) {
            do {
                EventBuffer b = sources[k].block();
                taken += b.count;
                if (b.count > 0) {
                    threads[k].lastTime = b.time[b.size - 1];
                }
                if (all) {
                    emitRuns(threads[k], b);
                } else {
                    emitSelected(threads[k], b);
                }
            } while (sources[k].refill());
        }
        return taken;
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
        long stream = ts.key;
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
                writer.records(stream, type, time, b.value, b.aux, run, i);
                run = i;
                cursor = fragmentsBefore(stream, true, cursor, t);
                limit = nextPoint(cursor);
            } else if (t > cursor) {
                cursor = t;
            }
            completeAux(b, i);
            counts[type[i]]++;
        }
        writer.records(stream, type, time, b.value, b.aux, run, b.size);
        ts.started = true;
        ts.cursor = cursor;
        ts.used = true;
    }

    /** With a time window or a type selection: record by record. */
    private void emitSelected(ThreadState ts, EventBuffer b) throws IOException {
        for (int i = b.start; i < b.size; i++) {
            if (!selected(b, i)) {
                continue;
            }
            ts.cursor = fragmentsBefore(ts.key, ts.started, ts.cursor, b.time[i]);
            ts.started = true;
            ts.used = true;
            write(ts.key, b, i);
        }
    }
}
