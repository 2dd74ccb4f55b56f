package dev.minitrace.bench;

import dev.minitrace.wire.RecorderOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options with which the benchmarks trace a child: MiniTrace's agent, a recording as
 * {@code bin/mt run} starts it, and JEP 520's method tracing. One place, so that every benchmark
 * measures the same set-up users get.
 */
public final class TracerOptions {
    private TracerOptions() {
    }

    /** JFR's buffers and chunk size, as {@code bin/mt run} sets them. */
    public static final String RECORDER_OPTIONS = RecorderOptions.FLIGHT_RECORDER_OPTIONS;

    /** {@code -javaagent:} for MiniTrace's agent jar with its options ({@code include=...,events=...}). */
    public static String agent(Path agentJar, String agentOptions) {
        return "-javaagent:" + agentJar + "=" + agentOptions;
    }

    /**
     * A recording started at launch as {@code bin/mt run --out FILE.jfr} starts it: {@code settings}
     * (a .jfc file, optionally followed by {@code ,+event#setting=value} additions), written to
     * {@code file} at exit, nothing dropped (maxsize=0, and a 64 MB global buffer so JFR does not
     * discard data under a high event rate), in 64 MB chunks.
     */
    public static List<String> recording(String name, String settings, Path file) {
        return List.of(RECORDER_OPTIONS, RecorderOptions.startFlightRecording(name, settings, file.toString()));
    }

    /**
     * As {@link #recording}, but as {@code bin/mt run --out FILE.mtlog} starts it on a JDK
     * {@code feature} with {@code preserve-repository} (21+): the chunk files stay in JFR's
     * repository {@code repository}, in a folder of their own under it, and JFR copies them
     * nowhere at exit.
     */
    public static List<String> recordingInRepository(String name, String settings, Path repository, int feature) {
        return List.of(RecorderOptions.flightRecorderOptions(feature, repository.toString()),
                RecorderOptions.startFlightRecording(name, settings, null));
    }

    /** Whether a child of JDK {@code feature} can keep its recording in the repository ({@link #recordingInRepository}). */
    public static boolean keepsRepository(int feature) {
        return feature >= RecorderOptions.PRESERVE_REPOSITORY_SINCE;
    }

    /**
     * JEP 520 (JDK 25+): {@code jdk.MethodTrace} of the methods {@code filter} names
     * ({@code Class::method;...}), without stack traces, as additions after {@code settings=}.
     */
    public static String methodTrace(String filter) {
        return "+jdk.MethodTrace#enabled=true,+jdk.MethodTrace#stackTrace=false,+jdk.MethodTrace#filter=" + filter;
    }

    /**
     * {@code configs} as they can run on a child of JDK {@code feature}: JEP 520's configuration
     * {@code jep520} needs JDK 25; below it, it is left out, or refused when the user named it.
     */
    public static List<String> runnable(List<String> configs, boolean named, int feature) throws BenchArgs.Usage {
        List<String> out = new ArrayList<>(configs);
        if (feature < 25 && out.contains("jep520")) {
            if (named) {
                throw new BenchArgs.Usage("--configs jep520 needs a JDK 25 or later child (--java); this one is JDK " + feature);
            }
            out.remove("jep520");
        }
        return out;
    }
}
