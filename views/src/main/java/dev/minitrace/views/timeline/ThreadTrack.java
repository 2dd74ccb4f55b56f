package dev.minitrace.views.timeline;

import dev.minitrace.converter.calls.CallModel;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.LongRows;
import java.io.IOException;

/**
 * One thread's track of the timeline: the calls and monitor holds of the thread's
 * {@link CallModel}, fed the thread's records in its exact order with laid-out times, as properly
 * nested slices. Calls and holds share one stack of slices, so a monitor held inside a call is a
 * slice inside the call's slice. The model says which calls and holds there are and how they end
 * (docs/query.md, "What a trace lacks"); the track only keeps the slices nested: a call's end first
 * ends the slices of the holds still open above it (their release, if it comes, shows nothing more);
 * a release while calls opened after the acquire are still running ends the hold's slice as soon as
 * those have ended. A call without entry (a hold without acquire) begins at the window's start when
 * no slice is open, else it is an instant at its exit inside the open slices. Each such slice says
 * so in its arguments.
 *
 * <p>After the {@code --max-events} cut no slice begins, but the slices already open still end at
 * their real end, so the calls that are shown are whole.
 */
final class ThreadTrack implements TickGroup.Sink, CallModel.Listener<IOException> {
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
    /** On a begin: no entry (acquire) record, and slices were open: shown as an instant at its exit (release). */
    static final int BEGIN_AT_END = 5;

    private static final int METHOD = 0;
    private static final int LOCK = 1;

    final long key;
    final TickGroup ticks = new TickGroup();
    private final EventSpool spool;
    private final Cut cut;
    private final CallModel<IOException> model = new CallModel<>(this);

    // The open slices, outermost first: kind, method or monitor, bci, begun after the cut (1), the
    // hold's acquire seq (locks), and whether the hold was released while calls above it ran (1).
    private static final int KIND = 0, VALUE = 1, AUX = 2, DROPPED = 3, HOLD_SEQ = 4, RELEASED = 5;
    private final LongRows slices = new LongRows(6, 32);

    /** The display time of the record being handled. */
    private long now;
    /** Whether that record comes after the cut. */
    private boolean after;
    /** Its record type. */
    private int type;
    /** How the calls and holds still open at {@link #endAll} end. */
    private int finishKind = END_RECORDING;

    /**
     * Frames begun before the records start (an exit or release without its entry or acquire, with no
     * slice open), in the order found: innermost first. They begin at the start of the window,
     * outermost first.
     */
    private final LongRows early = new LongRows(3, 1);

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
    public void record(int t, long v, int a, long time) throws IOException {
        now = time;
        after = time > cut.time;
        type = t;
        if (t == MtlogFormat.OBJECT_ALLOC) {
            if (after) {
                cut.dropped[t]++;
            } else {
                emit(ALLOC, 0, time, v, a);
            }
        }
        model.record(t, v, a, time);
    }

    @Override
    public void enter(int frame, long seq, long method, long time) throws IOException {
        open(METHOD, method, 0, CallModel.NONE);
    }

    @Override
    public void acquire(int hold, boolean reentered) throws IOException {
        open(LOCK, model.holdObject(hold), model.holdBci(hold), model.holdSeq(hold));
    }

    private void open(int k, long v, int a, long seq) throws IOException {
        int i = slices.add();
        slices.set(i, KIND, k);
        slices.set(i, VALUE, v);
        slices.set(i, AUX, a);
        slices.set(i, DROPPED, after ? 1 : 0);
        slices.set(i, HOLD_SEQ, seq);
        if (after) {
            cut.dropped[type]++;
        } else {
            emit(k == METHOD ? BEGIN : LOCK_BEGIN, 0, now, v, a);
        }
    }

    @Override
    public void exit(int frame, int how, long seq, int bci, long time, long duration, long self) throws IOException {
        int i = slices.size() - 1;
        while (slices.get(i, KIND) != METHOD) {
            i--;
        }
        // holds still open above the call end with it, on the track; the model keeps them open
        int endKind = switch (how) {
            case CallModel.RETURNED -> END_RETURN;
            case CallModel.THREW -> END_EXCEPTION;
            case CallModel.EXIT_LOST -> END_NO_RECORD;
            default -> finishKind;
        };
        endAbove(i + 1, how == CallModel.OPEN ? finishKind : END_NO_RECORD);
        if (dropped(i)) {
            if (how == CallModel.RETURNED || how == CallModel.THREW) {
                cut.dropped[type]++;
            }
        } else {
            emit(END, endKind, now, slices.get(i, VALUE), (int) slices.get(i, AUX));
        }
        slices.truncate(i);
        endReleased();
    }

