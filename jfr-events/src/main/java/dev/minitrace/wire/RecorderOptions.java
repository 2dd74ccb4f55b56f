package dev.minitrace.wire;

/**
 * JFR's options for a traced JVM ({@code -XX:FlightRecorderOptions:...} and
 * {@code -XX:StartFlightRecording:...}), the one place {@code mt run}, {@code mt attach}'s hints and
 * the benchmarks take them from, so that every benchmark measures the set-up users get.
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

    /** The first JDK whose JFR has {@code preserve-repository}. */
    public static final int PRESERVE_REPOSITORY_SINCE = 21;

    private RecorderOptions() {
    }

    /**
     * {@link #FLIGHT_RECORDER_OPTIONS}, and on a JDK {@code feature} that has it
     * {@code preserve-repository=true}: JFR then keeps its chunk files after the JVM exits in any
     * way, so that a recording that ends badly can still be recovered.
     */
    public static String flightRecorderOptions(int feature) {
        return FLIGHT_RECORDER_OPTIONS + (feature >= PRESERVE_REPOSITORY_SINCE ? ",preserve-repository=true" : "");
    }

    /**
     * As {@link #flightRecorderOptions(int)} on a JDK that has {@code preserve-repository}, with
     * JFR's repository in {@code repository}: the chunk files of a recording without
     * {@code filename=} stay there after the JVM exits, to be read in place, and JFR copies the
     * recording nowhere at exit (for H2's 2.3 GB trace that copy takes seconds).
     *
     * @throws IllegalArgumentException on a JDK without {@code preserve-repository}
     */
    public static String flightRecorderOptions(int feature, String repository) {
        if (feature < PRESERVE_REPOSITORY_SINCE) {
            throw new IllegalArgumentException("JDK " + feature + " has no preserve-repository");
        }
        return flightRecorderOptions(feature) + ",repository=" + repository;
    }

    /**
     * {@code -XX:StartFlightRecording:name=NAME,settings=SETTINGS[,filename=FILE,dumponexit=true],maxsize=0,disk=true}:
     * a recording that keeps everything ({@code maxsize=0} means no size limit on JDK 17 and 25;
     * {@code maxage} is deliberately absent: its default is "no limit", while {@code maxage=0}
     * keeps almost nothing on JDK 17, docs/profiles.md). With {@code filename} null it is written
     * nowhere at exit: it stays in JFR's repository ({@link #flightRecorderOptions(int, String)}).
     * {@code settings} is a .jfc file, optionally followed by {@code ,+event#setting=value} additions.
     */
    public static String startFlightRecording(String name, String settings, String filename) {
        return "-XX:StartFlightRecording:name=" + name + ",settings=" + settings
                + (filename != null ? ",filename=" + filename + ",dumponexit=true" : "")
                + ",maxsize=0,disk=true";
    }
}
