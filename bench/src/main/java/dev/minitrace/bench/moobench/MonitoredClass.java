package dev.minitrace.bench.moobench;

/**
 * MooBench's system under test: the one method every tracer instruments. A call at depth
 * {@code d > 1} calls itself at {@code d - 1}; the innermost call spins on the clock for
 * {@code methodTime} nanoseconds (0 in MooBench's standard set-up: a single clock read) and
 * returns the time it stopped, so a top-level call is a call tree of exactly {@code d} calls.
 */
public final class MonitoredClass {
    /** The recursion, then the busy wait; the returned time keeps the JIT from removing either. */
    public long monitoredMethod(long methodTime, int depth) {
        if (depth > 1) {
            return monitoredMethod(methodTime, depth - 1);
        }
        long end = System.nanoTime() + methodTime;
        long now = System.nanoTime();
        while (now < end) {
            now = System.nanoTime();
        }
        return now;
    }
}
