package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_INT;
import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.converter.calls.CallModel;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.util.Arrays;

/**
 * One thread's trace as it turns into rows: a {@code records} row per record, a {@code calls} row
 * when a call ends and a {@code locks} row when a hold ends, as the thread's {@link CallModel} finds
 * them (whose rules for what the trace lacks are docs/query.md's). It relies on getting the
 * thread's records in their exact order, which
 * {@link dev.minitrace.converter.write.TraceWriter.Order#THREAD} gives.
 */
final class ThreadTrace implements CallModel.Listener<IOException> {
    /** The tables as their files hold them. */
    static final TableSchema RECORDS = TraceTables.RECORDS.stored();
    static final TableSchema CALLS = TraceTables.CALLS.stored();
    static final TableSchema LOCKS = TraceTables.LOCKS.stored();

    private static final int R_THREAD = RECORDS.index("thread");
    private static final int R_SEQ = RECORDS.index("seq");
    private static final int R_KIND = RECORDS.index("kind");
    private static final int R_TIME = RECORDS.index("time_ns");
    private static final int R_FRAGMENT = RECORDS.index("fragment");
    private static final int R_METHOD = RECORDS.index("method_id");
    private static final int R_CALL = RECORDS.index("call_seq");
    private static final int R_FIELD = RECORDS.index("field_id");
    private static final int R_BCI = RECORDS.index("bci");
    private static final int R_OBJECT = RECORDS.index("object_id");
    private static final int R_INDEX = RECORDS.index("array_index");
    private static final int R_LENGTH = RECORDS.index("array_length");

    private static final int C_THREAD = CALLS.index("thread");
    private static final int C_EXIT = CALLS.index("exit_seq");
    private static final int C_SPAN = CALLS.index("call_span");
    private static final int C_SPAN_FAR = CALLS.index("call_span_far");
    private static final int C_OPEN_SEQ = CALLS.index("open_call_seq");
    private static final int C_PARENT_GAP = CALLS.index("parent_gap");
    private static final int C_PARENT_GAP_FAR = CALLS.index("parent_gap_far");
    private static final int C_DEPTH_SHIFT = CALLS.index("depth_shift");
    private static final int C_STACK = CALLS.index("stack_id");
    private static final int C_ENTRY_NS = CALLS.index("entry_ns");
    private static final int C_DURATION = CALLS.index("duration_ns");
    private static final int C_LONE_EXIT_NS = CALLS.index("lone_exit_ns");
    private static final int C_SELF = CALLS.index("self_ns");
    private static final int C_BCI = CALLS.index("exit_bci");
    private static final int C_ENTRY_FRAGMENT = CALLS.index("entry_fragment");
    private static final int C_EXIT_FRAGMENT = CALLS.index("exit_fragment");

    private static final int L_THREAD = LOCKS.index("thread");
    private static final int L_ACQUIRE = LOCKS.index("acquire_seq");
    private static final int L_RELEASE = LOCKS.index("release_seq");
    private static final int L_OBJECT = LOCKS.index("object_id");
    private static final int L_METHOD = LOCKS.index("method_id");
    private static final int L_CALL = LOCKS.index("call_seq");
    private static final int L_ACQUIRE_BCI = LOCKS.index("acquire_bci");
    private static final int L_RELEASE_BCI = LOCKS.index("release_bci");
    private static final int L_ACQUIRE_NS = LOCKS.index("acquire_ns");
    private static final int L_RELEASE_NS = LOCKS.index("release_ns");

    /** The {@code kind} strings, by record type: the {@code .mtlog} type names. */
    static final String[] KINDS = new String[MtlogFormat.MAX_TYPE + 1];

    static {
        for (int t = 0; t < KINDS.length; t++) {
            KINDS[t] = MtlogFormat.typeName(t);
        }
    }

    final long key;
    /** The thread's calls and holds; numbers its records as they come (the {@code seq} column). */
    private final CallModel<IOException> model = new CallModel<>(this);
    /** The GC id that began the current fragment, or null. */
    long fragment = NULL_LONG;
    /** The stack ids of the open calls, by frame. */
    private long[] callStack = new long[16];
    /** The fragment of each open call's entry, by frame. */
    private long[] callFragment = new long[16];
    private TableWriter callRows;
    /** The calls of {@link TraceTables#LONG_CALL_NS} or longer. */
    private TableWriter longCallRows;
    private TableWriter lockRows;
    private final StackTotals stacks;

