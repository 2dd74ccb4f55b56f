package dev.minitrace.injector.runtime;

import dev.minitrace.wire.TraceBufferFormat;

/**
 * The hooks that instrumented code calls. Every hook first reads one volatile flag for its event
 * kind and returns when no running recording enables that event, so untraced cost is one load and
 * a branch. Hooks never throw, never call application code (only {@code getClass} and
 * {@link System#identityHashCode}), and a hook reached while the same thread is already inside a
 * hook returns at once.
 *
 * <p>The common records have a fast path: an entry, a normal exit, a leaf call, a monitor's
 * acquire and release and an allocation, when the thread's state is in its slot
 * ({@link ThreadStates#cached}), no hook of the thread is running, and the record needs no room
 * made, no skip and no stamp ({@link #enterRecord} and its siblings, {@link TraceBuffer#entry} and
 * its siblings). It is small and runs without the busy flag, so it calls no code a program's
 * filters can rewrite (the collection counters' method handle is linked and customized when they
 * are opened, {@code GcCounters}; without it the fast path declines), and C2 inlines it
 * into hot hook sites (with the collection counters read by one load each and the position
 * published by a release fence, its inlined tree stays small enough not to cost H2 more JIT time
 * than a call did).
 *
 * <p>Everything else runs through one scaffold, {@link #guarded}: it takes the thread's state,
 * returns when the thread is already inside a hook (the busy flag, shared with {@link Capture}),
 * marks it busy, swallows any throwable, and clears the flag. Inside, the work is one of the
 * {@code OP_} operations, which each public hook passes as a constant. C2 never inlines the
 * scaffold (its bytecode is larger than {@code FreqInlineSize}: "hot method too big"), so one
 * compiled scaffold serves every operation.
 *
 * <p>Every committed event gets the next value of its thread's sequence, shared by all minitrace
 * event kinds, starting at 1. Where the records go is chosen once, when tracing is switched on
 * ({@link TraceSettings#setEnabled}): by default into the thread's {@link TraceBuffer} as packed
 * records (one {@code minitrace.MethodBuffer} event per few hundred), otherwise one JFR event each
 * ({@link Records}); the sequence is shared either way.
 *
 * <p>The hooks are static methods that rewritten code calls; they and the frame bookkeeping share
 * the per-kind flags here, which {@link TraceSettings} sets.
 */
public final class Trace {
    /** True when a running recording may enable method entry or exit events. */
    static volatile boolean methodOn;
    /** True when a running recording may enable lock acquire or release events. */
    static volatile boolean lockOn;
    /** True when a running recording may enable allocation events. */
    static volatile boolean allocOn;
    /** True when a running recording may enable exception events. */
    static volatile boolean exceptionOn;
    /** True when a running recording may enable reference store events. */
    static volatile boolean fieldOn;
    /** True when a running recording may enable method receiver events. */
    static volatile boolean receiverOn;
    /** True when a running recording may enable object death events (the allocations are watched). */
    static volatile boolean deathOn;
    /** Changes whenever method events are switched on or off (see ThreadState#epoch). */
    static volatile int epoch;
    /** Where records go (written before the flags, read after them). */
    static Records records = Records.EVENTS;
    /**
     * {@link #epoch} while records go to the thread buffers ({@link Records#PACKED}), else -1: the
     * fast paths of the method hooks write only into a buffer of this epoch.
     */
    static volatile int packedEpoch = -1;


