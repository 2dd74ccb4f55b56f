package dev.minitrace.injector.runtime;

import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import dev.minitrace.wire.TraceBufferFormat;

/**
 * The hooks that instrumented code calls. Every hook first reads one volatile flag for its event
 * kind and returns when no running recording enables that event, so untraced cost is one load and
 * a branch. Hooks never throw, never call application code (only {@code getClass} and
 * {@link System#identityHashCode}), and a hook reached while the same thread is already inside a
 * hook returns at once.
 *
 * <p>Every committed event gets the next value of its thread's sequence, shared by all minitrace
 * event kinds, starting at 1.
 *
 * <p>Method entries and exits, monitor uses and allocations go, by default, into the thread's
 * {@link TraceBuffer} as packed records (one {@code minitrace.MethodBuffer} event per few hundred),
 * and otherwise one JFR event each; the sequence is shared either way.
 */
public final class Trace {
    /** True when a running recording may enable method entry or exit events. */
    static volatile boolean methodOn;
    /** True when a running recording may enable lock acquire or release events. */
    static volatile boolean lockOn;
    /** True when a running recording may enable allocation events. */
    static volatile boolean allocOn;
    /** Changes whenever method events are switched on or off (see ThreadState#epoch). */
    static volatile int epoch;
    /** Method records go to per-thread buffers (written before {@link #methodOn}, read after it). */
    static boolean buffered;
    /** The agent's choice ({@code methods=}); {@link Enablement} turns {@link #buffered} on when JFR allows. */
    static volatile boolean preferBuffered = true;

