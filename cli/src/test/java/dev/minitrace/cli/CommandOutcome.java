package dev.minitrace.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs one mt subcommand in process, with MiniTrace's error handlers, and keeps what it printed. */
record CommandOutcome(int status, String out, String err) {
    static CommandOutcome of(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new CommandOutcome(status, out.toString(), err.toString());
    }

    /** Runs {@code mt} itself with {@code args}. */
    static CommandOutcome mt(String... args) {
        return of(Main.class, args);
    }

    /** stderr is one line, without a stack trace. */
    boolean oneErrorLine() {
        return err.strip().lines().count() == 1 && !err.contains("\tat ") && !err.contains("Exception");
    }

    /** The lines printed on stderr. */
    String[] errLines() {
        return err.isEmpty() ? new String[0] : err.split("\\R");
    }
}
