package dev.minitrace.injector.runtime;

/**
 * The per-thread mutable state of the hooks: the thread's event sequence and a re-entrancy flag.
 * One instance per thread (a virtual thread has its own), never shared, so no synchronization.
 */
final class ThreadState {
    /** The thread this state belongs to ({@link ThreadStates} checks it before handing the state out). */
    final Thread thread;
    /** The sequence of the last committed minitrace event of this thread; the first event gets 1. */
    long sequence;
    /** True while a hook of this thread is committing an event: nested hook calls return at once. */
    boolean busy;
    /**
     * Traced frames entered minus exited on this thread since {@link #epoch}; a constructor whose
     * {@code super(…)} threw has no exit and stays counted until found stale.
     */
    int depth;
    /** The enablement epoch this state belongs to; a change resets depth and pending constructors. */
    int epoch;
    /** Ids of constructors currently inside their {@code super(…)}/{@code this(…)} call. */
    int[] pendingIds = new int[8];
    /** The {@link #depth} of each pending constructor's own frame. */
    int[] pendingDepths = new int[8];
    /** Number of pending constructors. */
    int pending;
    /** Packed method records not yet committed; null until the first buffered record. */
    TraceBuffer buffer;

    /**
     * The monitors this thread acquired through the lock hooks and has not released yet (innermost
     * last), with the ids their acquire record carried ({@link #heldIds}: class id and identity
     * hash): a release reuses them instead of hashing an object it holds, which on a stack-locked
     * monitor is a call into the VM (docs/decisions.md). An object's class and identity hash never
     * change, so a reused id is the one the release would have computed.
     */
    private Object[] heldMonitors = new Object[8];
    /** Per held monitor, {@code classId << 32 | identityHash & 0xFFFFFFFFL}. */
    private long[] heldIds = new long[8];
    private int held;
    /** Held monitors beyond which the oldest entries are forgotten: releases missed by a hook (busy, or switched off) must not grow it forever. */
    private static final int MAX_HELD = 256;

    /**
     * True from creation until {@link ThreadStates} decided whether the thread is muted
     * ({@link Trace#mutedThread}): that asks for the thread's name, JDK code that may itself carry
     * hooks, so it runs once the state is reachable and busy.
     */
    boolean undecided;

    ThreadState(Thread thread) {
        this.thread = thread;
        if (Trace.muteAgentThreads) {
            busy = true;
            undecided = true;
        }
    }

    /**
     * Whether a hook's fast path may write into {@link #buffer} now: no hook of this thread is
     * running, the buffer exists and belongs to the current enablement epoch, and records go to
     * buffers ({@link Trace#packedEpoch} is -1 otherwise).
     */
    boolean writable() {
        return !busy && epoch == Trace.packedEpoch && buffer != null;
    }

    /**
     * Whether an exit now is only its record: no pending constructor is found stale (the exit
     * would commit its exceptional exit first) and no virtual thread leaves its outermost traced
     * frame (its buffer would retire). Only when {@link #writable}.
     */
    boolean plainExit() {
        return (pending == 0 || pendingDepths[pending - 1] < depth) && (depth > 1 || !buffer.virtual);
    }

    /** Whether a leaf call now is only its record (no virtual thread's outermost traced frame). Only when {@link #writable}. */
    boolean plainLeaf() {
        return depth > 0 || !buffer.virtual;
    }

    /** Remembers that {@code monitor}, of record ids {@code ids}, was just acquired. */
    void monitorAcquired(Object monitor, long ids) {
        if (held == heldMonitors.length) {
            if (held == MAX_HELD) {
                forgetMonitors();
            } else {
                heldMonitors = java.util.Arrays.copyOf(heldMonitors, held * 2);
                heldIds = java.util.Arrays.copyOf(heldIds, held * 2);
            }
        }
        heldMonitors[held] = monitor;
        heldIds[held] = ids;
        held++;
    }