    // The operations of the scaffold, one per hook; the first three have a fast path.
    private static final int OP_ENTER = 0;
    private static final int OP_EXIT = 1;
    private static final int OP_LEAF = 2;
    private static final int OP_EXIT_BY_EXCEPTION = 3;
    private static final int OP_CAUGHT = 4;
    private static final int OP_SUPER_CALL = 5;
    private static final int OP_SUPER_RETURNED = 6;
    private static final int OP_ACQUIRE = 7;
    private static final int OP_RELEASE = 8;
    private static final int OP_ALLOC = 9;
    private static final int OP_THROW = 10;
    private static final int OP_HANDLED = 11;
    private static final int OP_FIELD_STORE = 12;
    private static final int OP_ARRAY_STORE = 13;
    private static final int OP_INIT_STORE = 14;
    private static final int OP_INIT_STORES = 15;
    private static final int OP_DEATH = 16;
    private static final int OP_ENTER_RECEIVER = 17;
    private static final int OP_ALLOC_ARRAY = 18;
    private static final int OP_ALLOC_AT = 19;
    private static final int OP_ALLOC_ARRAY_AT = 20;
    private static final int OP_LEAF_BY_EXCEPTION = 21;

    private Trace() {
    }

    /** The current thread's state (shared with {@link Capture}, whose busy flag it shares). */
    static ThreadState state() {
        return ThreadStates.current();
    }

    /** Method, constructor or static initializer {@code methodId} was entered. */
    public static void enter(int methodId) {
        if (methodOn) {
            enterRecord(methodId);
        }
    }

    /** Instance method {@code methodId} was entered with receiver {@code self} (agent option {@code events=…+receiver}). */
    public static void enterWith(Object self, int methodId) {
        if (methodOn) {
            guarded(OP_ENTER_RECEIVER, methodId, 0, self, null, null);
        }
    }

    /** Method {@code methodId} returns normally by the return instruction at {@code bci}. */
    public static void exit(int methodId, int bci) {
        if (methodOn) {
            exitRecord(methodId, bci);
        }
    }

    /** An exception propagates out of method {@code methodId}. */
    public static void exitByException(int methodId) {
        if (methodOn) {
            guarded(OP_EXIT_BY_EXCEPTION, methodId, 0, null, null, null);
        }
    }

    /**
     * Leaf method {@code methodId} (one in which nothing can be recorded between its entry and its
     * exit: asm/LeafMethods) returns by the return instruction at {@code bci}: its entry and exit
     * as one record, the one hook such a method calls on a normal return.
     */
    public static void leaf(int methodId, int bci) {
        if (methodOn) {
            leafRecord(methodId, bci);
        }
    }

    /** An exception propagates out of leaf method {@code methodId}: its entry and exceptional exit as one record. */
    public static void leafByException(int methodId) {
        if (methodOn) {
            guarded(OP_LEAF_BY_EXCEPTION, methodId, 0, null, null, null);
        }
    }

    /**
     * An original exception handler of a traced method starts: constructors that were inside their
     * {@code super(…)} call below the catching frame have been unwound; commit their exits now.
     */
    public static void caught() {
        if (methodOn) {
            guarded(OP_CAUGHT, 0, 0, null, null, null);
        }
    }

    /** Constructor {@code methodId} is about to call {@code super(…)} or {@code this(…)}. */
    public static void superCall(int methodId) {
        if (methodOn) {
            guarded(OP_SUPER_CALL, methodId, 0, null, null, null);
        }
    }

    /** The {@code super(…)}/{@code this(…)} call of constructor {@code methodId} returned. */
    public static void superReturned(int methodId) {
        if (methodOn) {
            guarded(OP_SUPER_RETURNED, methodId, 0, null, null, null);
        }
    }

    /** The current thread now holds {@code monitor}, acquired at {@code bci} (0: synchronized method). */
    public static void lockAcquire(Object monitor, int bci) {
        if (lockOn && monitor != null) {
            acquireRecord(monitor, System.identityHashCode(monitor), bci);
        }
    }

    /**
     * The identity hash of {@code monitor}, taken just before the {@code monitorenter} while the
     * object is (usually) unlocked, when the JIT reads it from the header without calling into the
     * VM; 0 (no identity hash is 0) when lock tracing is off.
     */
    public static int lockHash(Object monitor) {
        return lockOn ? System.identityHashCode(monitor) : 0;
    }

