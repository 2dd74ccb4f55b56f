package dev.minitrace.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code mt run}: not implemented yet (placeholder so the command line compiles). */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new CliException("'run' is not implemented yet");
    }
}
