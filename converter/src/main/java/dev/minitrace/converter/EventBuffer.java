package dev.minitrace.converter;

import dev.minitrace.converter.util.IndexSort;
import java.util.Arrays;

/**
 * A growable struct-of-arrays of one thread's pending records: type, ordering key (the minitrace
 * {@code sequence}), timestamp, value and aux, so that buffering an event allocates nothing.
 *
 * <p>A thread's sequence numbers are dense, so the buffer starts <em>placed</em>: each event goes
 * to the slot of its sequence's offset from the first one seen ({@code base}), whatever order the
 * events arrive in, and the events are in sequence order without a sort pass and without storing
 * the sequence. Slots no event filled (lost events) have type 0. An event that does not fit this
 * scheme (a repeated sequence, one far below or above the others) switches the buffer to
 * <em>appended</em> mode: the placed events are compacted in order, and from then on events are
 * appended with their sequence and sorted by {@link #normalize()}, stable, as before. Both modes
 * give the same order for distinct sequences; a repeated one keeps its arrival order.
 *
 * <p>Readers call {@link #normalize()} first; the entries are then at {@code [start, size)}
 * without empty slots, and {@link #seq(int)} gives their sequence.
 *
 * <p>The placed and appended modes are two representations of the same columns that switch into
 * each other in place; every operation (add, release, move, trim) keeps both modes' invariants.
 */
final class EventBuffer {
    /**
     * Slots allowed beyond twice the events held, so that a few lost events, or a thread's buffered
     * method records arriving after its later lock and allocation events, keep the buffer placed;
     * with it a placed buffer never spans more than {@code 2 × count + GAP_SLACK} slots (plus
     * {@link #SHIFT_HEADROOM} below its first one), so memory stays proportional to the events.
     */
    private static final int GAP_SLACK = 4096;
    /** At most this many events are moved up to make room for an event below the first slot. */
    private static final int SHIFT_LIMIT = 1 << 16;
    /** Room left below the first slot when the events are moved up. */
    private static final int SHIFT_HEADROOM = 64;

    byte[] type = new byte[64];
    /** The sequences, in appended mode only (not allocated while placed). */
    long[] seq = new long[0];
    long[] time = new long[64];
    long[] value = new long[64];
    int[] aux = new int[64];
    /** The entries are at {@code [start, size)} (placed mode: with empty slots of type 0 until normalized). */
    int start;
    int size;
    /** The number of events held. */
    int count;
    /** True while events are placed by sequence; false once appended. */
    boolean placed = true;
    /** Placed mode: the sequence of slot 0. */
    long base;
    /** Appended mode: the entries are in non-decreasing sequence order. */
    private boolean sorted = true;
    /** Where the capacity is counted, or null. */
    private final MemoryMeter meter;

    EventBuffer() {
        this(null);
    }

    EventBuffer(MemoryMeter meter) {
        this.meter = meter;
        resized(0);
    }

    /** The heap bytes of the columns last reported to the meter. */
    private long accounted;

    /** Reports the columns' size to the meter after they were replaced (the argument is unused). */
    private void resized(int unused) {
        if (meter != null) {
            long now = (long) type.length * MemoryMeter.BYTES_PER_SLOT + (long) seq.length * Long.BYTES;
            meter.add(now - accounted);
            accounted = now;
        }
    }

    void add(int t, long s, long ts, long v, int a) {
        if (placed) {
            if (count == 0) {
                base = s;
                start = 0;
                size = 0;
            }
            long off = s - base;
            if (off >= start && off < size) {
                int i = (int) off;
                if (type[i] == 0) {
                    put(i, t, ts, v, a);
                    count++;
                    return;
                }
                // a repeated sequence: the stable sort keeps arrival order
            } else if (off >= size && off - start < 2L * count + GAP_SLACK) {
                if (off >= type.length && start >= type.length >> 2) {
                    // the slots below start were written already: reuse them before growing, or a
                    // buffer that is never empty (records always waiting) grows without bound
                    slideDown();
                    off = s - base;
                }
                int i = (int) off;
                if (i >= type.length) {
                    grow(i + 1);
                }
                for (int k = size; k < i; k++) {
                    type[k] = 0;
                }
                put(i, t, ts, v, a);
                size = i + 1;
                count++;
                return;
            } else if (off < start && off >= 0) {
                int i = (int) off;
                for (int k = i + 1; k < start; k++) {
                    type[k] = 0;
                }
                put(i, t, ts, v, a);
                start = i;
                count++;
                return;
            } else if (off < 0 && (count <= SHIFT_LIMIT || -off <= GAP_SLACK) && (size - start) - off < 2L * count + GAP_SLACK) {
                // A large buffer moves only for an event a short way below it (a late method
                // record), and then with room for more like it, so moves stay rare.
                shiftUp((int) -off + (count <= SHIFT_LIMIT ? SHIFT_HEADROOM : GAP_SLACK));
                add(t, s, ts, v, a);
                return;
            }
            toAppended();
        }
        append(t, s, ts, v, a);
    }

