package dev.minitrace.wire;

/**
 * JFR's recorder settings for a traced JVM ({@code -XX:FlightRecorderOptions:...}), the one place
 * {@code mt run}, {@code mt attach}'s hints and the benchmarks take them from, so that every
 * benchmark measures the set-up users get.
 */
public final class RecorderOptions {
    /**
     * JFR's in-memory buffers. The default (10 MB) loses events when several threads commit
     * millions of small events (docs/profiles.md has the measurement); lost data shows up as
     * {@code jdk.DataLoss} events.
     */
    public static final String MEMORY_SIZE = "64m";
    /**
     * JFR's chunk size (12 MB by default, which JDK 17 keeps to): the agent commits every method
     * definition again at the start and end of each chunk, which on ecj's JDK 17 trace (44 chunks)
     * is 0.21 of its 3.2 bytes per record. Fewer, larger chunks write them fewer times; the
     * converter reads chunks of up to 200 MB within its memory bound (docs/performance.md).
     */
    public static final String MAX_CHUNK_SIZE = "64m";

    /** {@code -XX:FlightRecorderOptions:memorysize=64m,maxchunksize=64m}; a constant, for picocli's help text. */
    public static final String FLIGHT_RECORDER_OPTIONS =
            "-XX:FlightRecorderOptions:memorysize=" + MEMORY_SIZE + ",maxchunksize=" + MAX_CHUNK_SIZE;

    private RecorderOptions() {
    }
}
