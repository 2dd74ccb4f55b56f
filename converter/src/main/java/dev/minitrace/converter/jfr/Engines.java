package dev.minitrace.converter.jfr;

/**
 * The available {@link RecordingSource} engines by name, so the command line can choose one:
 * {@code fast} (MiniTrace's own chunk parser, the default) and {@code recordingfile}
 * ({@code jdk.jfr.consumer.RecordingFile}, the reference, kept as a fallback and a test oracle).
 */
public final class Engines {
    /** The engine used when none is named. */
    public static final String DEFAULT = "fast";

    private Engines() {
    }

    /** The engine called {@code name}; an unknown name is an {@link IllegalArgumentException} with a one-line message. */
    public static RecordingSource byName(String name) {
        return switch (name) {
            case "fast" -> new FastRecordingSource();
            case "recordingfile" -> new RecordingFileSource();
            default -> throw new IllegalArgumentException("unknown engine '" + name + "' (available: fast, recordingfile)");
        };
    }
}
