package dev.minitrace.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code mt convert}: not implemented yet (placeholder so the command line compiles). */
@Command(name = "convert", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class ConvertCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new CliException("'convert' is not implemented yet");
    }
}
