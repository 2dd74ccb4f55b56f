package dev.minitrace.views.timeline;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.IOException;
import java.util.Arrays;

/**
 * One thread's track of the timeline: turns the thread's records, in its exact order and with
 * laid-out times, into properly nested slices. Calls and monitor holds share one stack, so a
 * monitor held inside a call is a slice inside the call's slice. Whatever the records, the slices
 * nest: an exit whose entry is missing (the call began before the recording or the window) gets a
 * begin at the start; an exit that skips frames (their exit records are missing) first ends those
 * frames; what is open at the end ends at the end. Each such slice says so in its arguments.
 *
 * <p>After the {@code --max-events} cut no slice begins, but the slices already open still end at
 * their real end, so the calls that are shown are whole.
 */
final class ThreadTrack implements TickGroup.Sink {
    static final int BEGIN = 1;
    static final int END = 2;
    static final int LOCK_BEGIN = 3;
    static final int LOCK_END = 4;
    static final int ALLOC = 5;
    static final int FRAGMENT = 6;

    /** A call that returned. */
    static final int END_RETURN = 0;
    /** A call left by an exception. */
    static final int END_EXCEPTION = 1;
    /** Still open when the recording ended. */
    static final int END_RECORDING = 2;
    /** Still open at the end of the time window. */
    static final int END_WINDOW = 3;
    /** No exit (release) record: ended where an enclosing frame ended. */
    static final int END_NO_RECORD = 4;

    private static final byte METHOD = 0;
    private static final byte LOCK = 1;

    final long key;
    final TickGroup ticks = new TickGroup();
    private final EventSpool spool;
    private final Cut cut;

    private byte[] kind = new byte[32];
    private long[] value = new long[32];
    private int[] aux = new int[32];
    private boolean[] dropped = new boolean[32];
    private int depth;

    /**
     * Frames begun before the records start (an exit or release without its entry or acquire), in
     * the order found: innermost first. They begin at the start of the window, outermost first.
     */
    private byte[] earlyKind = new byte[0];
    private long[] earlyValue = new long[0];
    private int[] earlyAux = new int[0];
    private int early;

    /** The {@code --max-events} cut shared by all tracks. */
    static final class Cut {
        final long maxEvents;
        /** Display time of the event that reached the cap, or {@link Long#MAX_VALUE} before. */
        long time = Long.MAX_VALUE;
        /** Records not shown because of the cut, by record type. */
        final long[] dropped = new long[MtlogFormat.MAX_TYPE + 1];

        Cut(long maxEvents) {
            this.maxEvents = maxEvents;
        }
    }

    ThreadTrack(long key, EventSpool spool, Cut cut) {
        this.key = key;
        this.spool = spool;
        this.cut = cut;
    }

    @Override
    public void record(int type, long v, int a, long time) throws IOException {
        boolean after = time > cut.time;
        switch (type) {
            case MtlogFormat.METHOD_ENTRY -> open(METHOD, v, 0, time, after, type);
            case MtlogFormat.LOCK_ACQUIRE -> open(LOCK, v, a, time, after, type);
            case MtlogFormat.METHOD_EXIT -> close(METHOD, v, a == 0 ? END_EXCEPTION : END_RETURN, time, after, type);
            case MtlogFormat.LOCK_RELEASE -> close(LOCK, v, END_RETURN, time, after, type);
            case MtlogFormat.OBJECT_ALLOC -> {
                if (after) {
                    cut.dropped[type]++;
                } else {
                    emit(ALLOC, 0, time, v, a);
                }
            }
            default -> {
                // GC_TIMESTAMP and unknown types never come through records()
            }
        }
    }

    private void open(byte k, long v, int a, long time, boolean after, int type) throws IOException {
        if (depth == kind.length) {
            int n = depth * 2;
            kind = Arrays.copyOf(kind, n);
            value = Arrays.copyOf(value, n);
            aux = Arrays.copyOf(aux, n);
            dropped = Arrays.copyOf(dropped, n);
        }
        kind[depth] = k;
        value[depth] = v;
        aux[depth] = a;
        dropped[depth] = after;
        depth++;
        if (after) {
            cut.dropped[type]++;
        } else {
            emit(k == METHOD ? BEGIN : LOCK_BEGIN, 0, time, v, a);
        }
    }

    private void close(byte k, long v, int endKind, long time, boolean after, int type) throws IOException {
        int i = depth - 1;
        while (i >= 0 && (kind[i] != k || value[i] != v)) {
            i--;
        }
        endAbove(i + 1, time, END_NO_RECORD);
        if (i < 0) {
            if (after) {
                cut.dropped[type]++;
                return;
            }
            // began before the records: a begin at the start, this end now
            addEarly(k, v, 0);
            emit(k == METHOD ? END : LOCK_END, endKind, time, v, 0);
            return;
        }
        depth = i;
        if (dropped[i]) {
            cut.dropped[type]++;
        } else {
            emit(k == METHOD ? END : LOCK_END, endKind, time, v, aux[i]);
        }
    }

    /** Ends the frames at depth {@code from} and above, innermost first, at {@code time}. */
    private void endAbove(int from, long time, int endKind) throws IOException {
        for (int j = depth - 1; j >= from; j--) {
            if (!dropped[j]) {
                emit(kind[j] == METHOD ? END : LOCK_END, endKind, time, value[j], aux[j]);
            }
        }
        depth = Math.min(depth, from);
    }

    /** Ends every open frame at {@code time}, for the reason {@code endKind}. */
    void endAll(long time, int endKind) throws IOException {
        endAbove(0, Math.max(time, ticks.last() + 1), endKind);
    }

    private void addEarly(byte k, long v, int a) {
        if (early == earlyKind.length) {
            int n = Math.max(8, early * 2);
            earlyKind = Arrays.copyOf(earlyKind, n);
            earlyValue = Arrays.copyOf(earlyValue, n);
            earlyAux = Arrays.copyOf(earlyAux, n);
        }
        earlyKind[early] = k;
        earlyValue[early] = v;
        earlyAux[early] = a;
        early++;
    }

    private void emit(int eventKind, int endKind, long time, long v, int a) throws IOException {
        spool.add(eventKind, endKind, key, time, v, a);
        if (cut.time == Long.MAX_VALUE && spool.count() >= cut.maxEvents) {
            cut.time = time;
        }
    }

    /** The frames begun before the records, outermost first, for {@link EventSpool.Visitor}. */
    void visitEarly(long time, EventSpool.Visitor visitor) throws IOException {
        for (int i = early - 1; i >= 0; i--) {
            visitor.event(earlyKind[i] == METHOD ? BEGIN : LOCK_BEGIN, END_NO_RECORD, key, time, earlyValue[i], earlyAux[i]);
        }
    }

    /** Number of frames begun before the records. */
    int earlyCount() {
        return early;
    }
}
