package dev.minitrace.launch;

import dev.minitrace.wire.RecorderOptions;
import java.nio.file.Path;

/**
 * The JVM options that start MiniTrace's JFR recording in a launched program, as
 * {@link RecorderOptions} spells them, with the paths checked: a comma ends a JFR option value.
 */
public final class RecordingOptions {
    /** The recording's name, for {@code jcmd <pid> JFR.dump name=minitrace filename=...}. */
    public static final String NAME = "minitrace";

    private RecordingOptions() {
    }

    /**
     * {@code -XX:StartFlightRecording:name=minitrace,settings=PROFILE,filename=FILE,dumponexit=true,maxsize=0,disk=true}.
     *
     * @throws IllegalArgumentException if a path contains a comma, which ends a JFR option value
     */
    public static String startFlightRecording(Path profile, Path file) {
        return RecorderOptions.startFlightRecording(NAME, value("--jfc", profile), value("--out", file));
    }

    /**
     * {@code -XX:StartFlightRecording:name=minitrace,settings=PROFILE,maxsize=0,disk=true}: a
     * recording that stays in JFR's repository, its chunk files, and is copied nowhere at exit
     * (with {@link #flightRecorderOptions(int, Path)}'s {@code preserve-repository=true} they are
     * kept).
     */
    public static String startFlightRecording(Path profile) {
        return RecorderOptions.startFlightRecording(NAME, value("--jfc", profile), null);
    }

    /**
     * {@link RecorderOptions#flightRecorderOptions(int)}: with {@code preserve-repository=true} on
     * a JDK {@code feature} that has it, which {@link TracedProcess} undoes once the recording is
     * known to be complete.
     */
    public static String flightRecorderOptions(int feature) {
        return RecorderOptions.flightRecorderOptions(feature);
    }

    /** {@link RecorderOptions#flightRecorderOptions(int, String)} with JFR's repository in {@code repository}. */
    public static String flightRecorderOptions(int feature, Path repository) {
        return RecorderOptions.flightRecorderOptions(feature, value("--out", repository));
    }

    private static String value(String option, Path path) {
        String s = path.toString();
        if (s.indexOf(',') >= 0) {
            throw new IllegalArgumentException(option + " " + s + ": JFR cannot take a path with a comma");
        }
        return s;
    }
}
