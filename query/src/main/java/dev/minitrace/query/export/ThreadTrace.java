package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_INT;
import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.util.Arrays;

/**
 * One thread's trace as it turns into rows: numbers its records, keeps the calls and the monitors
 * it holds open, and writes a {@code records} row per record, a {@code calls} row when a call ends
 * and a {@code locks} row when a monitor is released. It relies on getting the thread's records in
 * their exact order, which {@link dev.minitrace.converter.write.TraceWriter.Order#THREAD} gives.
 *
 * <p>Rules for what the trace lacks (docs/query.md): an exit whose entry is not in the trace (the
 * method ran when tracing began) is a call with no {@code call_seq}, one level above the outermost
 * call seen so far; an exit that matches an open call further down the stack ends the calls above
 * it without an exit (their exits were lost); a call still open at the end has no exit. A release
 * without its acquire, or an acquire without its release, is a hold with one side null.
 */
final class ThreadTrace {
    private static final int R_THREAD = TraceTables.RECORDS.index("thread");
    private static final int R_SEQ = TraceTables.RECORDS.index("seq");
    private static final int R_KIND = TraceTables.RECORDS.index("kind");
    private static final int R_TIME = TraceTables.RECORDS.index("time_ns");
    private static final int R_FRAGMENT = TraceTables.RECORDS.index("fragment");
    private static final int R_METHOD = TraceTables.RECORDS.index("method_id");
    private static final int R_CALL = TraceTables.RECORDS.index("call_seq");
    private static final int R_CLASS = TraceTables.RECORDS.index("class_id");
    private static final int R_FIELD = TraceTables.RECORDS.index("field_id");
    private static final int R_BCI = TraceTables.RECORDS.index("bci");
    private static final int R_OBJECT = TraceTables.RECORDS.index("object_id");
    private static final int R_INDEX = TraceTables.RECORDS.index("array_index");
    private static final int R_LENGTH = TraceTables.RECORDS.index("array_length");

    private static final int C_THREAD = TraceTables.CALLS.index("thread");
    private static final int C_SEQ = TraceTables.CALLS.index("call_seq");
    private static final int C_EXIT = TraceTables.CALLS.index("exit_seq");
    private static final int C_PARENT = TraceTables.CALLS.index("parent_seq");
    private static final int C_DEPTH = TraceTables.CALLS.index("depth");
    private static final int C_METHOD = TraceTables.CALLS.index("method_id");
    private static final int C_STACK = TraceTables.CALLS.index("stack_id");
    private static final int C_PARENT_STACK = TraceTables.CALLS.index("parent_stack_id");
    private static final int C_ENTRY_NS = TraceTables.CALLS.index("entry_ns");
    private static final int C_EXIT_NS = TraceTables.CALLS.index("exit_ns");
    private static final int C_DURATION = TraceTables.CALLS.index("duration_ns");
    private static final int C_SELF = TraceTables.CALLS.index("self_ns");
    private static final int C_BCI = TraceTables.CALLS.index("exit_bci");
    private static final int C_EXCEPTIONAL = TraceTables.CALLS.index("exceptional");

    private static final int L_THREAD = TraceTables.LOCKS.index("thread");
    private static final int L_ACQUIRE = TraceTables.LOCKS.index("acquire_seq");
    private static final int L_RELEASE = TraceTables.LOCKS.index("release_seq");
    private static final int L_OBJECT = TraceTables.LOCKS.index("object_id");
    private static final int L_CLASS = TraceTables.LOCKS.index("class_id");
    private static final int L_METHOD = TraceTables.LOCKS.index("method_id");
    private static final int L_CALL = TraceTables.LOCKS.index("call_seq");
    private static final int L_ACQUIRE_BCI = TraceTables.LOCKS.index("acquire_bci");
    private static final int L_RELEASE_BCI = TraceTables.LOCKS.index("release_bci");
    private static final int L_ACQUIRE_NS = TraceTables.LOCKS.index("acquire_ns");
    private static final int L_RELEASE_NS = TraceTables.LOCKS.index("release_ns");
    private static final int L_HOLD = TraceTables.LOCKS.index("hold_ns");

    /** The {@code kind} strings, by record type: the {@code .mtlog} type names. */
    static final String[] KINDS = new String[MtlogFormat.MAX_TYPE + 1];

    static {
        for (int t = 0; t < KINDS.length; t++) {
            KINDS[t] = MtlogFormat.typeName(t);
        }
    }

