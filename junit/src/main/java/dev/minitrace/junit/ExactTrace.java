package dev.minitrace.junit;

/**
 * What a {@link Traced} test takes as a parameter to count a block of its code exactly:
 * {@code ExactCounts c = trace.run(() -> dao.query(1)); assertEquals(1, c.calls("com.acme.Dao::query"));}.
 */
public interface ExactTrace {
    /** Code a test runs under the trace. */
    @FunctionalInterface
    interface Block {
        /** Runs the code. */
        void run() throws Throwable;
    }

    /**
     * Runs {@code block} with the trace on and returns the counts of the methods the test's
     * {@link Traced} names. A throwable of the block is thrown on, after the trace is stopped.
     */
    ExactCounts run(Block block) throws Throwable;
}