    /**
     * Adds, as {@link #add} would one at a time, the records {@code k < n} (type, sequence and aux at
     * {@code from + k}, time and value at {@code at + k}) while they are placed at this buffer's end
     * in sequence order, the common case of a thread's records read in order; returns how many it
     * added (the rest take {@link #add}).
     */
    int addRun(int[] types, long[] seqs, int[] auxes, int from, long[] times, long[] values, int at, int n) {
        if (!placed || n == 0) {
            return 0;
        }
        if (count == 0) {
            base = seqs[from];
            start = 0;
            size = 0;
        }
        int k = 0;
        while (k < n) {
            // in add's terms: each record is at off == size, within 2 × count + GAP_SLACK of start
            if (seqs[from + k] - base != size || (long) size - start >= 2L * count + GAP_SLACK) {
                return k;
            }
            if (size == type.length) {
                if (start >= type.length >> 2) {
                    slideDown();
                } else {
                    grow(size + 1);
                }
            }
            int end = Math.min(n, k + type.length - size);
            int s = size;
            long expect = seqs[from + k] - k;
            int i = k;
            for (; i < end; i++, s++) {
                if (seqs[from + i] != expect + i) {
                    break;
                }
                type[s] = (byte) types[from + i];
                time[s] = times[at + i];
                value[s] = values[at + i];
                aux[s] = auxes[from + i];
            }
            count += i - k;
            size = s;
            k = i;
            if (i < end) {
                return k;
            }
        }
        return k;
    }

    private void put(int i, int t, long ts, long v, int a) {
        type[i] = (byte) t;
        time[i] = ts;
        value[i] = v;
        aux[i] = a;
    }

    /** Placed mode: moves the slots {@code [start, size)} to slot 0. */
    private void slideDown() {
        int n = size - start;
        System.arraycopy(type, start, type, 0, n);
        System.arraycopy(time, start, time, 0, n);
        System.arraycopy(value, start, value, 0, n);
        System.arraycopy(aux, start, aux, 0, n);
        base += start;
        size = n;
        start = 0;
    }

    /** Placed mode: moves the slots up by {@code d}, so that sequences down to {@code base - d} fit. */
    private void shiftUp(int d) {
        if (size + d > type.length) {
            grow(size + d);
        }
        int n = size - start;
        System.arraycopy(type, start, type, start + d, n);
        System.arraycopy(time, start, time, start + d, n);
        System.arraycopy(value, start, value, start + d, n);
        System.arraycopy(aux, start, aux, start + d, n);
        start += d;
        size += d;
        base -= d;
    }

    private void append(int t, long s, long ts, long v, int a) {
        if (size == type.length) {
            grow(size + 1);
        }
        if (size > 0 && s < seq[size - 1]) {
            sorted = false;
        }
        seq[size] = s;
        put(size, t, ts, v, a);
        size++;
        count++;
    }

    private void grow(int min) {
        int old = type.length;
        int n = Math.max(min, type.length + (type.length >> 1));
        type = Arrays.copyOf(type, n);
        if (!placed) {
            seq = Arrays.copyOf(seq, n);
        }
        time = Arrays.copyOf(time, n);
        value = Arrays.copyOf(value, n);
        aux = Arrays.copyOf(aux, n);
        resized(old);
    }

    /** Placed to appended: the events are compacted to {@code [0, count)} in order, with their sequences. */
    private void toAppended() {
        if (seq.length < type.length) {
            seq = new long[type.length];
            resized(0);
        }
        int j = 0;
        for (int i = start; i < size; i++) {
            if (type[i] != 0) {
                type[j] = type[i];
                seq[j] = base + i;
                time[j] = time[i];
                value[j] = value[i];
                aux[j] = aux[i];
                j++;
            }
        }
        start = 0;
        size = j;
        placed = false;
        sorted = true;
    }

