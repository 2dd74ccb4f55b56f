package dev.minitrace.cli;

import dev.minitrace.attach.AttachFailure;
import dev.minitrace.attach.TargetJvm;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt dump}: writes what the running {@code minitrace} recording holds so far. */
@Command(
        name = "dump",
        mixinStandardHelpOptions = true,
        description = {
            "Writes what the JVM's running 'minitrace' recording holds so far.",
            "",
            "Works for 'mt attach' and 'mt run' and does not stop the recording: it runs",
            "'jcmd PID JFR.dump name=minitrace' with the jcmd of the JDK running mt. The file",
            "is written under a temporary name and renamed when complete.",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:snapshot written",
            "1:no such process, not a JVM, or it has no 'minitrace' recording",
            "2:bad command line (unknown option, malformed value, non-numeric PID)",
        })
public final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the traced JVM")
    long pid;

    @Parameters(index = "1", paramLabel = "FILE.jfr", description = "Where the snapshot goes; replaced if it exists")
    Path file;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            throw new CliException("mt dump needs a JDK: no jcmd in " + jcmd.getParent(), ExitCodes.FAILED);
        }
        Path target = file.toAbsolutePath();
        if (target.toString().indexOf(',') >= 0 || target.toString().indexOf(' ') >= 0) {
            throw new CliException(target + ": jcmd cannot take a path with a comma or a space", ExitCodes.USAGE);
        }
        try (TargetJvm vm = TargetJvm.attach(pid)) {
            // Checks the pid is an attachable JVM of Java 17+ before jcmd signals it.
            vm.pid();
        } catch (AttachFailure e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
        Path partial = target.resolveSibling("." + target.getFileName() + ".part");
        Files.deleteIfExists(partial);
        Process p = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "JFR.dump", "name=minitrace",
                "filename=" + partial)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            Files.deleteIfExists(partial);
            throw new CliException("jcmd did not finish", ExitCodes.FAILED);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(partial) || Files.size(partial) == 0) {
            Files.deleteIfExists(partial);
            throw new CliException("JVM " + pid + " wrote no recording: " + lastLine(output), ExitCodes.FAILED);
        }
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
        err.println("dump: recording of JVM " + pid + " written to " + target + " (" + RunCommand.size(target) + ")");
        err.flush();
        return ExitCodes.OK;
    }

    private static String lastLine(String output) {
        String last = "";
        for (String line : output.split("\n")) {
            if (!line.isBlank()) {
                last = line.trim();
            }
        }
        return last.isEmpty() ? "jcmd printed nothing" : last;
    }
}