    final long key;
    private long seq;
    /** The GC id that began the current fragment, or null. */
    long fragment = NULL_LONG;

    // Open calls, outermost first: entry seq, method, stack, entry time, sum of the ended children's
    // durations (null once one of them has none), depth.
    private int calls;
    private long[] callSeq = new long[16];
    private long[] callMethod = new long[16];
    private long[] callStack = new long[16];
    private long[] callEntry = new long[16];
    private long[] callChildren = new long[16];
    private int[] callDepth = new int[16];
    /** The depth of the next call entered with no call open: below 0 once exits of calls entered before the trace came. */
    private int base;

    // Held monitors, in acquire order: acquire seq, object id, time, bci, the call and method that acquired.
    private int holds;
    private long[] holdSeq = new long[8];
    private long[] holdObject = new long[8];
    private long[] holdTime = new long[8];
    private int[] holdBci = new int[8];
    private long[] holdCall = new long[8];
    private long[] holdMethod = new long[8];

    ThreadTrace(long key) {
        this.key = key;
    }

    /**
     * The thread's next record: {@code value} is a method id or an object id, {@code aux} the bytecode
     * index ({@link dev.minitrace.query.parquet.ParquetFile#NULL_INT} when unknown), {@code time}
     * ns since the epoch or null.
     */
    void add(byte type, long time, long value, int aux, TableWriter records, TableWriter callRows, TableWriter lockRows)
            throws IOException {
        long s = ++seq;
        int r = records.next();
        long[][] l = records.longs;
        l[R_THREAD][r] = key;
        l[R_SEQ][r] = s;
        records.bytes[R_KIND][r] = type;
        l[R_TIME][r] = time;
        l[R_FRAGMENT][r] = fragment;
        l[R_FIELD][r] = NULL_LONG;
        records.ints[R_INDEX][r] = NULL_INT;
        records.ints[R_LENGTH][r] = NULL_INT;
        switch (type) {
            case MtlogFormat.METHOD_ENTRY -> {
                l[R_METHOD][r] = value;
                l[R_CALL][r] = s;
                l[R_CLASS][r] = NULL_LONG;
                l[R_OBJECT][r] = NULL_LONG;
                records.ints[R_BCI][r] = NULL_INT;
                enter(s, value, time);
            }
            case MtlogFormat.METHOD_EXIT -> {
                l[R_METHOD][r] = value;
                l[R_CLASS][r] = NULL_LONG;
                l[R_OBJECT][r] = NULL_LONG;
                records.ints[R_BCI][r] = aux;
                l[R_CALL][r] = exit(s, value, time, aux, callRows);
            }
            case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.FIELD_STORE, MtlogFormat.ARRAY_STORE,
                    MtlogFormat.ARRAY_LENGTH, MtlogFormat.ALLOC_SITE -> {
                // a site: the method is the record's own for a throw, handler or untraced allocation site, else the running one
                boolean exception = type == MtlogFormat.EXCEPTION_THROW || type == MtlogFormat.EXCEPTION_HANDLED
                        || type == MtlogFormat.ALLOC_SITE;
                l[R_METHOD][r] = exception ? value : calls > 0 ? callMethod[calls - 1] : NULL_LONG;
                l[R_CALL][r] = calls > 0 ? callSeq[calls - 1] : NULL_LONG;
                l[R_CLASS][r] = NULL_LONG;
                l[R_OBJECT][r] = NULL_LONG;
                records.ints[R_BCI][r] = type == MtlogFormat.ARRAY_LENGTH ? NULL_INT : aux;
                if (type == MtlogFormat.FIELD_STORE) {
                    l[R_FIELD][r] = value;
                } else if (type == MtlogFormat.ARRAY_STORE) {
                    records.ints[R_INDEX][r] = (int) value;
                } else if (type == MtlogFormat.ARRAY_LENGTH) {
                    records.ints[R_LENGTH][r] = (int) value;
                }
            }
            case MtlogFormat.EXCEPTION_OBJECT, MtlogFormat.STORE_HOLDER, MtlogFormat.STORE_OLD, MtlogFormat.STORE_NEW,
                    MtlogFormat.OBJECT_DEATH, MtlogFormat.METHOD_RECEIVER -> {
                // an object of a heap record; 0 is null (a static field's holder, a null target)
                l[R_METHOD][r] = calls > 0 ? callMethod[calls - 1] : NULL_LONG;
                l[R_CALL][r] = calls > 0 ? callSeq[calls - 1] : NULL_LONG;
                l[R_CLASS][r] = value == 0 ? NULL_LONG : value >>> 32;
                l[R_OBJECT][r] = value == 0 ? NULL_LONG : value;
                records.ints[R_BCI][r] = NULL_INT;
                if (type == MtlogFormat.OBJECT_DEATH && aux != -1 && aux != NULL_INT) {
                    l[R_FRAGMENT][r] = aux & 0xFFFFFFFFL; // the fragment of the GC that found it (docs/mtlog-format.md)
                }
            }
            default -> {
                l[R_METHOD][r] = calls > 0 ? callMethod[calls - 1] : NULL_LONG;
                l[R_CALL][r] = calls > 0 ? callSeq[calls - 1] : NULL_LONG;
                l[R_CLASS][r] = value >>> 32;
                l[R_OBJECT][r] = value;
                records.ints[R_BCI][r] = aux;
                if (type == MtlogFormat.LOCK_ACQUIRE) {
                    acquire(s, value, time, aux);
                } else if (type == MtlogFormat.LOCK_RELEASE) {
                    release(s, value, time, aux, lockRows);
                }
            }
        }
    }

