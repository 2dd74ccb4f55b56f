package dev.minitrace.cli;

/** A failure a command reports as one line on stderr, with its exit status. */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    /** A failure with the given one-line message and exit status. */
    public CliException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** A failure with the given one-line message, exit status 1. */
    public CliException(String message) {
        this(message, ExitCodes.FAILED);
    }

    /** The exit status the command returns. */
    public int exitCode() {
        return exitCode;
    }
}
