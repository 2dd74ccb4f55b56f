package dev.minitrace.launch;

/** A program for launcher tests: exits through System.exit with the status given as its argument. */
public final class ExitingProgram {
    private ExitingProgram() {
    }

    /** Exits with {@code args[0]}. */
    public static void main(String[] args) {
        System.exit(Integer.parseInt(args[0]));
    }
}
