package dev.minitrace.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code mt summary}: not implemented yet (placeholder so the command line compiles). */
@Command(name = "summary", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class SummaryCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new CliException("'summary' is not implemented yet");
    }
}
