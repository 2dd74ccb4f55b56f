package dev.minitrace.cli;

import picocli.CommandLine;

/**
 * Builds picocli command lines that follow MiniTrace's error rules: a bad command line or a
 * failure prints one line on stderr (never a stack trace) and exits non-zero.
 */
public final class Cli {
    private Cli() {
    }

    /** A command line for {@code command} with MiniTrace's error handlers installed. */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(c.getCommandName() + ": " + ex.getMessage() + " (see '" + c.getCommandName() + " --help')");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
            c.getErr().println(c.getCommandName() + ": " + msg);
            if (Boolean.getBoolean("minitrace.debug")) {
                ex.printStackTrace(c.getErr());
            }
            return ex instanceof CliException ce ? ce.exitCode() : ExitCodes.FAILED;
        });
        return cl;
    }
}
