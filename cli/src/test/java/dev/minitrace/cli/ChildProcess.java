package dev.minitrace.cli;

import fixture.run.TracedProgram;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a command of the built project (bin/mt, the CLI jar) in a child process with the test
 * JVM's Java as JAVA_HOME, so the tests exercise the JDK they run on.
 */
final class ChildProcess {
    /** The project root: the tests run in the cli folder. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private ChildProcess() {
    }

    /** What a finished child printed and returned. */
    record Outcome(int status, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
        }
    }

    /** Runs {@code bin/<script> args} in {@code cwd} with stdin closed and waits for it. */
    static Outcome bin(Path cwd, String script, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("bash");
        cmd.add(ROOT.resolve("bin").resolve(script).toString());
        cmd.addAll(List.of(args));
        return run(cwd, cmd);
    }

    /** Runs {@code java -Dminitrace.home=ROOT -jar cli/target/minitrace-cli.jar args}. */
    static Outcome cli(Path cwd, String... args) throws IOException, InterruptedException {
        return run(cwd, cliCommand(args));
    }

    static List<String> cliCommand(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Dminitrace.home=" + ROOT);
        cmd.add("-jar");
        cmd.add(ROOT.resolve("cli/target/minitrace-cli.jar").toString());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** A process builder for {@code cmd} in {@code cwd} with JAVA_HOME set to the test JVM's. */
    static ProcessBuilder builder(Path cwd, List<String> cmd) {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return pb;
    }

    private static Outcome run(Path cwd, List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("mt-out", ".txt");
        Path err = Files.createTempFile("mt-err", ".txt");
        try {
            Process p = builder(cwd, cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
            int status = p.waitFor();
            return new Outcome(status, Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** The test classes folder, for a child's class path. */
    static String testClasses() {
        try {
            return Path.of(TracedProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