    /** As {@link #lockAcquire(Object, int)}, with the monitor's identity hash from {@link #lockHash}, or 0 if unknown. */
    public static void lockAcquire(Object monitor, int hash, int bci) {
        if (lockOn && monitor != null) {
            acquireRecord(monitor, hash, bci);
        }
    }

    /** The current thread is about to release {@code monitor} at {@code bci} (0: synchronized method). */
    public static void lockRelease(Object monitor, int bci) {
        if (lockOn && monitor != null) {
            releaseRecord(monitor, bci);
        }
    }

    /** {@code object} was allocated (and constructed) by the instruction at {@code bci}. */
    public static void alloc(Object object, int bci) {
        if (allocOn && object != null) {
            // a death is recorded only for an object whose allocation record exists: OP_ALLOC watches it
            allocRecord(object, bci);
        }
    }

    /** {@code array} was allocated by the {@code newarray}, {@code anewarray} or {@code multianewarray} at {@code bci}. */
    public static void allocArray(Object array, int bci) {
        if (allocOn && array != null) {
            arrayRecord(array, bci);
        }
    }

    /**
     * {@code object} was allocated (and constructed) by the instruction at {@code bci} of method
     * {@code methodId}, whose entries are not traced (agent option {@code alloc-scope=all}).
     */
    public static void allocAt(Object object, int methodId, int bci) {
        if (allocOn && object != null) {
            guarded(OP_ALLOC_AT, methodId, bci, object, null, null);
        }
    }

    /** {@code array} was allocated by the array instruction at {@code bci} of untraced method {@code methodId} ({@code alloc-scope=all}). */
    public static void allocArrayAt(Object array, int methodId, int bci) {
        if (allocOn && array != null) {
            guarded(OP_ALLOC_ARRAY_AT, methodId, bci, array, null, null);
        }
    }

    /** Traced code throws {@code exception} by the {@code athrow} at {@code bci} of method {@code methodId}. */
    public static void thrown(Object exception, int methodId, int bci) {
        if (exceptionOn && exception != null) {
            guarded(OP_THROW, methodId, bci, exception, null, null);
        }
    }

    /** The exception handler at {@code bci} of method {@code methodId} starts with {@code exception}. */
    public static void handled(Object exception, int methodId, int bci) {
        if (exceptionOn && exception != null) {
            guarded(OP_HANDLED, methodId, bci, exception, null, null);
        }
    }

    /**
     * {@code holder.field = value} is about to be done by the {@code putfield} at {@code bci};
     * {@code old} is the field's value now. Recorded before the store (the store cannot fail).
     */
    public static void fieldStore(Object holder, Object value, Object old, int fieldId, int bci) {
        if (fieldOn && holder != null) {
            guarded(OP_FIELD_STORE, fieldId, bci, holder, old, value);
        }
    }

    /** {@code Class.field = value} is about to be done by the {@code putstatic} at {@code bci}; {@code old} is its value now. */
    public static void staticStore(Object value, Object old, int fieldId, int bci) {
        if (fieldOn) {
            guarded(OP_FIELD_STORE, fieldId, bci, null, old, value);
        }
    }

    /**
     * Does the {@code aastore} at {@code bci} ({@code array[index] = value}) in place of the
     * instruction, which cannot read the old element, and records it once it succeeded. The
     * instruction's exceptions (null array, bad index, wrong element type) are thrown here, with
     * this method as the top frame.
     */
    public static void arrayStore(Object[] array, int index, Object value, int bci) {
        if (!fieldOn) {
            array[index] = value;
            return;
        }
        Object old = array[index];
        array[index] = value;
        guarded(OP_ARRAY_STORE, index, bci, array, old, value);
    }

    /**
     * A {@code putfield} before the {@code super(…)} call of a constructor stores {@code value}
     * into field {@code fieldId} of the uninitialized {@code this}; kept until {@link #initStores}.
     */
    public static void initStore(Object value, int fieldId, int bci) {
        if (fieldOn) {
            guarded(OP_INIT_STORE, fieldId, bci, null, null, value);
        }
    }

