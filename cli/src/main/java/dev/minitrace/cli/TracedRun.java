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
        TracedProcess process;
        try {
            String options = agentOptions.get();
            MiniTraceHome home = home();
            Path profile = jfc != null ? jfc : home.profile(MiniTraceHome.DEFAULT_PROFILE);
            process = TracedProcess.of(new TracedProcess.Spec(TracedProcess.javaExecutable(), home.agentJar(),
                    options, profile, out, javaArgs));
            // The user's mistakes first (exit status 2), then a missing build (1).
            home.require(home.agentJar(), "the MiniTrace agent");
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
        try {
            return process.run(pid -> {
                err.println(command + ": tracing pid " + pid + " into " + out.toAbsolutePath().normalize()
                        + "; snapshot while it runs: jcmd " + pid + " JFR.dump name=minitrace filename=snapshot.jfr");
                err.println(command + ": " + CrashHint.text(pid, CrashHint.option(javaArgs, "-Djava.io.tmpdir="),
                        CrashHint.repository(javaArgs)));
                err.flush();
            });
        } catch (IllegalStateException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }
}
