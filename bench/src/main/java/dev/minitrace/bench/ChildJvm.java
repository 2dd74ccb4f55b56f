package dev.minitrace.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a child JVM from the bench jar and returns the value of its {@code RESULT} line. */
public final class ChildJvm {
    private final Path javaHome;
    private final Path benchJar;

    /** A launcher for the JDK at {@code javaHome}, running classes of {@code benchJar}. */
    public ChildJvm(Path javaHome, Path benchJar) {
        this.javaHome = javaHome;
        this.benchJar = benchJar;
    }

    /** The JDK's feature version (17, 25, ...), read from its {@code release} file. */
    public int featureVersion() throws IOException {
        for (String line : Files.readAllLines(javaHome.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring(line.indexOf('"') + 1);
                int end = 0;
                while (end < v.length() && Character.isDigit(v.charAt(end))) {
                    end++;
                }
                return Integer.parseInt(v.substring(0, end));
            }
        }
        throw new IOException("no JAVA_VERSION in " + javaHome.resolve("release"));
    }

    /** Runs {@code mainClass} with the JVM options and arguments; returns what follows {@code RESULT }. */
    public String run(List<String> jvmOptions, String mainClass, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaHome.resolve("bin/java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(benchJar.toString());
        cmd.add(mainClass);
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = null;
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring(7).trim();
                } else {
                    out.append(line).append('\n');
                }
            }
        }
        int rc = p.waitFor();
        if (rc != 0 || result == null) {
            throw new IOException("child failed (exit " + rc + "): " + String.join(" ", cmd) + "\n" + out);
        }
        return result;
    }

    /** Median of the values (sorts a copy). */
    public static double median(double[] values) {
        double[] c = values.clone();
        java.util.Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }
}
