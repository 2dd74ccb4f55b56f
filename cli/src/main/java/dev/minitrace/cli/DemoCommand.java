package dev.minitrace.cli;

import dev.minitrace.launch.MiniTraceHome;
import dev.minitrace.launch.TracedProcess;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mt demo}: traces the bundled demo program, then converts the recording and prints its
 * summary through the {@code convert} and {@code summary} commands.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Traces the bundled demo program, converts the recording, prints a summary.",
            "",
            "The demo (" + MiniTraceHome.DEMO_JAR + ") runs 4 threads through nested",
            "calls, synchronized methods and blocks, allocations and caught exceptions,",
            "then forces a GC. mt demo is the same as",
            "  mt run --out minitrace-demo.jfr -- -jar <home>/" + MiniTraceHome.DEMO_JAR,
            "  mt convert minitrace-demo.jfr minitrace-demo.mtlog",
            "  mt summary minitrace-demo.mtlog",
            "The files go to the current folder (or where --out says) and replace",
            "existing ones. bin/mt builds the project first if it is not built.",
            "",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:the demo was traced and converted",
            "1:the demo, the trace or the conversion failed (the message says why)",
            "2:bad command line",
            "3:the recording lost data; the converted log is partial",
        })
public final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE.jfr", defaultValue = "minitrace-demo.jfr",
            description = "The recording (default: ${DEFAULT-VALUE} in the current folder); the log"
                    + " is written beside it with the extension .mtlog")
    Path out;

    @Option(names = "--jfc", paramLabel = "FILE",
            description = "JFR settings file (default: <home>/jfc-profiles/minitrace.jfc)")
    Path jfc;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        MiniTraceHome home = TracedRun.home();
        Path demo = home.demoJar();
        try {
            home.require(demo, "the demo jar");
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
        TracedProcess.Result traced = TracedRun.run(err, "demo", jfc, out, () -> "", List.of("-jar", demo.toString()));
        if (traced.exitStatus() != 0) {
            throw new CliException("the demo exited with status " + traced.exitStatus(), ExitCodes.FAILED);
        }
        if (traced.recording() == null) {
            throw new CliException("the demo ran but no recording was written to " + out, ExitCodes.FAILED);
        }
        err.println("demo: recording written to " + traced.recording() + " (" + RunCommand.size(traced.recording()) + ")");
        err.flush();

        Path log = mtlogBeside(traced.recording());
        int converted = execute(new ConvertCommand(), traced.recording().toString(), log.toString());
        if (converted != ExitCodes.OK && converted != ExitCodes.PARTIAL) {
            return converted;
        }
        err.println("demo: log written to " + log);
        err.flush();
        int summary = execute(new SummaryCommand(), log.toString());
        return summary != ExitCodes.OK ? summary : converted;
    }

    /** minitrace-demo.jfr → minitrace-demo.mtlog in the same folder. */
    static Path mtlogBeside(Path recording) {
        String name = recording.getFileName().toString();
        String base = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return recording.resolveSibling(base + ".mtlog");
    }

    /** Runs a subcommand through picocli with MiniTrace's error handlers, as {@code mt} would. */
    private int execute(Object command, String... args) {
        CommandLine cl = Cli.commandLine(command);
        cl.setOut(spec.commandLine().getOut());
        cl.setErr(spec.commandLine().getErr());
        return cl.execute(args);
    }
}
