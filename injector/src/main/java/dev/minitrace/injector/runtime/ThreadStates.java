package dev.minitrace.injector.runtime;

/**
 * Finds the current thread's {@link ThreadState} for every hook. A {@code ThreadLocal} lookup
 * (hash probe, weak-reference check) was a quarter of a traced application thread's time in a
 * profile of H2 under the full trace (docs/decisions.md), so a direct-mapped table indexed by
 * the thread's id answers first, and the {@code ThreadLocal} stays the authority behind it.
 *
 * <p>A slot is only ever written by the thread whose state it holds, and read by any: a reader
 * takes the state only if its {@link ThreadState#thread} (a final field, so a racy read sees it
 * initialized) is the reader's own thread, and then every other field was written by that same
 * thread. Two live threads whose ids share a slot both stay correct, on the slow path. A slot
 * keeps a finished thread's state until another thread takes it: at most {@link #SLOTS} of them.
 */
final class ThreadStates {
    /** A power of two; ids are handed out consecutively, so live threads rarely share a slot. */
    static final int SLOTS = 1024;
    private static final ThreadState[] SLOT = new ThreadState[SLOTS];

    private static final ThreadLocal<ThreadState> STATE = new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
            return new ThreadState(Thread.currentThread());
        }
    };

    private ThreadStates() {
    }

    /**
     * The current thread's state if its slot holds it, else null (then {@link #current} finds
     * it): the whole lookup of the hooks' fast paths, small enough for the JIT to inline.
     */
    @SuppressWarnings("deprecation") // as current()
    static ThreadState cached() {
        Thread t = Thread.currentThread();
        ThreadState s = SLOT[(int) t.getId() & (SLOTS - 1)];
        return s != null && s.thread == t ? s : null;
    }

    /** The current thread's state. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+; an overriding getId only costs the slow path
    static ThreadState current() {
        Thread t = Thread.currentThread();
        int slot = (int) t.getId() & (SLOTS - 1);
        ThreadState s = SLOT[slot];
        if (s != null && s.thread == t) {
            return s;
        }
        s = STATE.get();
        if (s.undecided) {
            s.undecided = false;
            s.busy = Trace.mutedThread(t); // hooks reached from here find the state busy
        }
        SLOT[slot] = s;
        return s;
    }
}
