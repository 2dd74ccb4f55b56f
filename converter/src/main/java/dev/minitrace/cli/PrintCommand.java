package dev.minitrace.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code mt print}: not implemented yet (placeholder so the command line compiles). */
@Command(name = "print", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class PrintCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new CliException("'print' is not implemented yet");
    }
}
