package dev.minitrace.converter.calls;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.util.Arrays;

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
 * <p>Per record only array slots are written: the stacks grow by doubling and are reused.
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

    // Open calls, outermost first.
    private int calls;
    private long[] callSeq = new long[16];
    private long[] callMethod = new long[16];
    private long[] callEntry = new long[16];
    /** Sum of the ended children's durations; NONE once one of them has none. */
    private long[] callChildren = new long[16];
    private int[] callDepth = new int[16];
    /** The depth of the next call entered with no call open: below 0 after exits without entry. */
    private int base;

    // Open holds, in acquire order.
    private int holds;
    private long[] holdSeq = new long[8];
    private long[] holdObject = new long[8];
    private long[] holdTime = new long[8];
    private int[] holdBci = new int[8];
    private long[] holdCall = new long[8];
    private long[] holdMethod = new long[8];

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
        if (calls == callSeq.length) {
            int n = calls * 2;
            callSeq = Arrays.copyOf(callSeq, n);
            callMethod = Arrays.copyOf(callMethod, n);
            callEntry = Arrays.copyOf(callEntry, n);
            callChildren = Arrays.copyOf(callChildren, n);
            callDepth = Arrays.copyOf(callDepth, n);
        }
        int k = calls;
        callDepth[k] = k > 0 ? callDepth[k - 1] + 1 : base;
        callSeq[k] = s;
        callMethod[k] = method;
        callEntry[k] = time;
        callChildren[k] = 0;
        calls++;
        listener.enter(k, s, method, time);
    }

    private long exit(long s, long method, int bci, long time) throws X {
        int end = bci == 0 ? THREW : RETURNED;
        int k = calls - 1;
        while (k >= 0 && callMethod[k] != method) {
            k--;
        }
        if (k < 0) {
            int depth;
            if (calls > 0) {
                depth = callDepth[calls - 1] + 1;
                callChildren[calls - 1] = NONE;
            } else {
                depth = --base;
            }
            listener.exitWithoutEntry(method, end, s, bci, time, depth);
            return NONE;
        }
        while (calls - 1 > k) {
            end(EXIT_LOST, NONE, Integer.MIN_VALUE, NONE);
        }
        long entrySeq = callSeq[k];
        end(end, s, bci, time);
        return entrySeq;
    }

    /** Ends the innermost open call and pops it. */
    private void end(int how, long exitSeq, int bci, long time) throws X {
        int k = calls - 1;
        long entry = callEntry[k];
        long duration = exitSeq == NONE || time == NONE || entry == NONE ? NONE : time - entry;
        long children = callChildren[k];
        long self = duration == NONE || children == NONE ? NONE : duration - children;
        listener.exit(k, how, exitSeq, bci, time, duration, self);
        calls = k;
        if (k > 0 && callChildren[k - 1] != NONE) {
            callChildren[k - 1] = duration == NONE ? NONE : callChildren[k - 1] + duration;
        }
    }

    private void acquire(long s, long object, long time, int bci) throws X {
        if (holds == holdSeq.length) {
            int n = holds * 2;
            holdSeq = Arrays.copyOf(holdSeq, n);
            holdObject = Arrays.copyOf(holdObject, n);
            holdTime = Arrays.copyOf(holdTime, n);
            holdBci = Arrays.copyOf(holdBci, n);
            holdCall = Arrays.copyOf(holdCall, n);
            holdMethod = Arrays.copyOf(holdMethod, n);
        }
        int h = holds;
        holdSeq[h] = s;
        holdObject[h] = object;
        holdTime[h] = time;
        holdBci[h] = bci;
        holdCall[h] = calls > 0 ? callSeq[calls - 1] : NONE;
        holdMethod[h] = calls > 0 ? callMethod[calls - 1] : NONE;
        holds++;
        listener.acquire(h, heldBefore(h));
    }

    private void release(long s, long object, long time, int bci) throws X {
        int k = holds - 1;
        while (k >= 0 && holdObject[k] != object) {
            k--;
        }
        if (k < 0) {
            listener.releaseWithoutAcquire(object, s, bci, time);
            return;
        }
        listener.release(k, true, s, bci, time, heldBefore(k));
        int above = holds - 1 - k;
        if (above > 0) {
            System.arraycopy(holdSeq, k + 1, holdSeq, k, above);
            System.arraycopy(holdObject, k + 1, holdObject, k, above);
            System.arraycopy(holdTime, k + 1, holdTime, k, above);
            System.arraycopy(holdBci, k + 1, holdBci, k, above);
            System.arraycopy(holdCall, k + 1, holdCall, k, above);
            System.arraycopy(holdMethod, k + 1, holdMethod, k, above);
        }
        holds--;
    }

    /** The trace ended: the open calls end {@link #OPEN}, innermost first, then the open holds, in acquire order. */
    public void finish() throws X {
        while (calls > 0) {
            end(OPEN, NONE, Integer.MIN_VALUE, NONE);
        }
        for (int h = 0; h < holds; h++) {
            listener.release(h, false, NONE, Integer.MIN_VALUE, NONE, heldBefore(h));
        }
        holds = 0;
    }

    /** Whether an open hold older than {@code h} has its monitor: {@code h} re-entered it. */
    private boolean heldBefore(int h) {
        for (int j = 0; j < h; j++) {
            if (holdObject[j] == holdObject[h]) {
                return true;
            }
        }
        return false;
    }

    /** The number of records so far: the seq of the latest. */
    public long seq() {
        return seq;
    }

    /** The number of open calls. */
    public int calls() {
        return calls;
    }

    /** The method of open call {@code frame}. */
    public long method(int frame) {
        return callMethod[frame];
    }

    /** The entry seq of open call {@code frame}. */
    public long callSeq(int frame) {
        return callSeq[frame];
    }

    /** The depth of open call {@code frame}: its frame index, shifted below 0 by exits without entry before it. */
    public int depth(int frame) {
        return callDepth[frame];
    }

    /** The entry time of open call {@code frame}. */
    public long entryTime(int frame) {
        return callEntry[frame];
    }

    /** The method of the innermost open call, {@link #NONE} when none is open. */
    public long runningMethod() {
        return calls > 0 ? callMethod[calls - 1] : NONE;
    }

    /** The entry seq of the innermost open call, {@link #NONE} when none is open. */
    public long runningCall() {
        return calls > 0 ? callSeq[calls - 1] : NONE;
    }

    /** The number of open holds. */
    public int holds() {
        return holds;
    }

    /** The acquire seq of open hold {@code hold}. */
    public long holdSeq(int hold) {
        return holdSeq[hold];
    }

    /** The monitor (object id) of open hold {@code hold}. */
    public long holdObject(int hold) {
        return holdObject[hold];
    }

    /** The acquire time of open hold {@code hold}. */
    public long holdTime(int hold) {
        return holdTime[hold];
    }

    /** The acquire's bytecode index of open hold {@code hold}. */
    public int holdBci(int hold) {
        return holdBci[hold];
    }

    /** The entry seq of the call that acquired open hold {@code hold}, {@link #NONE} outside any call. */
    public long holdCall(int hold) {
        return holdCall[hold];
    }

    /** The method of the call that acquired open hold {@code hold}, {@link #NONE} outside any call. */
    public long holdMethod(int hold) {
        return holdMethod[hold];
    }
}
