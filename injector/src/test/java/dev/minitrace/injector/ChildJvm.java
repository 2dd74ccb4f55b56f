package dev.minitrace.injector;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a child JVM (the running JDK's java) for the end-to-end tests and collects its output. */
final class ChildJvm {
    /** The packaged agent; failsafe runs in the module directory, after {@code package}. */
    static final Path AGENT = Path.of("target", "minitrace-agent.jar").toAbsolutePath();
    /** The compiled test classes, fixtures included. */
    static final Path TEST_CLASSES = Path.of("target", "test-classes").toAbsolutePath();
    /** Settings enabling every minitrace event. */
    static final Path SETTINGS = TEST_CLASSES.resolve("minitrace-test.jfc");

    private ChildJvm() {
    }

    /** The java launcher of the JDK running the tests. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The jcmd of the JDK running the tests. */
    static String jcmd() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    }

    /** The -javaagent option, with {@code options} appended after '=' when not null. */
    static String agent(String options) {
        if (!Files.isRegularFile(AGENT)) {
            throw new IllegalStateException("agent jar missing: " + AGENT + " (run through mvn verify)");
        }
        return "-javaagent:" + AGENT + (options == null ? "" : "=" + options);
    }

    /** The outcome of a finished child. */
    record Result(int exitCode, String stdout, String stderr) {
        List<String> stderrLines() {
            return stderr.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    /** A started child whose output goes to files in {@code dir}. */
    static final class Running {
        final Process process;
        final Path out;
        final Path err;

        Running(Process process, Path out, Path err) {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        Result await() throws IOException, InterruptedException {
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("child JVM did not finish; stderr: " + Files.readString(err));
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        }
    }

    /** Starts {@code java <jvmArgs> -cp <classpath> <main> <args>}. */
    static Running start(Path dir, List<String> jvmArgs, List<Path> classpath, String main, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-Xshare:auto");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        StringBuilder cp = new StringBuilder();
        for (Path p : classpath) {
            if (cp.length() > 0) {
                cp.append(File.pathSeparatorChar);
            }
            cp.append(p);
        }
        cmd.add(cp.toString());
        cmd.add(main);
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new Running(p, out, err);
    }

    /** Runs to completion. */
    static Result run(Path dir, List<String> jvmArgs, String main, String... args) throws IOException, InterruptedException {
        return start(dir, jvmArgs, List.of(TEST_CLASSES), main, args).await();
    }

    /** {@code -XX:StartFlightRecording} writing {@code file} with the test settings, plus {@code extra} options. */
    static String recording(Path file, String extra) {
        return "-XX:StartFlightRecording:filename=" + file + ",settings=" + SETTINGS + (extra == null ? "" : "," + extra);
    }
}