    ThreadTrace(long key, StackTotals stacks) {
        this.key = key;
        this.stacks = stacks;
    }

    /**
     * The thread's next record: {@code value} is a method id or an object id, {@code aux} the bytecode
     * index ({@link dev.minitrace.query.parquet.ParquetFile#NULL_INT} when unknown), {@code time}
     * ns since the epoch or null. A method entry or exit is no row of {@code records}: its call's
     * row holds it ({@link dev.minitrace.query.TableViews}).
     */
    void add(byte type, long time, long value, int aux, RecordFamilies families, TableWriter callRows, TableWriter longCallRows,
            TableWriter lockRows) throws IOException {
        this.callRows = callRows;
        this.longCallRows = longCallRows;
        this.lockRows = lockRows;
        model.record(type, value, aux, time);
        if (type == MtlogFormat.METHOD_ENTRY || type == MtlogFormat.METHOD_EXIT) {
            return;
        }
        TableWriter records = families.writer(type);
        long s = model.seq();
        int r = records.next();
        long[][] l = records.longs;
        l[R_THREAD][r] = key;
        l[R_SEQ][r] = s;
        records.bytes[R_KIND][r] = type;
        l[R_TIME][r] = time;
        l[R_FRAGMENT][r] = fragment;
        l[R_FIELD][r] = NULL_LONG;
        l[R_CALL][r] = model.runningCall();
        records.ints[R_INDEX][r] = NULL_INT;
        records.ints[R_LENGTH][r] = NULL_INT;
        switch (type) {
            case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.FIELD_STORE, MtlogFormat.ARRAY_STORE,
                    MtlogFormat.ARRAY_LENGTH, MtlogFormat.ALLOC_SITE -> {
                // a site: the method is the record's own for a throw, handler or untraced allocation site, else the running one
                boolean exception = type == MtlogFormat.EXCEPTION_THROW || type == MtlogFormat.EXCEPTION_HANDLED
                        || type == MtlogFormat.ALLOC_SITE;
                l[R_METHOD][r] = exception ? value : model.runningMethod();
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
                l[R_METHOD][r] = model.runningMethod();
                l[R_OBJECT][r] = value == 0 ? NULL_LONG : value;
                records.ints[R_BCI][r] = NULL_INT;
                if (type == MtlogFormat.OBJECT_DEATH && aux != -1 && aux != NULL_INT) {
                    l[R_FRAGMENT][r] = aux & 0xFFFFFFFFL; // the fragment of the GC that found it (docs/mtlog-format.md)
                }
            }
            default -> {
                // a monitor or an allocation: after an acquire the running call is the one that acquired
                l[R_METHOD][r] = model.runningMethod();
                l[R_OBJECT][r] = value;
                records.ints[R_BCI][r] = aux;
            }
        }
    }

    @Override
    public void enter(int frame, long seq, long method, long time) {
        if (frame == callStack.length) {
            callStack = Arrays.copyOf(callStack, frame * 2);
            callFragment = Arrays.copyOf(callFragment, frame * 2);
        }
        callStack[frame] = stack(frame > 0 ? callStack[frame - 1] : 0, method);
        callFragment[frame] = fragment;
    }

    @Override
    public void exit(int frame, int end, long exitSeq, int bci, long time, long duration, long self) throws IOException {
        // the path of open call `frame` is frame + 1 calls long
        call(model.callSeq(frame), exitSeq, frame > 0 ? model.callSeq(frame - 1) : NULL_LONG, model.depth(frame), frame,
                model.method(frame), callStack[frame], frame > 0 ? callStack[frame - 1] : NULL_LONG, model.entryTime(frame), time,
                self, bci, callFragment[frame]);
    }

    @Override
    public void exitWithoutEntry(long method, int end, long exitSeq, int bci, long time, int depth) throws IOException {
        int calls = model.calls();
        long parent = calls > 0 ? model.callSeq(calls - 1) : NULL_LONG;
        long parentStack = calls > 0 ? callStack[calls - 1] : NULL_LONG;
        // its path is the open calls' and its method
        call(NULL_LONG, exitSeq, parent, depth, calls, method, stack(parentStack == NULL_LONG ? 0 : parentStack, method),
                parentStack, NULL_LONG, time, NULL_LONG, bci, NULL_LONG);
    }

