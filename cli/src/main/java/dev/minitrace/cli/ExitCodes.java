package dev.minitrace.cli;

/** The exit statuses of every {@code mt} command. */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** The command failed; its one-line message says why. */
    public static final int FAILED = 1;
    /** The command line was wrong. */
    public static final int USAGE = 2;
    /** The input was truncated or lost data; everything complete was converted. */
    public static final int PARTIAL = 3;
    /** {@code mt diff}: a row crossed a {@code --fail-if} bound. */
    public static final int THRESHOLD = 4;

    private ExitCodes() {
    }
}
