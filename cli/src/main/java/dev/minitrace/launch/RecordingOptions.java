package dev.minitrace.launch;

import dev.minitrace.wire.RecorderOptions;
import java.nio.file.Path;

/**
 * The JVM options that start MiniTrace's JFR recording. The recording keeps everything: JFR
 * otherwise drops the oldest chunks once a recording passes its size limit (250 MB by default).
 */
public final class RecordingOptions {
    /** The recording's name, for {@code jcmd <pid> JFR.dump name=minitrace filename=...}. */
    public static final String NAME = "minitrace";
    private RecordingOptions() {
    }

    /**
     * {@code -XX:StartFlightRecording:name=minitrace,settings=PROFILE,filename=FILE,dumponexit=true,maxsize=0,disk=true}.
     * {@code maxsize=0} means no size limit on JDK 17 and 25. {@code maxage} is deliberately
     * absent: its default is "no limit", while {@code maxage=0} keeps almost nothing on JDK 17
     * (docs/profiles.md).
     *
     * @throws IllegalArgumentException if a path contains a comma, which ends a JFR option value
     */
    public static String startFlightRecording(Path profile, Path file) {
        return "-XX:StartFlightRecording:name=" + NAME
                + ",settings=" + value("--jfc", profile)
                + ",filename=" + value("--out", file)
                + ",dumponexit=true,maxsize=0,disk=true";
    }

    /**
     * {@code -XX:StartFlightRecording:name=minitrace,settings=PROFILE,maxsize=0,disk=true}: a
     * recording that stays in JFR's repository, its chunk files, and is copied nowhere at exit
     * (with {@link #flightRecorderOptions(int, Path)}'s {@code preserve-repository=true} they are
     * kept).
     */
    public static String startFlightRecording(Path profile) {
        return "-XX:StartFlightRecording:name=" + NAME + ",settings=" + value("--jfc", profile) + ",maxsize=0,disk=true";
    }

    /** The first JDK whose JFR has {@code preserve-repository}. */
    public static final int PRESERVE_REPOSITORY_SINCE = 21;

    /**
     * {@link RecorderOptions#FLIGHT_RECORDER_OPTIONS}, and on a JDK
     * {@code feature} that has it {@code preserve-repository=true}: JFR then keeps its chunk files
     * after the JVM exits in any way, which {@link TracedProcess} undoes once the recording is
     * known to be complete.
     */
    public static String flightRecorderOptions(int feature) {
        return RecorderOptions.FLIGHT_RECORDER_OPTIONS
                + (feature >= PRESERVE_REPOSITORY_SINCE ? ",preserve-repository=true" : "");
    }

    /**
     * As {@link #flightRecorderOptions(int)} on a JDK that has {@code preserve-repository}, with
     * JFR's repository in {@code repository}: the chunk files of a recording without
     * {@code filename=} stay there after the JVM exits, to be read in place.
     */
    public static String flightRecorderOptions(int feature, Path repository) {
        if (feature < PRESERVE_REPOSITORY_SINCE) {
            throw new IllegalArgumentException("JDK " + feature + " has no preserve-repository");
        }
        return flightRecorderOptions(feature) + ",repository=" + value("--out", repository);
    }

    private static String value(String option, Path path) {
        String s = path.toString();
        if (s.indexOf(',') >= 0) {
            throw new IllegalArgumentException(option + " " + s + ": JFR cannot take a path with a comma");
        }
        return s;
    }
}
