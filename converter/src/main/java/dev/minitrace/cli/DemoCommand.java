package dev.minitrace.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code mt demo}: not implemented yet (placeholder so the command line compiles). */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new CliException("'demo' is not implemented yet");
    }
}
