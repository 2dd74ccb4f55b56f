package dev.minitrace.bench.churn;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.TracerOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code bench/run churn}: an application that defines classes at a high rate with a bytecode
 * generation library (Byte Buddy, {@link ChurnApp}) for minutes, run plain and then traced (the
 * generated package included, the recording {@code bin/mt run} starts), side by side in time:
 * heap in use after a collection, metaspace, classes defined and unloaded, at each sample; the
 * recording's size and what the agent or JFR printed. The agent's tables must stay bounded like
 * the plain run's: the heap after the collection at the end, and metaspace, are compared.
 */
public final class ChurnBench {
    static final String USAGE = "bench/run churn [--java JDK_HOME] [--seconds N] [--sample N]";

    record Options(Path javaHome, long seconds, long sample) {
    }

    /** One child's samples and what else it printed. */
    record Run(List<double[]> samples, List<String> messages, long defined, long recordingBytes, long wallMillis) {
    }

    private ChurnBench() {
    }

    /** Entry point: a bad command line is one line on stderr and exit status 2. */
    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("churn", e);
            return;
        }
        System.exit(run(o));
    }

    static Options parse(String[] args) throws BenchArgs.Usage {
        Path javaHome = Path.of(System.getProperty("java.home"));
        long seconds = 120;
        long sample = 15;
        BenchArgs cli = new BenchArgs(args, USAGE);
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--seconds" -> seconds = cli.number(1);
                case "--sample" -> sample = cli.number(1);
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        if (sample > seconds) {
            throw new BenchArgs.Usage("--sample " + sample + " is longer than --seconds " + seconds);
        }
        return new Options(javaHome, seconds, sample);
    }

    static int run(Options o) throws Exception {
        Path root = BenchPaths.projectRoot();
        Path lib = root.resolve("bench/target/apps/churn/lib");
        Path buddy;
        try (Stream<Path> s = Files.exists(lib) ? Files.list(lib) : Stream.empty()) {
            buddy = s.filter(p -> p.getFileName().toString().startsWith("byte-buddy")).findFirst().orElse(null);
        }
        if (buddy == null) {
            System.err.println("bench/run churn: Byte Buddy is not resolved: run 'mvn -B -DskipTests package' first (" + lib + ")");
            return 2;
        }
        Path work = Files.createTempDirectory("mt-churn");
        Path recording = work.resolve("churn.jfr");
        String classpath = BenchPaths.benchJar() + java.io.File.pathSeparator + buddy;
        System.out.printf(Locale.ROOT, "Class churn: JDK %s, %d s each, %s UTC, load average %s%n", o.javaHome(), o.seconds(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), loadAverage());
        Run plain = child(o, classpath, List.of(), null);
        Run traced = child(o, classpath, List.of("-javaagent:" + BenchPaths.agentJar() + "=include=churn.gen.*,events=method+lock+alloc",
                TracerOptions.RECORDER_OPTIONS, "-XX:StartFlightRecording:name=minitrace,settings="
                        + root.resolve("jfc-profiles/minitrace.jfc") + ",filename=" + recording + ",dumponexit=true,maxsize=0,disk=true"),
                recording);
        Files.deleteIfExists(recording);
        Files.deleteIfExists(work);
        System.out.println();
        System.out.println("   s | plain: heap MB  metaspace MB  defined   unloaded | traced: heap MB  metaspace MB  defined   unloaded");
        int n = Math.max(plain.samples().size(), traced.samples().size());
        for (int i = 0; i < n; i++) {
            double[] p = i < plain.samples().size() ? plain.samples().get(i) : null;
            double[] t = i < traced.samples().size() ? traced.samples().get(i) : null;
            double[] any = p != null ? p : t;
            System.out.printf(Locale.ROOT, "%4.0f | %s | %s%n", any[0], row(p), row(t));
        }
        System.out.printf(Locale.ROOT, "classes defined: plain %,d in %.1f s, traced %,d in %.1f s; recording %,d bytes%n", plain.defined(),
                plain.wallMillis() / 1000.0, traced.defined(), traced.wallMillis() / 1000.0, traced.recordingBytes());
        System.out.println("agent and JFR messages in the traced run: " + (traced.messages().isEmpty() ? "none" : traced.messages().size()));
        for (String m : traced.messages().subList(0, Math.min(5, traced.messages().size()))) {
            System.out.println("  " + m);
        }
        double[] first = traced.samples().get(Math.min(1, traced.samples().size() - 1));
        double[] last = traced.samples().get(traced.samples().size() - 1);
        System.out.printf(Locale.ROOT, "traced heap after GC: %.1f MB at %.0f s, %.1f MB at the end (%.0f s); plain at the end %.1f MB%n",
                first[1], first[0], last[1], last[0], plain.samples().get(plain.samples().size() - 1)[1]);
        return 0;
    }

    private static String row(double[] s) {
        return s == null ? String.format(Locale.ROOT, "%45s", "") : String.format(Locale.ROOT, "%14.1f %13.1f %8.0f %10.0f", s[1], s[2], s[3], s[5]);
    }

    private static Run child(Options o, String classpath, List<String> options, Path recording) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(o.javaHome().resolve("bin/java").toString());
        cmd.add("-Xmx256m");
        cmd.addAll(options);
        cmd.addAll(List.of("-cp", classpath, ChurnApp.class.getName(), Long.toString(o.seconds()), Long.toString(o.sample())));
        long begin = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<double[]> samples = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        long defined = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("SAMPLE ")) {
                    String[] f = line.substring(7).trim().split(" ");
                    double[] s = new double[f.length];
                    for (int i = 0; i < f.length; i++) {
                        s[i] = Double.parseDouble(f[i]);
                    }
                    samples.add(s);
                    System.out.println("  " + (recording == null ? "plain " : "traced") + " " + line);
                } else if (line.startsWith("RESULT ")) {
                    defined = Long.parseLong(line.substring(7).trim().split(" ")[0]);
                } else if (!line.isBlank() && !line.contains("[info][jfr,startup]")) { // JFR's own start-up notice is no warning
                    messages.add(line);
                }
            }
        }
        int rc = p.waitFor();
        long wall = (System.nanoTime() - begin) / 1_000_000;
        if (rc != 0 || defined < 0 || samples.isEmpty()) {
            throw new IOException("child failed (exit " + rc + "): " + String.join(" ", cmd) + "\n" + String.join("\n", messages));
        }
        long bytes = recording != null && Files.exists(recording) ? Files.size(recording) : 0;
        return new Run(samples, messages, defined, bytes, wall);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }
}