    private void enter(long s, long method, long time) {
        if (calls == callSeq.length) {
            int n = calls * 2;
            callSeq = Arrays.copyOf(callSeq, n);
            callMethod = Arrays.copyOf(callMethod, n);
            callStack = Arrays.copyOf(callStack, n);
            callEntry = Arrays.copyOf(callEntry, n);
            callChildren = Arrays.copyOf(callChildren, n);
            callDepth = Arrays.copyOf(callDepth, n);
        }
        callDepth[calls] = calls > 0 ? callDepth[calls - 1] + 1 : base;
        callSeq[calls] = s;
        callMethod[calls] = method;
        callStack[calls] = stack(calls > 0 ? callStack[calls - 1] : 0, method);
        callEntry[calls] = time;
        callChildren[calls] = 0;
        calls++;
    }

    /** Ends the call {@code method} exits; returns its entry seq (null when its entry is not in the trace). */
    private long exit(long s, long method, long time, int bci, TableWriter out) throws IOException {
        int k = calls - 1;
        while (k >= 0 && callMethod[k] != method) {
            k--;
        }
        if (k < 0) {
            // An exit of a call the trace never saw begin.
            int depth;
            long parent;
            long parentStack;
            if (calls > 0) {
                depth = callDepth[calls - 1] + 1;
                parent = callSeq[calls - 1];
                parentStack = callStack[calls - 1];
                callChildren[calls - 1] = NULL_LONG;
            } else {
                depth = --base;
                parent = NULL_LONG;
                parentStack = NULL_LONG;
            }
            call(out, NULL_LONG, s, parent, depth, method, stack(parentStack == NULL_LONG ? 0 : parentStack, method), parentStack,
                    NULL_LONG, time, NULL_LONG, bci);
            return NULL_LONG;
        }
        while (calls - 1 > k) {
            end(out, NULL_LONG, NULL_LONG, NULL_INT);
        }
        long entrySeq = callSeq[k];
        end(out, s, time, bci);
        return entrySeq;
    }

    /** Writes the innermost open call, ended by {@code exitSeq} at {@code time} (null: never ended), and pops it. */
    private void end(TableWriter out, long exitSeq, long time, int bci) throws IOException {
        int k = --calls;
        long entry = callEntry[k];
        long duration = time == NULL_LONG || entry == NULL_LONG || exitSeq == NULL_LONG ? NULL_LONG : time - entry;
        long children = callChildren[k];
        long self = duration == NULL_LONG || children == NULL_LONG ? NULL_LONG : duration - children;
        call(out, callSeq[k], exitSeq, k > 0 ? callSeq[k - 1] : NULL_LONG, callDepth[k], callMethod[k], callStack[k],
                k > 0 ? callStack[k - 1] : NULL_LONG, entry, time, self, bci);
        if (k > 0 && callChildren[k - 1] != NULL_LONG) {
            callChildren[k - 1] = duration == NULL_LONG ? NULL_LONG : callChildren[k - 1] + duration;
        }
    }

