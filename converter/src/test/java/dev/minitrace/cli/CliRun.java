package dev.minitrace.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code mt} in-process with captured stdout and stderr. */
record CliRun(int status, String out, String err) {
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(Main.class);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new CliRun(status, out.toString(), err.toString());
    }

    /** stderr is one line, without a stack trace. */
    boolean oneErrorLine() {
        return err.strip().lines().count() == 1 && !err.contains("\tat ") && !err.contains("Exception");
    }
}