    /** The sequence of the entry at {@code i} (after {@link #normalize()}). */
    long seq(int i) {
        return placed ? base + i : seq[i];
    }

    /**
     * Puts the entries in sequence order at {@code [start, size)} with no empty slot: nothing to do
     * for placed events without gaps; placed ones with gaps are compacted; appended ones are
     * sorted, stable, unless they arrived in order.
     */
    void normalize() {
        if (placed) {
            if (count != size - start) {
                toAppended();
            }
            return;
        }
        if (sorted) {
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
        sorted = true;
    }

    /** Moves the first {@code n} events (in sequence order) into a new buffer and keeps the rest here. */
    EventBuffer splitHead(int n) {
        if (placed) {
            toAppended();
        }
        normalize();
        EventBuffer head = new EventBuffer();
        int cap = Math.max(n, 1);
        head.placed = false;
        head.type = Arrays.copyOf(type, cap);
        head.seq = Arrays.copyOf(seq, cap);
        head.time = Arrays.copyOf(time, cap);
        head.value = Arrays.copyOf(value, cap);
        head.aux = Arrays.copyOf(aux, cap);
        head.size = n;
        head.count = n;
        int rest = size - n;
        System.arraycopy(type, n, type, 0, rest);
        System.arraycopy(seq, n, seq, 0, rest);
        System.arraycopy(time, n, time, 0, rest);
        System.arraycopy(value, n, value, 0, rest);
        System.arraycopy(aux, n, aux, 0, rest);
        size = rest;
        count = rest;
        return head;
    }

    /** The highest sequence held; {@code Long.MIN_VALUE} when empty. */
    long maxSeq() {
        if (count == 0) {
            return Long.MIN_VALUE;
        }
        if (placed) {
            return base + size - 1; // the last slot is always filled
        }
        normalize();
        return seq[size - 1];
    }

    /**
     * Moves the events whose sequence is below {@code limit} into {@code into} (they arrived one
     * chunk late: a thread's buffered method records are committed after the thread's later lock
     * and allocation events) and returns how many moved.
     */
    int moveBelow(long limit, EventBuffer into) {
        if (count == 0) {
            return 0;
        }
        if (placed) {
            // In slot order, skipping empty slots; the rest stays placed where it is.
            int moved = 0;
            int i = start;
            for (; i < size && base + i < limit; i++) {
                if (type[i] != 0) {
                    into.add(type[i], base + i, time[i], value[i], aux[i]);
                    moved++;
                }
            }
            count -= moved;
            while (i < size && type[i] == 0) {
                i++; // the first slot must hold an event (a later one may still fill those below)
            }
            start = i;
            if (count == 0) {
                start = 0;
                size = 0;
            }
            return moved;
        }
        normalize();
        int n = 0;
        while (n < size - start && seq(start + n) < limit) {
            n++;
        }
        if (n == 0) {
            return 0;
        }
        EventBuffer head = splitHead(n);
        for (int i = 0; i < head.size; i++) {
            into.add(head.type[i], head.seq[i], head.time[i], head.value[i], head.aux[i]);
        }
        return n;
    }

    /**
     * The number of entries from {@code start} that may be written now: those that continue the
     * thread's sequence from {@code next} without a gap (an entry below {@code next} repeats a
     * sequence and goes too), up to the first whose time is {@code timeLimit} or later.
     * Normalizes the buffer if it has to.
     */
    int releasable(long next, long timeLimit) {
        if (count == 0) {
            return 0;
        }
        if (placed && base + start > next) {
            return 0;
        }
        if (placed) {
            int i = start;
            while (i < size && type[i] != 0 && time[i] < timeLimit) {
                i++;
            }
            return i - start;
        }
        normalize();
        long expect = next;
        int i = start;
        while (i < size && seq[i] <= expect && time[i] < timeLimit) {
            if (seq[i] == expect) {
                expect++;
            }
            i++;
        }
        return i - start;
    }

    /**
     * Moves the first {@code n} entries from {@code start}, which {@link #releasable} counted (so a
     * placed buffer has no empty slot among them), into {@code into}, which must be empty and keeps
     * its columns when they are large enough: the batches a thread hands over at each chunk end
     * reuse one buffer instead of allocating a chunk's worth of columns every time.
     */
    void moveHead(int n, EventBuffer into) {
        if (!placed) {
            normalize();
        }
        into.ensureEmptyCapacity(n, !placed);
        System.arraycopy(type, start, into.type, 0, n);
        System.arraycopy(time, start, into.time, 0, n);
        System.arraycopy(value, start, into.value, 0, n);
        System.arraycopy(aux, start, into.aux, 0, n);
        into.placed = placed;
        if (placed) {
            into.base = base + start;
        } else {
            System.arraycopy(seq, start, into.seq, 0, n);
            into.sorted = true;
        }
        into.start = 0;
        into.size = n;
        into.count = n;
        dropHead(n);
    }

    /** An empty buffer with room for {@code n} entries (and their sequences when {@code withSeq}). */
    private void ensureEmptyCapacity(int n, boolean withSeq) {
        start = 0;
        size = 0;
        count = 0;
        if (type.length < n) {
            reallocate(n);
        }
        if (withSeq && seq.length < type.length) {
            seq = new long[type.length];
            resized(0);
        }
    }

    /** The lowest sequence held (count > 0). */
    long minSeq() {
        if (placed) {
            return base + start; // the first slot always holds an event
        }
        normalize();
        return seq[start];
    }

    /** Drops the first {@code n} entries from {@code start} (normalized). */
    void dropHead(int n) {
        if (n == 0) {
            return;
        }
        if (n >= count) {
            clear();
            return;
        }
        if (placed) {
            int i = start + n;
            while (i < size && type[i] == 0) {
                i++;
            }
            start = i;
            count -= n;
            return;
        }
        // appended: compact, since normalize() sorts from slot 0
        int from = start + n;
        int rest = size - from;
        System.arraycopy(type, from, type, 0, rest);
        System.arraycopy(seq, from, seq, 0, rest);
        System.arraycopy(time, from, time, 0, rest);
        System.arraycopy(value, from, value, 0, rest);
        System.arraycopy(aux, from, aux, 0, rest);
        start = 0;
        size = rest;
        count = rest;
    }

    /** Empties the buffer and lets a large one go, so that a spilled thread's memory is given back. */
    void release() {
        clear();
        if (type.length > 1024) {
            reallocate(64);
        }
    }

    /** Shrinks the columns to the entries held plus an eighth: memory is short and this buffer has more. */
    void trim() {
        if (placed) {
            slideDown();
        } else {
            normalize();
        }
        int n = size; // from slot 0 now: placed entries were slid down, appended ones always start there
        int capacity = n + (n >> 3) + 64;
        if (capacity >= type.length - (type.length >> 3)) {
            return;
        }
        type = Arrays.copyOf(type, capacity);
        time = Arrays.copyOf(time, capacity);
        value = Arrays.copyOf(value, capacity);
        aux = Arrays.copyOf(aux, capacity);
        seq = placed ? new long[0] : Arrays.copyOf(seq, capacity);
        resized(0);
    }

    /** Empties the buffer and keeps its columns, for a buffer that is filled again soon (a thread's batch). */
    void empty() {
        start = 0;
        size = 0;
        count = 0;
        placed = true;
        sorted = true;
    }

    /**
     * Empties the buffer, and gives back memory a burst made it take: an empty buffer keeps at most
     * {@link #KEPT_CAPACITY} entries (2.4 MB), counted by its {@link MemoryMeter} all the same.
     */
    void clear() {
        start = 0;
        size = 0;
        count = 0;
        placed = true;
        sorted = true;
        if (type.length > KEPT_CAPACITY) {
            reallocate(KEPT_CAPACITY);
        }
    }

    /** Replaces the (empty) columns with new ones of {@code capacity} slots; the sequence column comes when needed. */
    private void reallocate(int capacity) {
        type = new byte[capacity];
        seq = new long[0];
        time = new long[capacity];
        value = new long[capacity];
        aux = new int[capacity];
        resized(0);
    }

    /** Capacity an emptied buffer keeps (a typical thread's share of a chunk fits). */
    static final int KEPT_CAPACITY = 1 << 16;
}