    /**
     * The {@code super(…)} call of a constructor with {@code count} earlier {@link #initStore}
     * sites returned: records those stores with {@code self} as their holder.
     */
    public static void initStores(Object self, int count) {
        if (fieldOn) {
            guarded(OP_INIT_STORES, count, 0, self, null, null);
        }
    }

    /**
     * The death thread found an object of class {@code type} with identity hash {@code hash}
     * reclaimed. The thread may be kept busy for good (see {@link #muteAgentThreads}): it is
     * released for this one record.
     */
    static void death(Class<?> type, int hash) {
        if (deathOn) {
            ThreadState s = ThreadStates.current();
            boolean muted = s.busy;
            s.busy = false;
            try {
                guarded(OP_DEATH, 0, hash, type, null, null);
            } finally {
                s.busy = muted;
            }
        }
    }

    /**
     * When JDK classes are rewritten: threads named {@code minitrace-…} (the agent's) and
     * {@code JFR …} (the recorder's, but not an event stream's) are kept busy from their first hook
     * on, so the JDK code they run records nothing. Set before any JDK class is rewritten.
     */
    static volatile boolean muteAgentThreads;

    /** Rewritten JDK classes will run (alloc-scope=all or an include filter naming JDK classes): see {@link #muteAgentThreads}. */
    public static void jdkRewritten() {
        muteAgentThreads = true;
    }

    /** Whether a new state for {@code t} starts busy for good (see {@link #muteAgentThreads}). */
    static boolean mutedThread(Thread t) {
        if (!muteAgentThreads) {
            return false;
        }
        String name = t.getName();
        // Not an event stream's thread ("JFR Event Stream N"): it runs the program's own callbacks.
        return name.startsWith("minitrace-") || name.startsWith("JFR ") && !name.startsWith("JFR Event Stream");
    }