    private void call(TableWriter out, long entrySeq, long exitSeq, long parent, int depth, long method, long stack,
            long parentStack, long entry, long exit, long self, int bci) throws IOException {
        int r = out.next();
        long[][] l = out.longs;
        l[C_THREAD][r] = key;
        l[C_SEQ][r] = entrySeq;
        l[C_EXIT][r] = exitSeq;
        l[C_PARENT][r] = parent;
        out.ints[C_DEPTH][r] = depth;
        l[C_METHOD][r] = method;
        l[C_STACK][r] = stack;
        l[C_PARENT_STACK][r] = parentStack;
        l[C_ENTRY_NS][r] = entry;
        boolean ended = exitSeq != NULL_LONG;
        l[C_EXIT_NS][r] = ended ? exit : NULL_LONG;
        l[C_DURATION][r] = ended && exit != NULL_LONG && entry != NULL_LONG ? exit - entry : NULL_LONG;
        l[C_SELF][r] = self;
        out.ints[C_BCI][r] = ended ? bci : NULL_INT;
        // The .mtlog marks an exit by exception with bytecode index 0 (docs/mtlog-format.md).
        out.bytes[C_EXCEPTIONAL][r] = !ended || bci == NULL_INT ? (byte) -1 : bci == 0 ? (byte) 1 : (byte) 0;
    }

    /**
     * The stack id of a call of {@code method} from stack {@code parent} (0 for an outermost call):
     * a 64-bit hash of the method ids from the outermost call down (splitmix64's finalizer over the
     * parent's id and the method), so that calls along the same path share an id and the call tree
     * is an aggregation over few distinct stacks.
     */
    static long stack(long parent, long method) {
        long z = parent * 0x9E3779B97F4A7C15L + method + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private void acquire(long s, long object, long time, int bci) {
        if (holds == holdSeq.length) {
            int n = holds * 2;
            holdSeq = Arrays.copyOf(holdSeq, n);
            holdObject = Arrays.copyOf(holdObject, n);
            holdTime = Arrays.copyOf(holdTime, n);
            holdBci = Arrays.copyOf(holdBci, n);
            holdCall = Arrays.copyOf(holdCall, n);
            holdMethod = Arrays.copyOf(holdMethod, n);
        }
        holdSeq[holds] = s;
        holdObject[holds] = object;
        holdTime[holds] = time;
        holdBci[holds] = bci;
        holdCall[holds] = calls > 0 ? callSeq[calls - 1] : NULL_LONG;
        holdMethod[holds] = calls > 0 ? callMethod[calls - 1] : NULL_LONG;
        holds++;
    }

    private void release(long s, long object, long time, int bci, TableWriter out) throws IOException {
        int k = holds - 1;
        while (k >= 0 && holdObject[k] != object) {
            k--;
        }
        if (k < 0) {
            hold(out, NULL_LONG, s, object, calls > 0 ? callMethod[calls - 1] : NULL_LONG,
                    calls > 0 ? callSeq[calls - 1] : NULL_LONG, NULL_INT, bci, NULL_LONG, time);
            return;
        }
        hold(out, holdSeq[k], s, object, holdMethod[k], holdCall[k], holdBci[k], bci, holdTime[k], time);
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

    private void hold(TableWriter out, long acquireSeq, long releaseSeq, long object, long method, long call, int acquireBci,
            int releaseBci, long acquired, long released) throws IOException {
        int r = out.next();
        long[][] l = out.longs;
        l[L_THREAD][r] = key;
        l[L_ACQUIRE][r] = acquireSeq;
        l[L_RELEASE][r] = releaseSeq;
        l[L_OBJECT][r] = object;
        l[L_CLASS][r] = object >>> 32;
        l[L_METHOD][r] = method;
        l[L_CALL][r] = call;
        out.ints[L_ACQUIRE_BCI][r] = acquireBci;
        out.ints[L_RELEASE_BCI][r] = releaseBci;
        l[L_ACQUIRE_NS][r] = acquired;
        l[L_RELEASE_NS][r] = released;
        l[L_HOLD][r] = acquired == NULL_LONG || released == NULL_LONG ? NULL_LONG : released - acquired;
    }

    /** The trace ended: the calls and holds still open are written without their end. */
    void finish(TableWriter callRows, TableWriter lockRows) throws IOException {
        while (calls > 0) {
            end(callRows, NULL_LONG, NULL_LONG, NULL_INT);
        }
        for (int k = 0; k < holds; k++) {
            hold(lockRows, holdSeq[k], NULL_LONG, holdObject[k], holdMethod[k], holdCall[k], holdBci[k], NULL_INT, holdTime[k],
                    NULL_LONG);
        }
        holds = 0;
    }
}