    /**
     * The ids of {@code monitor}'s acquire, forgotten now that it is released, or -1 when this
     * thread does not remember acquiring it. Nearly always the innermost one (structured locking);
     * another one is searched for and taken out of the middle.
     */
    long monitorReleased(Object monitor) {
        for (int i = held - 1; i >= 0; i--) {
            if (heldMonitors[i] == monitor) {
                long ids = heldIds[i];
                held--;
                if (i != held) {
                    System.arraycopy(heldMonitors, i + 1, heldMonitors, i, held - i);
                    System.arraycopy(heldIds, i + 1, heldIds, i, held - i);
                }
                heldMonitors[held] = null;
                return ids;
            }
        }
        return -1;
    }

    /**
     * For the fast path of an acquire: whether {@link #monitorAcquired} has room without growing
     * or forgetting (JDK code, {@code java.util.Arrays}, which a filter may rewrite).
     */
    boolean roomToHold() {
        return held < heldMonitors.length;
    }

    /** Remembers {@code monitor} as {@link #monitorAcquired} does, where {@link #roomToHold} said there is room. */
    void hold(Object monitor, long ids) {
        heldMonitors[held] = monitor;
        heldIds[held] = ids;
        held++;
    }

    /** For the fast path of a release: the ids {@link #monitorReleased} would return if {@code monitor} is the innermost held one, else -1. */
    long innermostHeld(Object monitor) {
        int i = held - 1;
        return i >= 0 && heldMonitors[i] == monitor ? heldIds[i] : -1;
    }

    /** Forgets the innermost held monitor, which {@link #innermostHeld} found. */
    void releaseInnermost() {
        heldMonitors[--held] = null;
    }

    /** Forgets every held monitor (enablement changed, or too many releases were missed). */
    void forgetMonitors() {
        java.util.Arrays.fill(heldMonitors, 0, held, null);
        held = 0;
    }

    /**
     * Reference stores made before a constructor's {@code super(…)} call, where {@code this} is
     * still uninitialized and cannot be passed to a hook: recorded once the call returned
     * ({@code Trace.initStores}). A stack, innermost constructor's stores last.
     */
    Object[] initValues = new Object[4];
    int[] initFields = new int[4];
    int[] initBcis = new int[4];
    int initStores;

    void pushInitStore(Object value, int fieldId, int bci) {
        if (initStores == initValues.length) {
            initValues = java.util.Arrays.copyOf(initValues, initStores * 2);
            initFields = java.util.Arrays.copyOf(initFields, initStores * 2);
            initBcis = java.util.Arrays.copyOf(initBcis, initStores * 2);
        }
        initValues[initStores] = value;
        initFields[initStores] = fieldId;
        initBcis[initStores] = bci;
        initStores++;
    }

    /** Method ids of the open captured calls of this thread (innermost last). */
    int[] captureIds = new int[4];
    /** Their events, begun at entry. */
    dev.minitrace.events.MethodCaptureEvent[] captures = new dev.minitrace.events.MethodCaptureEvent[4];
    /** Number of open captured calls. */
    int openCaptures;

    void pushCapture(int methodId, dev.minitrace.events.MethodCaptureEvent event) {
        if (openCaptures == captureIds.length) {
            captureIds = java.util.Arrays.copyOf(captureIds, openCaptures * 2);
            captures = java.util.Arrays.copyOf(captures, openCaptures * 2);
        }
        captureIds[openCaptures] = methodId;
        captures[openCaptures] = event;
        openCaptures++;
    }

    /** The innermost open call's event if it is {@code methodId}'s (then it is closed), else null. */
    dev.minitrace.events.MethodCaptureEvent popCapture(int methodId) {
        if (openCaptures == 0 || captureIds[openCaptures - 1] != methodId) {
            return null;
        }
        openCaptures--;
        dev.minitrace.events.MethodCaptureEvent e = captures[openCaptures];
        captures[openCaptures] = null;
        return e;
    }
}
