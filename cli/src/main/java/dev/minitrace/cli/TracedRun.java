package dev.minitrace.cli;

import dev.minitrace.launch.MiniTraceHome;
import dev.minitrace.launch.TracedProcess;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs a program under MiniTrace for {@code mt run} and {@code mt demo}: resolves the
 * installation's files and turns the launch layer's errors into one-line {@link CliException}s
 * (bad user input → exit status 2, a missing build or a failed start → 1).
 */
final class TracedRun {
    private TracedRun() {
    }

    /** The MiniTrace installation mt runs from. */
    static MiniTraceHome home() {
        try {
            return MiniTraceHome.locate();
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }

    /**
     * Traces {@code javaArgs} with the profile {@code jfc} (the default profile if null) into
     * {@code out}, printing the child's pid and the snapshot command on {@code err}.
     */
    static TracedProcess.Result run(PrintWriter err, String command, Path jfc, Path out,
            Supplier<String> agentOptions, List<String> javaArgs) {
        return run(err, command, prepare(jfc, out, agentOptions, javaArgs, false), out);
    }

    /**
     * The traced process of {@code javaArgs} with the profile {@code jfc} (the default profile if
     * null) recording into {@code recording}, or with {@code keepChunks} into a JFR repository
     * beside it ({@link TracedProcess#keepingChunks}); the user's mistakes are exit status 2, a
     * missing build 1.
     */
    static TracedProcess prepare(Path jfc, Path recording, Supplier<String> agentOptions, List<String> javaArgs,
            boolean keepChunks) {
        try {
            String options = agentOptions.get();
            MiniTraceHome home = home();
            Path profile = jfc != null ? jfc : home.profile(MiniTraceHome.DEFAULT_PROFILE);
            TracedProcess.Spec spec = new TracedProcess.Spec(TracedProcess.javaExecutable(), home.agentJar(),
                    options, profile, recording, javaArgs);
            TracedProcess process = keepChunks ? TracedProcess.keepingChunks(spec) : TracedProcess.of(spec);
            // The user's mistakes first (exit status 2), then a missing build (1).
            home.require(home.agentJar(), "the MiniTrace agent");
            return process;
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }

    /** Runs {@code process}, printing the child's pid, where its trace goes ({@code out}) and the snapshot command on {@code err}. */
    static TracedProcess.Result run(PrintWriter err, String command, TracedProcess process, Path out) {
        List<String> javaArgs = process.spec().javaArgs();
        try {
            return process.run(pid -> {
                err.println(command + ": tracing pid " + pid + " into " + out.toAbsolutePath().normalize()
                        + "; snapshot while it runs: jcmd " + pid + " JFR.dump name=minitrace filename=snapshot.jfr");
                err.println(command + ": " + CrashHint.text(pid, CrashHint.option(javaArgs, "-Djava.io.tmpdir="),
                        process.chunkFolder() != null ? process.chunkFolder().toString() : CrashHint.repository(javaArgs)));
                err.flush();
            });
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }
}