    /**
     * Marks the current thread as inside the agent (its hooks return at once) for code of the agent
     * that runs JDK code outside a hook, such as the transformer.
     *
     * @return whether this call marked it (then {@link #leaveAgent} must be called), false when it
     *     already was inside
     */
    public static boolean enterAgent() {
        try {
            ThreadState s = ThreadStates.current();
            if (s.busy) {
                return false;
            }
            s.busy = true;
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Ends what a successful {@link #enterAgent} began. */
    public static void leaveAgent() {
        try {
            ThreadStates.current().busy = false;
        } catch (Throwable ignored) {
            // no state: nothing was marked
        }
    }

    /**
     * The hooks' one scaffold. Every operation sets the busy flag, {@link #OP_SUPER_CALL} too,
     * although nothing it does can reach instrumented code (it only updates this thread's arrays
     * and, after a restart, drops its buffer, committing nothing): it used to skip the flag, which
     * saved two stores per constructor call and made it the one hook with its own rules.
     */
    private static void guarded(int op, int methodId, int bci, Object object, Object old, Object value) {
        ThreadState s;
        try {
            s = ThreadStates.current();
        } catch (Throwable t) {
            return; // no state (out of memory): trace nothing rather than fail the application
        }
        if (s.busy) {
            return;
        }
        s.busy = true;
        try {
            switch (op) {
                case OP_ENTER -> enter(s, methodId);
                case OP_EXIT -> exit(s, methodId, bci, false);
                case OP_EXIT_BY_EXCEPTION -> exit(s, methodId, 0, true);
                case OP_LEAF -> leaf(s, methodId, bci, false);
                case OP_LEAF_BY_EXCEPTION -> leaf(s, methodId, 0, true);
                case OP_CAUGHT -> caught(s);
                case OP_SUPER_CALL -> superCall(s, methodId);
                case OP_SUPER_RETURNED -> superReturned(s, methodId);
                case OP_ACQUIRE -> records.object(s, TraceBufferFormat.ACQUIRE, object, methodId, bci);
                case OP_RELEASE -> records.object(s, TraceBufferFormat.RELEASE, object, 0, bci);
                case OP_ALLOC -> {
                    records.object(s, TraceBufferFormat.ALLOC, object, 0, bci);
                    if (deathOn) {
                        ObjectDeaths.register(object);
                    }
                }
                case OP_ALLOC_ARRAY -> {
                    records.heap(s, TraceBufferFormat.ARRAY_ALLOC, java.lang.reflect.Array.getLength(object), bci, object, null, null);
                    if (deathOn) {
                        ObjectDeaths.register(object);
                    }
                }
                case OP_ALLOC_AT, OP_ALLOC_ARRAY_AT -> {
                    // The site record names the untraced method; one event per record has no form for it.
                    if (records == Records.PACKED) {
                        records.heap(s, TraceBufferFormat.SITE, methodId, bci, null, null, null);
                        if (op == OP_ALLOC_AT) {
                            records.object(s, TraceBufferFormat.ALLOC, object, 0, bci);
                        } else {
                            records.heap(s, TraceBufferFormat.ARRAY_ALLOC, java.lang.reflect.Array.getLength(object), bci, object, null, null);
                        }
                        if (deathOn) {
                            ObjectDeaths.register(object);
                        }
                    }
                }
                case OP_DEATH -> records.death(s, (Class<?>) object, bci);
                case OP_ENTER_RECEIVER -> {
                    enter(s, methodId);
                    if (receiverOn) {
                        records.heap(s, TraceBufferFormat.RECEIVER, methodId, 0, object, null, null);
                    }
                }
                case OP_THROW -> records.heap(s, TraceBufferFormat.THROW, methodId, bci, object, null, null);
                case OP_HANDLED -> records.heap(s, TraceBufferFormat.HANDLED, methodId, bci, object, null, null);
                case OP_FIELD_STORE -> records.heap(s, TraceBufferFormat.FIELD_STORE, methodId, bci, object, old, value);
                case OP_ARRAY_STORE -> records.heap(s, TraceBufferFormat.ARRAY_STORE, methodId, bci, object, old, value);
                case OP_INIT_STORE -> s.pushInitStore(value, methodId, bci);
                default -> initStores(s, object, methodId);
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        } finally {
            s.busy = false;
        }
    }

    // The fast paths: one method per hook, each small enough that C2 inlines it into a hot hook
    // site even once it was compiled on its own (a callee whose own compiled code is larger than
    // InlineSmallCode, 2,500 bytes, is called, not inlined: "already compiled into a big method",
    // as one method for all three method records was). Each writes its record if it needs nothing
    // but the record: no room made, no skip, no stamp (TraceBuffer#entry and its siblings), no
    // pending constructor found stale and no virtual thread leaving its outermost traced frame;
    // else the scaffold does it all. Nothing they run can reach instrumented code (getClass,
    // identityHashCode and Array.getLength are intrinsics or native, ClassIds#known reads only
    // the agent's table and java.lang.ref), so the busy flag is left alone.

    private static void enterRecord(int methodId) {
        ThreadState s = ThreadStates.cached();
        if (s != null && s.writable() && s.buffer.entry(methodId, s.sequence + 1)) {
            s.sequence++;
            s.depth++;
        } else {
            guarded(OP_ENTER, methodId, 0, null, null, null);
        }
    }

    private static void exitRecord(int methodId, int bci) {
        ThreadState s = ThreadStates.cached();
        if (s != null && s.writable() && s.plainExit() && s.buffer.exit(methodId, bci, s.sequence + 1)) {
            s.sequence++;
            s.depth--;
        } else {
            guarded(OP_EXIT, methodId, bci, null, null, null);
        }
    }

    private static void leafRecord(int methodId, int bci) {
        ThreadState s = ThreadStates.cached();
        if (s != null && s.writable() && s.plainLeaf() && s.buffer.leaf(methodId, bci, s.sequence + 1)) {
            s.sequence += 2;
        } else {
            guarded(OP_LEAF, methodId, bci, null, null, null);
        }
    }

    /**
     * An acquire whose monitor's identity hash is known ({@code hash}, else 0: then the scaffold
     * takes it) and whose class the fast lookup knows ({@link ClassIds#known}), with room to
     * remember the monitor held. The hash is the hook's to take: one expansion of the intrinsic
     * less keeps this under InlineSmallCode.
     */
    private static void acquireRecord(Object monitor, int hash, int bci) {
        ThreadState s = ThreadStates.cached();
        ClassIds.Id id;
        if (s != null && hash != 0 && s.writable() && s.roomToHold() && (id = ClassIds.known(monitor.getClass())) != null
                && s.buffer.object(TraceBufferFormat.ACQUIRE, id.value, hash, bci, s.sequence + 1)) {
            s.sequence++;
            s.hold(monitor, (long) id.value << 32 | hash & 0xFFFFFFFFL);
        } else {
            guarded(OP_ACQUIRE, hash, bci, monitor, null, null);
        }
    }

    /** A release of the innermost monitor the thread remembers holding: the ids of its acquire serve. */
    private static void releaseRecord(Object monitor, int bci) {
        ThreadState s = ThreadStates.cached();
        long ids;
        if (s != null && s.writable() && (ids = s.innermostHeld(monitor)) >= 0
                && s.buffer.object(TraceBufferFormat.RELEASE, (int) (ids >>> 32), (int) ids, bci, s.sequence + 1)) {
            s.sequence++;
            s.releaseInnermost();
        } else {
            guarded(OP_RELEASE, 0, bci, monitor, null, null);
        }
    }

    /** An allocation whose class the fast lookup knows with its size measured, no death watched. */
    private static void allocRecord(Object object, int bci) {
        ThreadState s = ThreadStates.cached();
        ClassIds.Id id;
        if (s != null && s.writable() && !deathOn && (id = ClassIds.known(object.getClass())) != null && id.measured
                && s.buffer.object(TraceBufferFormat.ALLOC, id.value, System.identityHashCode(object), bci, s.sequence + 1)) {
            s.sequence++;
        } else {
            guarded(OP_ALLOC, 0, bci, object, null, null);
        }
    }

    /** An array's allocation whose class the fast lookup knows (an array class is measured from the start), no death watched. */
    private static void arrayRecord(Object array, int bci) {
        ThreadState s = ThreadStates.cached();
        ClassIds.Id id;
        if (s != null && s.writable() && !deathOn && (id = ClassIds.known(array.getClass())) != null
                && s.buffer.array(java.lang.reflect.Array.getLength(array), bci, id.value, System.identityHashCode(array), s.sequence + 1)) {
            s.sequence += TraceBufferFormat.heapParts(TraceBufferFormat.ARRAY_ALLOC);
        } else {
            guarded(OP_ALLOC_ARRAY, 0, bci, array, null, null);
        }
    }

    /**
     * Records the last {@code count} stores kept by {@link #initStore} (fewer if fewer are kept)
     * with holder {@code self}, in their order; a field stored twice has the first value as the
     * second store's old target, else null (a new object's fields start null).
     */
    private static void initStores(ThreadState s, Object self, int count) {
        int from = Math.max(0, s.initStores - count);
        for (int i = from; i < s.initStores; i++) {
            Object old = null;
            for (int j = i - 1; j >= from; j--) {
                if (s.initFields[j] == s.initFields[i]) {
                    old = s.initValues[j];
                    break;
                }
            }
            records.heap(s, TraceBufferFormat.FIELD_STORE, s.initFields[i], s.initBcis[i], self, old, s.initValues[i]);
        }
        for (int i = from; i < s.initStores; i++) {
            s.initValues[i] = null;
        }
        s.initStores = from;
    }

    private static void enter(ThreadState s, int methodId) {
        sync(s);
        s.depth++;
        records.method(s, TraceBufferFormat.ENTRY, methodId, 0);
    }

    private static void exit(ThreadState s, int methodId, int bci, boolean exceptional) {
        sync(s);
        unwindStale(s);
        records.method(s, exceptional ? TraceBufferFormat.EXIT_BY_EXCEPTION : TraceBufferFormat.EXIT, methodId, bci);
        s.depth--;
        retireIfOutermost(s);
    }

    /**
     * {@link #enter} and {@link #exit} of a leaf at once. The exit would unwind no pending
     * constructor: each is pending at a depth no deeper than the current one (an exit unwinds
     * those at its depth before it lowers the depth, and {@link #sync} clears both), and the
     * leaf's exit runs one deeper.
     */
    private static void leaf(ThreadState s, int methodId, int bci, boolean exceptional) {
        sync(s);
        records.leaf(s, exceptional ? TraceBufferFormat.EXIT_BY_EXCEPTION : TraceBufferFormat.EXIT, methodId, bci);
        retireIfOutermost(s);
    }

    /**
     * A virtual thread often ends right after its task: once its outermost traced frame returned,
     * commit its buffer now rather than keep one per finished virtual thread until the next chunk boundary.
     */
    private static void retireIfOutermost(ThreadState s) {
        if (s.depth <= 0 && s.buffer != null && s.buffer.virtual) {
            TraceBuffers.retire(s.buffer);
            s.buffer = null;
        }
    }

    private static void caught(ThreadState s) {
        if (s.pending != 0) {
            sync(s);
            unwindStale(s);
        }
    }

    private static void superCall(ThreadState s, int methodId) {
        sync(s);
        if (s.pending == s.pendingIds.length) {
            s.pendingIds = java.util.Arrays.copyOf(s.pendingIds, s.pending * 2);
            s.pendingDepths = java.util.Arrays.copyOf(s.pendingDepths, s.pending * 2);
        }
        s.pendingIds[s.pending] = methodId;
        s.pendingDepths[s.pending] = s.depth;
        s.pending++;
    }

    private static void superReturned(ThreadState s, int methodId) {
        if (s.pending == 0) {
            return;
        }
        sync(s);
        // Entries above ours are constructors unwound into untraced code that caught the
        // exception; their exits are late but keep entries and exits balanced.
        while (s.pending > 0) {
            int top = s.pending - 1;
            if (s.pendingIds[top] == methodId && s.pendingDepths[top] == s.depth) {
                s.pending--;
                break;
            }
            if (s.pendingDepths[top] < s.depth) {
                break; // not ours: state from before a restart; leave it
            }
            s.pending--;
            records.method(s, TraceBufferFormat.EXIT_BY_EXCEPTION, s.pendingIds[top], 0);
            s.depth--;
        }
    }

    /**
     * Commits the exceptional exits of pending constructors that cannot be alive any more: a frame
     * counted at a depth not above a pending constructor's own depth runs outside it.
     */
    private static void unwindStale(ThreadState s) {
        while (s.pending > 0 && s.pendingDepths[s.pending - 1] >= s.depth) {
            s.pending--;
            records.method(s, TraceBufferFormat.EXIT_BY_EXCEPTION, s.pendingIds[s.pending], 0);
            s.depth--;
        }
    }

    /** Resets the per-thread frame bookkeeping when enablement changed since its last use. */
    static void sync(ThreadState s) {
        int now = epoch;
        if (s.epoch != now) {
            s.epoch = now;
            s.depth = 0;
            s.pending = 0;
            s.forgetMonitors();
            if (s.buffer != null) {
                s.buffer.restart(now);
            }
        }
    }

    /**
     * The package's helper classes that hooks reach, for the agent to load before its transformer
     * exists (as it does for this class), so that no hook triggers their loading.
     */
    public static Class<?>[] helperClasses() {
        return new Class<?>[] {ThreadState.class, TraceBuffer.class, TraceBuffers.class, ClassIds.class, ClassIds.Known.class, ClassIds.Id.class, GcCounters.class, FieldRegistry.class,
            ObjectDeaths.class, ObjectDeaths.Ref.class, ObjectSizes.class,
            TraceClock.class, Records.class, PackedRecords.class, EventRecords.class, TraceSettings.class};
    }
}
