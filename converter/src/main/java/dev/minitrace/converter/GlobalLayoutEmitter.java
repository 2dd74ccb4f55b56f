package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;

/**
 * The global logger layout: one stream ({@code 0xFFFFFFFF}), {@code aux} = thread id. A batch is
 * merged across threads by timestamp with a heap over the threads' heads, so each thread's own
 * order is kept even where its timestamps disagree with it; equal timestamps are broken by thread
 * id (then by the thread's own order).
 */
final class GlobalLayoutEmitter extends RecordEmitter {
    private boolean started;
    private long cursor;

    GlobalLayoutEmitter(MtlogWriter writer, GcTable gcs, long from, long to, int typeMask) {
        super(writer, gcs, from, to, typeMask);
    }

    @Override
    void emit(ThreadState[] threads, EventBuffer[] batches, int n) throws IOException {
        int[] heap = new int[n];
        int[] pos = new int[n];
        int size = 0;
        for (int k = 0; k < n; k++) {
            if (batches[k].count > 0) {
                pos[k] = batches[k].start;
                heap[size++] = k;
                up(heap, size - 1, batches, pos);
            }
        }
        while (size > 0) {
            int k = heap[0];
            EventBuffer b = batches[k];
            int i = pos[k]++;
            if (selected(b, i)) {
                cursor = fragmentsBefore(MtlogFormat.GLOBAL_STREAM_ID, started, cursor, b.time[i]);
                started = true;
                threads[k].used = true;
                write(MtlogFormat.GLOBAL_STREAM_ID, b.type[i], b.value[i], threads[k].streamId());
            }
            if (pos[k] == b.size) {
                heap[0] = heap[--size];
            }
            down(heap, size, batches, pos);
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
