package dev.minitrace.injector.runtime;

import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every thread's {@link TraceBuffer}, so that JFR's periodic thread can commit them all at each
 * chunk boundary. A buffer leaves the set once its thread has ended and its records are committed.
 */
final class TraceBuffers {
    private static final Set<TraceBuffer> ALL = ConcurrentHashMap.newKeySet();

    private TraceBuffers() {
    }

    /** A new buffer for the current thread, whose next sequence number is {@code nextSequence}. */
    static TraceBuffer create(long nextSequence) {
        TraceBuffer b = new TraceBuffer(Thread.currentThread(), nextSequence, Trace.epoch);
        ALL.add(b);
        return b;
    }

    /** The owner is done with {@code b} for now (a virtual thread left its traced frames): commit and forget it. */
    static void retire(TraceBuffer b) {
        b.flushFull();
        ALL.remove(b);
    }

    /** Commits every buffer's published records (runs at chunk boundaries, on JFR's periodic thread). */
    static void flushAll() {
        for (Iterator<TraceBuffer> it = ALL.iterator(); it.hasNext();) {
            TraceBuffer b = it.next();
            // Read before flushing: a thread that ends after the flush may still have added records.
            boolean ended = !b.owner.isAlive();
            try {
                b.flushPublished();
            } catch (Throwable t) {
                // One bad buffer must not stop the others (or JFR's periodic thread).
            }
            if (ended) {
                it.remove();
            }
        }
    }
}
