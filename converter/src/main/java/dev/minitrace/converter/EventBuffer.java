package dev.minitrace.converter;

import dev.minitrace.converter.util.IndexSort;
import java.util.Arrays;

/**
 * A growable struct-of-arrays of one thread's pending records: type, ordering key (the minitrace
 * {@code sequence}), timestamp, value and aux, so that buffering an event allocates nothing.
 */
final class EventBuffer {
    byte[] type = new byte[64];
    long[] seq = new long[64];
    long[] time = new long[64];
    long[] value = new long[64];
    int[] aux = new int[64];
    int size;

    void add(int t, long s, long ts, long v, int a) {
        if (size == seq.length) {
            int n = size + (size >> 1);
            type = Arrays.copyOf(type, n);
            seq = Arrays.copyOf(seq, n);
            time = Arrays.copyOf(time, n);
            value = Arrays.copyOf(value, n);
            aux = Arrays.copyOf(aux, n);
        }
        type[size] = (byte) t;
        seq[size] = s;
        time[size] = ts;
        value[size] = v;
        aux[size] = a;
        size++;
    }

    /** Sorts by {@code seq}, stable; a no-op for the common case of events already in order. */
    void sortBySequence() {
        if (IndexSort.isSorted(seq, size)) {
            return;
        }
        int[] order = IndexSort.byDenseKey(seq, size);
        long[] ls = new long[size];
        IndexSort.permute(seq, order, size, ls);
        IndexSort.permute(time, order, size, ls);
        IndexSort.permute(value, order, size, ls);
        IndexSort.permute(aux, order, size, new int[size]);
        byte[] t = new byte[size];
        for (int i = 0; i < size; i++) {
            t[i] = type[order[i]];
        }
        System.arraycopy(t, 0, type, 0, size);
    }

    /** Moves the first {@code n} events into a new buffer and keeps the rest here. */
    EventBuffer splitHead(int n) {
        EventBuffer head = new EventBuffer();
        head.type = Arrays.copyOf(type, Math.max(n, 1));
        head.seq = Arrays.copyOf(seq, Math.max(n, 1));
        head.time = Arrays.copyOf(time, Math.max(n, 1));
        head.value = Arrays.copyOf(value, Math.max(n, 1));
        head.aux = Arrays.copyOf(aux, Math.max(n, 1));
        head.size = n;
        int rest = size - n;
        System.arraycopy(type, n, type, 0, rest);
        System.arraycopy(seq, n, seq, 0, rest);
        System.arraycopy(time, n, time, 0, rest);
        System.arraycopy(value, n, value, 0, rest);
        System.arraycopy(aux, n, aux, 0, rest);
        size = rest;
        return head;
    }

    /**
     * Empties the buffer, and gives back memory a burst made it take: an empty buffer keeps at most
     * {@link #KEPT_CAPACITY} entries (7.5 MB), since each thread has three buffers and an empty
     * one's memory is not counted by the pending-event bound.
     */
    void clear() {
        size = 0;
        if (seq.length > KEPT_CAPACITY) {
            type = new byte[KEPT_CAPACITY];
            seq = new long[KEPT_CAPACITY];
            time = new long[KEPT_CAPACITY];
            value = new long[KEPT_CAPACITY];
            aux = new int[KEPT_CAPACITY];
        }
    }

    /** Capacity an emptied buffer keeps (a typical thread's share of a chunk fits). */
    static final int KEPT_CAPACITY = 1 << 18;
}