    /**
     * A row of {@code calls}, and the call summed in its path's row of {@code stacks}: the method,
     * caller's path and {@code pathDepth} (the path's length less one) are the path's, the row keeps
     * only how far {@code depth} lies below the path's depth (0 unless exits without entry shifted
     * the thread's depths).
     */
    private void call(long entrySeq, long exitSeq, long parent, int depth, int pathDepth, long method, long stack,
            long parentStack, long entry, long exit, long self, int bci, long entryFragment) throws IOException {
        boolean ended = exitSeq != NULL_LONG;
        long duration = ended && exit != NULL_LONG && entry != NULL_LONG ? exit - entry : NULL_LONG;
        TableWriter out = duration != NULL_LONG && duration >= TraceTables.LONG_CALL_NS ? longCallRows : callRows;
        int r = out.next();
        long[][] l = out.longs;
        l[C_THREAD][r] = key;
        // call_seq and parent_seq as the view derives them (TraceTables.CALLS)
        boolean entered = entrySeq != NULL_LONG;
        l[C_EXIT][r] = exitSeq;
        step(out, r, C_SPAN, C_SPAN_FAR, entered && exitSeq != NULL_LONG ? exitSeq - entrySeq : NULL_LONG);
        l[C_OPEN_SEQ][r] = exitSeq == NULL_LONG ? entrySeq : NULL_LONG;
        step(out, r, C_PARENT_GAP, C_PARENT_GAP_FAR, parent == NULL_LONG ? NULL_LONG : (entered ? entrySeq : exitSeq) - parent);
        out.ints[C_DEPTH_SHIFT][r] = depth - pathDepth;
        l[C_STACK][r] = stack;
        l[C_ENTRY_NS][r] = entry;
        l[C_DURATION][r] = duration;
        l[C_LONE_EXIT_NS][r] = ended && duration == NULL_LONG ? exit : NULL_LONG;
        stacks.add(stack, parentStack, method, pathDepth, duration, self);
        l[C_SELF][r] = self;
        out.ints[C_BCI][r] = ended ? bci : NULL_INT;
        l[C_ENTRY_FRAGMENT][r] = entryFragment;
        l[C_EXIT_FRAGMENT][r] = ended ? fragment : NULL_LONG;
    }

    /** A step between two seqs of row {@code r} (NULL_LONG: none), in INT32 column {@code near} if it fits, else in {@code far}. */
    private static void step(TableWriter out, int r, int near, int far, long step) {
        boolean fits = step != NULL_LONG && step > NULL_INT && step <= Integer.MAX_VALUE;
        out.ints[near][r] = fits ? (int) step : NULL_INT;
        out.longs[far][r] = fits ? NULL_LONG : step;
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

    @Override
    public void release(int h, boolean released, long releaseSeq, int bci, long time, boolean reentered) throws IOException {
        hold(lockRows, model.holdSeq(h), releaseSeq, model.holdObject(h), model.holdMethod(h), model.holdCall(h), model.holdBci(h),
                released ? bci : NULL_INT, model.holdTime(h), released ? time : NULL_LONG);
    }

    @Override
    public void releaseWithoutAcquire(long object, long releaseSeq, int bci, long time) throws IOException {
        hold(lockRows, NULL_LONG, releaseSeq, object, model.runningMethod(), model.runningCall(), NULL_INT, bci, NULL_LONG, time);
    }

    private void hold(TableWriter out, long acquireSeq, long releaseSeq, long object, long method, long call, int acquireBci,
            int releaseBci, long acquired, long released) throws IOException {
        int r = out.next();
        long[][] l = out.longs;
        l[L_THREAD][r] = key;
        l[L_ACQUIRE][r] = acquireSeq;
        l[L_RELEASE][r] = releaseSeq;
        l[L_OBJECT][r] = object;
        l[L_METHOD][r] = method;
        l[L_CALL][r] = call;
        out.ints[L_ACQUIRE_BCI][r] = acquireBci;
        out.ints[L_RELEASE_BCI][r] = releaseBci;
        l[L_ACQUIRE_NS][r] = acquired;
        l[L_RELEASE_NS][r] = released;
    }

    /** The trace ended: the calls and holds still open are written without their end. */
    void finish(TableWriter callRows, TableWriter longCallRows, TableWriter lockRows) throws IOException {
        this.callRows = callRows;
        this.longCallRows = longCallRows;
        this.lockRows = lockRows;
        model.finish();
    }
}
