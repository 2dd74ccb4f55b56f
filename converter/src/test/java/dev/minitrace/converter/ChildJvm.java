package dev.minitrace.converter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a child JVM of the running JDK (same classpath) and waits for it. */
public final class ChildJvm {
    /** Exit status and combined output of a child. */
    public record Result(int status, String output) {
    }

    private ChildJvm() {
    }

    /** The java launcher of the JDK running the tests. */
    public static Path java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java");
    }

    /** True when this JDK accepts {@code option} (e.g. {@code -XX:+UseShenandoahGC}). */
    public static boolean supports(String option) throws Exception {
        return run(List.of(option, "-version")).status() == 0;
    }

    /** Runs {@code java <args>} with the test classpath available as {@code -cp} when asked. */
    public static Result run(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java().toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("child JVM did not finish: " + cmd);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The classpath of this test JVM, for children that run test classes. */
    public static String classpath() {
        return System.getProperty("java.class.path");
    }
}
