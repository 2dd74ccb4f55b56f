package dev.minitrace.converter.calls;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.LongRows;

/**
 * One thread's calls and monitor holds, rebuilt from the thread's records in their exact order
 * ({@link dev.minitrace.converter.write.TraceWriter.Order#THREAD}, or a thread's own order within
 * {@link dev.minitrace.converter.write.TraceWriter.Order#TIME}). Every view that shows calls — the
 * report, the timeline, the Parquet tables, {@code mt print --tree} — is a {@link Listener} of this
 * class, so they agree on what a trace lacks (docs/query.md, "What a trace lacks"):
 * <ul>
 *   <li>an exit whose method has no open call (the call began before the trace) is a call without
 *   entry: inside the innermost open call, or, with none open, one level above the outermost call
 *   seen so far (depth -1, then -2, ...); its caller's self time is unknown;</li>
 *   <li>an exit that matches an open call further down the stack (records were lost) first ends the
 *   calls above that one, innermost first, {@link #EXIT_LOST}: they have no exit, no duration, and
 *   their callers no self time;</li>
 *   <li>a call still open when the trace ends is {@link #OPEN}: no exit, no duration;</li>
 *   <li>a release matches the latest open acquire of the same object; a monitor acquired while the
 *   thread already holds it is re-entered (told to the listener, which decides what a hold is); a
 *   release without acquire, and a hold still open at the end, have the missing side unknown;
 *   monitors never end calls and calls never end holds;</li>
 *   <li>records before the first entry belong to no call ({@link #calls()} is 0).</li>
 * </ul>
 * An exit by exception is an exit record with bytecode index 0 ({@code .mtlog} format); a source
 * that does not know it passes any other value. Times are ns (any origin) or {@link #NONE}.
 *
 * <p>Per record only table cells are written: the stacks are {@link LongRows}, reused.
 *
 * @param <X> what the listener may throw ({@link RuntimeException} for none)
 */
public final class CallModel<X extends Exception> {
    /** A missing sequence number, time, duration or id. */
    public static final long NONE = Long.MIN_VALUE;

    /** A call ended by its exit record. */
    public static final int RETURNED = 0;
    /** A call ended by its exit record, by exception. */
    public static final int THREW = 1;
    /** A call whose exit is not in the trace, ended by the exit of a call below it. */
    public static final int EXIT_LOST = 2;
    /** A call still open when the trace ended. */
    public static final int OPEN = 3;

    /**
     * What the model finds, as it finds it. In every callback the model's accessors still describe
     * the frame or hold in question (it is popped after the callback).
     */
    public interface Listener<X extends Exception> {
        /** Call {@code frame} (0 is the outermost open one) of {@code method} began at record {@code seq}. */
        void enter(int frame, long seq, long method, long time) throws X;

        /**
         * Call {@code frame}, the innermost open one, ended: {@code end} says how; {@code seq},
         * {@code bci} and {@code time} are its exit record's ({@link #NONE} and
         * {@link Integer#MIN_VALUE} for {@link #EXIT_LOST} and {@link #OPEN}); {@code duration}
         * and {@code self} are {@link #NONE} when unknown.
         */
        void exit(int frame, int end, long seq, int bci, long time, long duration, long self) throws X;

        /**
         * An exit of {@code method} whose entry is not in the trace: a call at {@code depth}, inside
         * the innermost open call ({@link #calls()} &gt; 0) or outermost.
         */
        void exitWithoutEntry(long method, int end, long seq, int bci, long time, int depth) throws X;

        /** Hold {@code hold} (the newest) began; {@code reentered}: the thread held the monitor already. */
        default void acquire(int hold, boolean reentered) throws X {
        }

        /**
         * Hold {@code hold} ended by its release record ({@code released}) or open at the end
         * ({@code seq}, {@code time} {@link #NONE}); {@code reentered}: the thread still holds the
         * monitor by an earlier acquire.
         */
        default void release(int hold, boolean released, long seq, int bci, long time, boolean reentered) throws X {
        }

        /** A release of {@code object} without its acquire in the trace. */
        default void releaseWithoutAcquire(long object, long seq, int bci, long time) throws X {
        }
    }

    private final Listener<X> listener;
    private long seq;

    // Open calls, outermost first; CHILDREN is the sum of the ended children's durations, NONE once
    // one of them has none.
    private static final int C_SEQ = 0, C_METHOD = 1, C_ENTRY = 2, C_CHILDREN = 3, C_DEPTH = 4;
    private final LongRows calls = new LongRows(5, 16);
    /** The depth of the next call entered with no call open: below 0 after exits without entry. */
    private int base;

    // Open holds, in acquire order.
    private static final int H_SEQ = 0, H_OBJECT = 1, H_TIME = 2, H_BCI = 3, H_CALL = 4, H_METHOD = 5;
    private final LongRows holds = new LongRows(6, 8);

    public CallModel(Listener<X> listener) {
        this.listener = listener;
    }

    /**
     * The thread's next record (every record but GC points, which are not the thread's own).
     * {@code value} is a method id or object id, {@code aux} the bytecode index.
     *
     * @return for an exit, the entry seq of the call it ended ({@link #NONE}: no entry); else the
     *     record's own seq
     */
    public long record(int type, long value, int aux, long time) throws X {
        long s = ++seq;
        switch (type) {
            case MtlogFormat.METHOD_ENTRY -> enter(s, value, time);
            case MtlogFormat.METHOD_EXIT -> {
                return exit(s, value, aux, time);
            }
            case MtlogFormat.LOCK_ACQUIRE -> acquire(s, value, time, aux);
            case MtlogFormat.LOCK_RELEASE -> release(s, value, time, aux);
            default -> {
                // not a call or a monitor: the caller reads the running call from calls()/callSeq()
            }
        }
        return s;
    }

