package dev.minitrace.cli;

import dev.minitrace.launch.AgentOptions;
import dev.minitrace.launch.MiniTraceHome;
import dev.minitrace.launch.RecordingOptions;
import dev.minitrace.launch.TracedProcess;
import dev.minitrace.wire.RecorderOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt run}: runs a Java program with the MiniTrace agent and a recording that keeps everything. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs a Java program with the MiniTrace agent and a JFR recording named 'minitrace'.",
            "",
            "The child JVM (the java of the JVM running mt: $JAVA_HOME's with bin/mt) gets",
            "  -javaagent:<home>/" + MiniTraceHome.AGENT_JAR + "=<agent options>",
            "  " + RecorderOptions.FLIGHT_RECORDER_OPTIONS,
            "      (left out if your JVM options set -XX:FlightRecorderOptions)",
            "  -XX:StartFlightRecording:name=minitrace,settings=<jfc>,",
            "      filename=<out>,dumponexit=true,maxsize=0,disk=true",
            "so JFR drops no chunk. The recording is written when the program exits",
            "(also through System.exit or Ctrl-C). While it runs, take a snapshot with",
            "  jcmd <pid> JFR.dump name=minitrace filename=snapshot.jfr",
            "mt run prints the pid on stderr, then exits with the program's exit status.",
            "",
            "With --out FILE.mtlog the trace is converted when the program exits (as",
            "mt convert FILE.jfr FILE.mtlog with no options would), and no .jfr is kept.",
            "On JDK 21+ the recording then has no filename=: JFR keeps its chunk files",
            "(-XX:FlightRecorderOptions:...,preserve-repository=true,repository=DIR, DIR a",
            "folder .FILE.mtlog.<pid>.chunks beside FILE.mtlog) and the converter reads them",
            "there, instead of JFR copying the whole recording into a file at exit; the",
            "folder is removed once converted. Before JDK 21, and when the program's",
            "options set -XX:FlightRecorderOptions, JFR writes a temporary .jfr beside it.",
            "",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mt run -- -cp app.jar com.acme.Main arg1",
            "  mt run --out trace.jfr --include 'com.acme.*' --events method,lock \\",
            "         -- -jar app.jar",
            "  mt run --jfc jfc-profiles/minitrace-light.jfc -- -Xmx1g -jar app.jar",
            "  mt run --out trace.mtlog -- -jar app.jar",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "n:the program's own exit status (when not 0)",
            "0:the program exited with 0 and its trace was written",
            "1:mt could not start the program, or no recording was written, or (.mtlog) the conversion failed",
            "2:bad command line",
            "3:(.mtlog, program exit status 0) converted, but the recording lost data",
        })
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--jfc", paramLabel = "FILE",
            description = "JFR settings file (default: <home>/jfc-profiles/minitrace.jfc;"
                    + " jfc-profiles/minitrace-light.jfc traces methods only)")
    Path jfc;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "minitrace.jfr",
            description = "Where the recording goes; replaced if it exists (default: ${DEFAULT-VALUE}"
                    + " in the current folder). FILE.mtlog gets the converted trace instead")
    Path out;

    @Option(names = "--include", paramLabel = "FILTER",
            description = "Trace only these classes or methods (repeatable, or several joined by ';'):"
                    + " pkg.Class, pkg.Class::method, ::method, @pkg.Annotation, with * in package"
                    + " and class names (com.acme.*). Default: every class not loaded by the JDK's"
                    + " bootstrap or platform class loader")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "FILTER",
            description = "Do not trace these (same syntax as --include; repeatable)")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--events", paramLabel = "KIND", split = ",",
            description = "What the agent instruments: method, lock, alloc, comma-separated"
                    + " (default: all three; the profile decides what is recorded)")
    List<String> events = new ArrayList<>();

    @Parameters(paramLabel = "JAVA_ARGS", arity = "1..*",
            description = "After '--': JVM options, then a main class or -jar FILE, then the program's arguments")
    List<String> javaArgs = new ArrayList<>();

    @Override
    public Integer call() {
        if (out.getFileName() != null && out.getFileName().toString().endsWith(".mtlog")) {
            return runToMtlog();
        }
        PrintWriter err = spec.commandLine().getErr();
        TracedProcess.Result result = TracedRun.run(err, "run", jfc, out, () -> AgentOptions.format(includes, excludes, events), javaArgs);
        for (Path kept : result.keptRepositories()) {
            err.println("run: the recording is not complete; JFR's chunks are kept in " + kept + ": mt recover " + kept
                    + " OUT.mtlog (delete the folder when done)");
        }
        if (result.recording() == null) {
            err.println((Files.isRegularFile(out)
                    ? "run: the recording " + out + " is not complete (the JVM ended while JFR wrote it; mt convert reads what it holds)"
                    : "run: no recording was written (the JVM ended before JFR could dump it)")
                    + "; exit status " + result.exitStatus());
            err.flush();
            return result.exitStatus() == 0 ? ExitCodes.FAILED : result.exitStatus();
        }
        err.println("run: recording written to " + result.recording() + " (" + size(result.recording()) + ")");
        err.flush();
        return result.exitStatus();
    }

    /**
     * Traces into a recording and converts it to {@link #out}: in place from the kept repository
     * where the JDK allows ({@link TracedProcess#keepingChunks}), else from a temporary recording
     * beside OUT. What is read is removed once converted; what could not be read is kept and named.
     */
    private int runToMtlog() {
        PrintWriter err = spec.commandLine().getErr();
        boolean inPlace = TracedProcess.canKeepChunks(javaArgs);
        Path target = out.toAbsolutePath().normalize();
        Path recording = inPlace ? target
                : target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid() + ".jfr");
        TracedProcess process = TracedRun.prepare(jfc, recording, () -> AgentOptions.format(includes, excludes, events), javaArgs, inPlace);
        TracedProcess.Result result = TracedRun.run(err, "run", process, out);
        Path readFrom = result.recording();
        for (Path kept : result.keptRepositories()) {
            err.println("run: the recording is not complete; JFR's chunks are kept in " + kept + ": mt recover " + kept
                    + " " + out + " (delete the folder when done)");
        }
        if (readFrom == null) {
            err.println((!inPlace && Files.isRegularFile(recording)
                    ? "run: the recording " + recording + " is not complete (the JVM ended while JFR wrote it; mt convert reads what it holds)"
                    : "run: no complete recording was written (the JVM ended before JFR could finish it)")
                    + "; exit status " + result.exitStatus());
            err.flush();
            return result.exitStatus() == 0 ? ExitCodes.FAILED : result.exitStatus();
        }
        int converted;
        boolean done = false;
        try {
            converted = ConvertCommand.withDefaults(spec, "run", List.of(readFrom.toString(), out.toString()));
            done = true;
        } finally {
            if (done) {
                removeQuietly(inPlace ? process.chunkFolder() : readFrom);
            } else {
                err.println("run: the recording is kept in " + readFrom + " (mt convert " + readFrom + " OUT.mtlog; delete it when done)");
                err.flush();
            }
        }
        return result.exitStatus() != 0 ? result.exitStatus() : converted;
    }

    private static void removeQuietly(Path p) {
        if (Files.isDirectory(p)) {
            TracedProcess.deleteTree(p);
        } else {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // only disk: the trace is written
            }
        }
    }

    static String size(Path file) {
        try {
            long bytes = Files.size(file);
            return bytes < 10_000 ? bytes + " bytes" : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
        } catch (IOException e) {
            return "size unknown";
        }
    }
}