    private static final ThreadLocal<ThreadState> STATE = new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
            return new ThreadState();
        }
    };

    private Trace() {
    }

    /** The current thread's state (shared with {@link Capture}, whose busy flag it shares). */
    static ThreadState state() {
        return STATE.get();
    }

    /** Method, constructor or static initializer {@code methodId} was entered. */
    public static void enter(int methodId) {
        if (!methodOn) {
            return;
        }
        try {
            ThreadState s = STATE.get();
            if (s.busy) {
                return;
            }
            s.busy = true;
            try {
                sync(s);
                s.depth++;
                if (buffered) {
                    buffer(s).record(TraceBufferFormat.ENTRY, methodId, 0, ++s.sequence);
                    return;
                }
                MethodEntryEvent e = new MethodEntryEvent();
                if (e.shouldCommit()) {
                    e.methodId = methodId;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    /** Method {@code methodId} returns normally by the return instruction at {@code bci}. */
    public static void exit(int methodId, int bci) {
        if (!methodOn) {
            return;
        }
        exit(methodId, bci, false);
    }

    /** An exception propagates out of method {@code methodId}. */
    public static void exitByException(int methodId) {
        if (!methodOn) {
            return;
        }
        exit(methodId, 0, true);
    }

    private static void exit(int methodId, int bci, boolean exceptional) {
        try {
            ThreadState s = STATE.get();
            if (s.busy) {
                return;
            }
            s.busy = true;
            try {
                sync(s);
                unwindStale(s);
                commitExit(s, methodId, bci, exceptional);
                if (--s.depth <= 0 && s.buffer != null && s.buffer.virtual) {
                    // A virtual thread often ends right after its task: commit now rather than
                    // keep one buffer per finished virtual thread until the next chunk boundary.
                    TraceBuffers.retire(s.buffer);
                    s.buffer = null;
                }
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    /**
     * An original exception handler of a traced method starts: constructors that were inside their
     * {@code super(…)} call below the catching frame have been unwound; commit their exits now.
     */
    public static void caught() {
        if (!methodOn) {
            return;
        }
        try {
            ThreadState s = STATE.get();
            if (s.busy || s.pending == 0) {
                return;
            }
            s.busy = true;
            try {
                sync(s);
                unwindStale(s);
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    /** Constructor {@code methodId} is about to call {@code super(…)} or {@code this(…)}. */
    public static void superCall(int methodId) {
        if (!methodOn) {
            return;
        }
        try {
            ThreadState s = STATE.get();
            if (s.busy) {
                return;
            }
            sync(s);
            if (s.pending == s.pendingIds.length) {
                s.pendingIds = java.util.Arrays.copyOf(s.pendingIds, s.pending * 2);
                s.pendingDepths = java.util.Arrays.copyOf(s.pendingDepths, s.pending * 2);
            }
            s.pendingIds[s.pending] = methodId;
            s.pendingDepths[s.pending] = s.depth;
            s.pending++;
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    /** The {@code super(…)}/{@code this(…)} call of constructor {@code methodId} returned. */
    public static void superReturned(int methodId) {
        if (!methodOn) {
            return;
        }
        try {
            ThreadState s = STATE.get();
            if (s.busy || s.pending == 0) {
                return;
            }
            s.busy = true;
            try {
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
                    commitExit(s, s.pendingIds[top], 0, true);
                    s.depth--;
                }
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    /**
     * Commits the exceptional exits of pending constructors that cannot be alive any more: a frame
     * counted at a depth not above a pending constructor's own depth runs outside it.
     */
    private static void unwindStale(ThreadState s) {
        while (s.pending > 0 && s.pendingDepths[s.pending - 1] >= s.depth) {
            s.pending--;
            commitExit(s, s.pendingIds[s.pending], 0, true);
            s.depth--;
        }
    }

    private static void commitExit(ThreadState s, int methodId, int bci, boolean exceptional) {
        if (buffered) {
            buffer(s).record(exceptional ? TraceBufferFormat.EXIT_BY_EXCEPTION : TraceBufferFormat.EXIT, methodId, bci, ++s.sequence);
            return;
        }
        MethodExitEvent e = new MethodExitEvent();
        if (e.shouldCommit()) {
            e.methodId = methodId;
            e.bytecodeIndex = bci;
            e.exceptional = exceptional;
            e.sequence = ++s.sequence;
            e.commit();
        }
    }

    /** The thread's buffer, made on its first record. */
    private static TraceBuffer buffer(ThreadState s) {
        TraceBuffer b = s.buffer;
        if (b == null) {
            b = TraceBuffers.create(s.sequence + 1);
            s.buffer = b;
        }
        return b;
    }

    /**
     * The package's helper classes that hooks reach, for the agent to load before its transformer
     * exists (as it does for this class), so that no hook triggers their loading.
     */
    public static Class<?>[] helperClasses() {
        return new Class<?>[] {ThreadState.class, TraceBuffer.class, TraceBuffers.class, ClassIds.class, GcCounters.class,
            TraceClock.class};
    }

    /** Whether method records go to per-thread buffers now (for tests and verbose output). */
    public static boolean bufferedMethods() {
        return buffered;
    }

    /** The agent option {@code methods=}: buffered records (true) or one event per entry and exit. */
    public static void preferBuffered(boolean buffer) {
        preferBuffered = buffer;
    }

    /** Resets the per-thread frame bookkeeping when enablement changed since its last use. */
    private static void sync(ThreadState s) {
        int now = epoch;
        if (s.epoch != now) {
            s.epoch = now;
            s.depth = 0;
            s.pending = 0;
            if (s.buffer != null) {
                s.buffer.restart(now);
            }
        }
    }

    /** The current thread now holds {@code monitor}, acquired at {@code bci} (0: synchronized method). */
    public static void lockAcquire(Object monitor, int bci) {
        if (!lockOn || monitor == null) {
            return;
        }
        objectRecord(TraceBufferFormat.ACQUIRE, monitor, bci);
    }

    /** The current thread is about to release {@code monitor} at {@code bci} (0: synchronized method). */
    public static void lockRelease(Object monitor, int bci) {
        if (!lockOn || monitor == null) {
            return;
        }
        objectRecord(TraceBufferFormat.RELEASE, monitor, bci);
    }

    /** {@code object} was allocated (and constructed) by the instruction at {@code bci}. */
    public static void alloc(Object object, int bci) {
        if (!allocOn || object == null) {
            return;
        }
        objectRecord(TraceBufferFormat.ALLOC, object, bci);
    }

    /** The shared body of the three object hooks: a packed record, or one JFR event of the kind. */
    private static void objectRecord(int kind, Object object, int bci) {
        try {
            ThreadState s = STATE.get();
            if (s.busy) {
                return;
            }
            s.busy = true;
            try {
                if (buffered) {
                    sync(s);
                    buffer(s).recordObject(kind, ClassIds.of(object.getClass()), System.identityHashCode(object), bci, ++s.sequence);
                } else {
                    commitObjectEvent(kind, s, object, bci);
                }
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Tracing must never change the application's behaviour.
        }
    }

    // Each kind has its own JFR event class (their fields differ in name), hence one branch each.
    private static void commitObjectEvent(int kind, ThreadState s, Object object, int bci) {
        switch (kind) {
            case TraceBufferFormat.ACQUIRE -> {
                LockAcquireEvent e = new LockAcquireEvent();
                if (e.shouldCommit()) {
                    e.monitorClass = object.getClass();
                    e.identityHash = System.identityHashCode(object);
                    e.bytecodeIndex = bci;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
            case TraceBufferFormat.RELEASE -> {
                LockReleaseEvent e = new LockReleaseEvent();
                if (e.shouldCommit()) {
                    e.monitorClass = object.getClass();
                    e.identityHash = System.identityHashCode(object);
                    e.bytecodeIndex = bci;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
            default -> {
                ObjectAllocEvent e = new ObjectAllocEvent();
                if (e.shouldCommit()) {
                    e.objectClass = object.getClass();
                    e.identityHash = System.identityHashCode(object);
                    e.bytecodeIndex = bci;
                    e.sequence = ++s.sequence;
                    e.commit();
                }
            }
        }
    }

    /** Sets the enablement flags; called by {@link Enablement}. */
    static void setEnabled(boolean method, boolean buffer, boolean lock, boolean alloc) {
        buffered = buffer;
        setEnabled(method, lock, alloc);
    }

    /** Sets the enablement flags, method records keeping their current form. */
    static void setEnabled(boolean method, boolean lock, boolean alloc) {
        if (method != methodOn) {
            epoch++;
        }
        methodOn = method;
        lockOn = lock;
        allocOn = alloc;
    }

    /** Whether method events are currently enabled (for tests and verbose output). */
    public static boolean methodEnabled() {
        return methodOn;
    }

    /** Whether lock events are currently enabled. */
    public static boolean lockEnabled() {
        return lockOn;
    }

    /** Whether allocation events are currently enabled. */
    public static boolean allocEnabled() {
        return allocOn;
    }
}