    private void enter(long s, long method, long time) throws X {
        int k = calls.append();
        calls.set(k, C_DEPTH, k > 0 ? calls.get(k - 1, C_DEPTH) + 1 : base);
        calls.set(k, C_SEQ, s);
        calls.set(k, C_METHOD, method);
        calls.set(k, C_ENTRY, time);
        calls.set(k, C_CHILDREN, 0);
        listener.enter(k, s, method, time);
    }

    private long exit(long s, long method, int bci, long time) throws X {
        int end = bci == 0 ? THREW : RETURNED;
        int open = calls.size();
        int k = calls.lastIndexOf(C_METHOD, method, open);
        if (k < 0) {
            int depth;
            if (open > 0) {
                depth = (int) calls.get(open - 1, C_DEPTH) + 1;
                calls.set(open - 1, C_CHILDREN, NONE);
            } else {
                depth = --base;
            }
            listener.exitWithoutEntry(method, end, s, bci, time, depth);
            return NONE;
        }
        while (calls.size() - 1 > k) {
            end(EXIT_LOST, NONE, Integer.MIN_VALUE, NONE);
        }
        long entrySeq = calls.get(k, C_SEQ);
        end(end, s, bci, time);
        return entrySeq;
    }

    /** Ends the innermost open call and pops it. */
    private void end(int how, long exitSeq, int bci, long time) throws X {
        int k = calls.size() - 1;
        long entry = calls.get(k, C_ENTRY);
        long duration = exitSeq == NONE || time == NONE || entry == NONE ? NONE : time - entry;
        long children = calls.get(k, C_CHILDREN);
        long self = duration == NONE || children == NONE ? NONE : duration - children;
        listener.exit(k, how, exitSeq, bci, time, duration, self);
        calls.truncate(k);
        if (k > 0 && calls.get(k - 1, C_CHILDREN) != NONE) {
            calls.set(k - 1, C_CHILDREN, duration == NONE ? NONE : calls.get(k - 1, C_CHILDREN) + duration);
        }
    }

    private void acquire(long s, long object, long time, int bci) throws X {
        int h = holds.append();
        holds.set(h, H_SEQ, s);
        holds.set(h, H_OBJECT, object);
        holds.set(h, H_TIME, time);
        holds.set(h, H_BCI, bci);
        holds.set(h, H_CALL, runningCall());
        holds.set(h, H_METHOD, runningMethod());
        listener.acquire(h, heldBefore(h));
    }

    private void release(long s, long object, long time, int bci) throws X {
        int k = holds.lastIndexOf(H_OBJECT, object, holds.size());
        if (k < 0) {
            listener.releaseWithoutAcquire(object, s, bci, time);
            return;
        }
        listener.release(k, true, s, bci, time, heldBefore(k));
        holds.remove(k);
    }

    /** The trace ended: the open calls end {@link #OPEN}, innermost first, then the open holds, in acquire order. */
    public void finish() throws X {
        while (calls.size() > 0) {
            end(OPEN, NONE, Integer.MIN_VALUE, NONE);
        }
        for (int h = 0; h < holds.size(); h++) {
            listener.release(h, false, NONE, Integer.MIN_VALUE, NONE, heldBefore(h));
        }
        holds.truncate(0);
    }

    /** Whether an open hold older than {@code h} has its monitor: {@code h} re-entered it. */
    private boolean heldBefore(int h) {
        return holds.lastIndexOf(H_OBJECT, holds.get(h, H_OBJECT), h) >= 0;
    }

    /** The number of records so far: the seq of the latest. */
    public long seq() {
        return seq;
    }

    /** The number of open calls. */
    public int calls() {
        return calls.size();
    }

    /** The method of open call {@code frame}. */
    public long method(int frame) {
        return calls.get(frame, C_METHOD);
    }

    /** The entry seq of open call {@code frame}. */
    public long callSeq(int frame) {
        return calls.get(frame, C_SEQ);
    }

    /** The depth of open call {@code frame}: its frame index, shifted below 0 by exits without entry before it. */
    public int depth(int frame) {
        return (int) calls.get(frame, C_DEPTH);
    }

    /** The entry time of open call {@code frame}. */
    public long entryTime(int frame) {
        return calls.get(frame, C_ENTRY);
    }

    /** The method of the innermost open call, {@link #NONE} when none is open. */
    public long runningMethod() {
        int open = calls.size();
        return open > 0 ? calls.get(open - 1, C_METHOD) : NONE;
    }

    /** The entry seq of the innermost open call, {@link #NONE} when none is open. */
    public long runningCall() {
        int open = calls.size();
        return open > 0 ? calls.get(open - 1, C_SEQ) : NONE;
    }

    /** The number of open holds. */
    public int holds() {
        return holds.size();
    }

    /** Open hold {@code hold}'s acquire seq. */
    public long holdSeq(int hold) {
        return holds.get(hold, H_SEQ);
    }

    /** Open hold {@code hold}'s monitor (object id). */
    public long holdObject(int hold) {
        return holds.get(hold, H_OBJECT);
    }

    /** Open hold {@code hold}'s acquire time. */
    public long holdTime(int hold) {
        return holds.get(hold, H_TIME);
    }

    /** Open hold {@code hold}'s acquire bytecode index. */
    public int holdBci(int hold) {
        return (int) holds.get(hold, H_BCI);
    }

    /** The entry seq of the call that acquired open hold {@code hold}, {@link #NONE} outside any call. */
    public long holdCall(int hold) {
        return holds.get(hold, H_CALL);
    }

    /** The method of the call that acquired open hold {@code hold}, {@link #NONE} outside any call. */
    public long holdMethod(int hold) {
        return holds.get(hold, H_METHOD);
    }
}
