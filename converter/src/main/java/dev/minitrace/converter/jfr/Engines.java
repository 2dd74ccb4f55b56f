package dev.minitrace.converter.jfr;

/** The available {@link RecordingSource} engines by name, so the command line can choose one. */
public final class Engines {
    /** The engine used when none is named. */
    public static final String DEFAULT = "recordingfile";

    private Engines() {
    }

    /** The engine called {@code name}; an unknown name is an {@link IllegalArgumentException} with a one-line message. */
    public static RecordingSource byName(String name) {
        if (name.equals("recordingfile")) {
            return new RecordingFileSource();
        }
        throw new IllegalArgumentException("unknown engine '" + name + "' (available: recordingfile)");
    }
}
