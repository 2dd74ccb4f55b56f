package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;

/**
 * {@link TraceWriter.Order#TIME}: all threads' records in one sequence. A batch is merged across threads by timestamp with a heap over the threads' heads, so each thread's own
 * order is kept even where its timestamps disagree with it; equal timestamps are broken by thread
 * id (then by the thread's own order). The thread at the top of the heap writes a run: all its
 * records that still come before the smallest head of the other threads (a thread runs for a
 * time slice, so runs are long), without a heap operation per record.
 */
final class GlobalLayoutEmitter extends RecordEmitter {
    private boolean started;
    private long cursor;

    GlobalLayoutEmitter(TraceWriter writer, long from, long to, int typeMask) {
        super(writer, from, to, typeMask);
    }

    @Override
    long emit(ThreadState[] threads, Source[] sources, int n) throws IOException {
        int[] heap = new int[n];
        int[] pos = new int[n];
        EventBuffer[] batches = new EventBuffer[n];
        int size = 0;
        long taken = 0;
        for (int k = 0; k < n; k++) {
            batches[k] = sources[k].block();
            while (batches[k].count == 0 && sources[k].refill()) {
                batches[k] = sources[k].block();
            }
            if (batches[k].count > 0) {
                taken += batches[k].count;
                pos[k] = batches[k].start;
                heap[size++] = k;
                up(heap, size - 1, batches, pos);
            }
        }
        boolean all = selectsAll();
        long limit = started ? nextPoint(cursor) : Long.MAX_VALUE;
        while (size > 0) {
            int k = heap[0];
            EventBuffer b = batches[k];
            int i = pos[k];
            int stop = b.size;
            if (size > 1) {
                // The smallest head of the others is a child of the root.
                int other = heap[1];
                if (size > 2 && less(heap[2], other, batches, pos)) {
                    other = heap[2];
                }
                long bound = batches[other].time[pos[other]];
                long[] time = b.time;
                stop = i + 1; // the root's head is the smallest
                while (stop < b.size && (time[stop] < bound || (time[stop] == bound && k < other))) {
                    stop++;
                }
            }
            if (all) {
                limit = writeRun(threads[k], b, i, stop, limit);
            } else {
                writeSelected(threads[k], b, i, stop);
            }
            pos[k] = stop;
            if (stop == b.size) {
                threads[k].lastTime = b.time[b.size - 1];
                if (refill(sources[k], batches, k)) {
                    taken += batches[k].count;
                    pos[k] = batches[k].start;
                } else {
                    heap[0] = heap[--size];
                }
            }
            down(heap, size, batches, pos);
        }
        return taken;
    }

    private static boolean refill(Source s, EventBuffer[] batches, int k) throws IOException {
        while (s.refill()) {
            batches[k] = s.block();
            if (batches[k].count > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the records {@code [from, to)} of one thread, all selected: runs between fragment
     * points straight from the columns. Returns the next fragment point after the cursor.
     */
    private long writeRun(ThreadState ts, EventBuffer b, int from, int to, long limit) throws IOException {
        long[] time = b.time;
        byte[] type = b.type;
        long[] counts = countByType;
        long key = ts.key;
        int run = from;
        for (int i = from; i < to; i++) {
            long t = time[i];
            if (!started) {
                started = true;
                cursor = t;
                limit = nextPoint(cursor);
            } else if (t >= limit) {
                writer.records(key, type, b.time, b.value, b.aux, run, i);
                run = i;
                cursor = fragmentsBefore(-1, true, cursor, t);
                limit = nextPoint(cursor);
            } else if (t > cursor) {
                cursor = t;
            }
            completeAux(b, i);
            counts[type[i]]++;
        }
        writer.records(key, type, b.time, b.value, b.aux, run, to);
        ts.used = true;
        return limit;
    }

    /** Writes the selected records of {@code [from, to)} of one thread, record by record. */
    private void writeSelected(ThreadState ts, EventBuffer b, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            if (selected(b, i)) {
                cursor = fragmentsBefore(-1, started, cursor, b.time[i]);
                started = true;
                ts.used = true;
                write(ts.key, b, i);
            }
        }
    }

    /** Heap order: head timestamp, then index (threads are in ascending key order). */
    private static boolean less(int a, int b, EventBuffer[] batches, int[] pos) {
        long ta = batches[a].time[pos[a]];
        long tb = batches[b].time[pos[b]];
        return ta < tb || (ta == tb && a < b);
    }

    private static void up(int[] heap, int i, EventBuffer[] batches, int[] pos) {
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!less(heap[i], heap[p], batches, pos)) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[p];
            heap[p] = t;
            i = p;
        }
    }

    private static void down(int[] heap, int size, EventBuffer[] batches, int[] pos) {
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int m = l + 1 < size && less(heap[l + 1], heap[l], batches, pos) ? l + 1 : l;
            if (!less(heap[m], heap[i], batches, pos)) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
    }
}
