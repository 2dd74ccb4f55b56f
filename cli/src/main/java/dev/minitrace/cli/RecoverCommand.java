package dev.minitrace.cli;

import dev.minitrace.converter.recovery.RecordingRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt recover PID|FOLDER OUT.mtlog}: converts what a JVM that died (kill -9, the OOM killer,
 * a crash) left in its JFR repository; finds the repository by the process id.
 */
@Command(name = "recover", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, abbreviateSynopsis = true,
        description = {"Converts what a JVM that died (kill -9, OOM killer, crash) left in its JFR repository.",
            "Every finished chunk is read, and the chunk it was writing up to its last",
            "complete flush segment (JFR flushes about once a second); the command says",
            "what was recovered and what was lost. PID finds the repository (a folder",
            "<time>_<PID>) under --repository, java.io.tmpdir and /tmp; mt run and",
            "mt attach print where it is (docs/recovery.md)."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:recovered a repository the JVM had finished (nothing lost)",
            "1:failed: no repository for PID, nothing recoverable, or OUT cannot be written",
            "2:bad command line",
            "3:recovered and converted, but data was lost (the JVM died mid-chunk; the report says how much)",
        })
public final class RecoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID|FOLDER", description = "The dead process's id, or its JFR repository folder.")
    String target;

    @Parameters(index = "1", paramLabel = "OUT.mtlog", description = "The log to write.")
    Path out;

    @Option(names = "--repository", paramLabel = "DIR",
            description = "Where the JVM kept its repository, when it was configured (-XX:FlightRecorderOptions:repository=DIR).")
    Path repository;

    @Option(names = "--layout", paramLabel = "thread|global", defaultValue = "thread",
            description = "thread: one stream per thread (default); global: one stream.")
    String layout;

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "Where the recovered recording and the records that wait go (default: OUT's folder). Removed whatever happens.")
    Path tempDir;

    @Mixin
    MemoryOption memory;

    @Override
    public Integer call() {
        Path folder = folder();
        spec.commandLine().getErr().println("recover: reading " + folder);
        List<String> args = new ArrayList<>(List.of(folder.toString(), out.toString(), "--layout", layout, "--memory", memory.text));
        if (tempDir != null) {
            args.addAll(List.of("--temp-dir", tempDir.toString()));
        }
        return ConvertCommand.withDefaults(spec, "recover", args);
    }

    private Path folder() {
        if (!target.chars().allMatch(Character::isDigit)) {
            Path p = Paths.get(target);
            if (!Files.isDirectory(p)) {
                throw new CliException(target + ": neither a process id nor a folder", ExitCodes.FAILED);
            }
            return p;
        }
        long pid;
        try {
            pid = Long.parseLong(target);
        } catch (NumberFormatException e) {
            throw new CliException(target + ": not a process id", ExitCodes.USAGE);
        }
        Set<Path> roots = new LinkedHashSet<>();
        if (repository != null) {
            roots.add(repository.toAbsolutePath());
        }
        roots.add(Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath());
        roots.add(Paths.get("/tmp"));
        List<Path> found;
        try {
            found = RecordingRepository.ofProcess(pid, new ArrayList<>(roots));
        } catch (IOException e) {
            throw new CliException("cannot look for the repository of process " + pid + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        if (found.isEmpty()) {
            throw new CliException("no JFR repository of process " + pid + " (a folder named <time>_" + pid + ") under "
                    + roots + "; give --repository DIR when the JVM had one configured", ExitCodes.FAILED);
        }
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            spec.commandLine().getErr().println("recover: warning: process " + pid
                    + " is still running: this reads what its recording holds so far (mt dump is the way for a live JVM)");
        }
        return found.get(found.size() - 1);
    }
}