    @Override
    public void release(int hold, boolean byRecord, long seq, int bci, long time, boolean reentered) throws IOException {
        long s = model.holdSeq(hold);
        int i = slices.size() - 1;
        while (i >= 0 && (slices.get(i, KIND) != LOCK || slices.get(i, HOLD_SEQ) != s)) {
            i--;
        }
        if (i < 0) {
            return; // its slice ended with a call it was held in
        }
        slices.set(i, RELEASED, 1);
        if (byRecord && dropped(i)) {
            cut.dropped[type]++;
        }
        endReleased();
    }

    /** Ends the slices of released holds on top of the stack. */
    private void endReleased() throws IOException {
        int top;
        while ((top = slices.size() - 1) >= 0 && slices.get(top, KIND) == LOCK && slices.get(top, RELEASED) != 0) {
            if (!dropped(top)) {
                emit(LOCK_END, type == MtlogFormat.LOCK_RELEASE || type == MtlogFormat.METHOD_EXIT ? END_RETURN : finishKind, now,
                        slices.get(top, VALUE), (int) slices.get(top, AUX));
            }
            slices.truncate(top);
        }
    }

    /** Whether open slice {@code i} begun after the cut (so it is not shown). */
    private boolean dropped(int i) {
        return slices.get(i, DROPPED) != 0;
    }

    @Override
    public void exitWithoutEntry(long method, int how, long seq, int bci, long time, int d) throws IOException {
        withoutBegin(METHOD, method, 0, how == CallModel.THREW ? END_EXCEPTION : END_RETURN);
    }

    @Override
    public void releaseWithoutAcquire(long object, long seq, int bci, long time) throws IOException {
        withoutBegin(LOCK, object, 0, END_RETURN);
    }

    /** An end whose begin is not in the records: a slice from the window's start, or an instant inside the open slices. */
    private void withoutBegin(int k, long v, int a, int endKind) throws IOException {
        if (after) {
            cut.dropped[type]++;
            return;
        }
        if (slices.size() == 0) {
            int e = early.add();
            early.set(e, KIND, k);
            early.set(e, VALUE, v);
            early.set(e, AUX, a);
        } else {
            emit(k == METHOD ? BEGIN : LOCK_BEGIN, BEGIN_AT_END, now, v, a);
        }
        emit(k == METHOD ? END : LOCK_END, endKind, now, v, a);
    }

    /** Ends the slices at depth {@code from} and above, innermost first, now. */
    private void endAbove(int from, int endKind) throws IOException {
        for (int j = slices.size() - 1; j >= from; j--) {
            if (!dropped(j)) {
                emit(slices.get(j, KIND) == METHOD ? END : LOCK_END, endKind, now, slices.get(j, VALUE), (int) slices.get(j, AUX));
            }
        }
        slices.truncate(Math.min(slices.size(), from));
    }

    /** Ends every open call and hold at {@code time}, for the reason {@code endKind}. */
    void endAll(long time, int endKind) throws IOException {
        now = Math.max(time, ticks.last() + 1);
        after = false;
        type = -1;
        finishKind = endKind;
        model.finish();
        endAbove(0, endKind);
    }

    private void emit(int eventKind, int endKind, long time, long v, int a) throws IOException {
        spool.add(eventKind, endKind, key, time, v, a);
        if (cut.time == Long.MAX_VALUE && spool.count() >= cut.maxEvents) {
            cut.time = time;
        }
    }

    /** The frames begun before the records, outermost first, for {@link EventSpool.Visitor}. */
    void visitEarly(long time, EventSpool.Visitor visitor) throws IOException {
        for (int i = early.size() - 1; i >= 0; i--) {
            visitor.event(early.get(i, KIND) == METHOD ? BEGIN : LOCK_BEGIN, END_NO_RECORD, key, time, early.get(i, VALUE),
                    (int) early.get(i, AUX));
        }
    }

    /** Number of frames begun before the records. */
    int earlyCount() {
        return early.size();
    }
}
