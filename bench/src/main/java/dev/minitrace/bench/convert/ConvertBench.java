package dev.minitrace.bench.convert;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converter throughput, memory and size, measured as users run it. Two recordings, each made once
 * (cached) by the real agent tracing {@link TracedTree}: the standing one (200 M trace events from 4
 * threads in JFR's default chunks) and one shaped like a busy real program (200 threads, chunks of
 * about 200 MB, {@code -XX:FlightRecorderOptions:maxchunksize=200m}). In interleaved rounds it reads
 * each with {@code RecordingFile} doing nothing else (the speed baseline, in a child JVM) and
 * converts it with {@code bin/mt convert} in both layouts, exactly as a user types it (no heap
 * flag), under {@code /usr/bin/time} for the peak RSS of the whole process. With
 * {@code --against DIR}, the {@code bin/mt} of another checkout (an earlier version) runs in the
 * same rounds, so before and after are measured under the same load. Prints medians.
 *
 * <p>Usage: {@code ConvertBench [--java JDK_HOME] [--events N] [--rounds N] [--only standard|big]
 * [--against DIR] [--regenerate]}.
 */
public final class ConvertBench {
    static final String USAGE = "bench/run convert [--java JDK_HOME] [--events N] [--rounds N] [--only standard|big] [--regenerate] [--against DIR]";

    private ConvertBench() {
    }

    /**
     * A recording to convert: how it is made. {@code running}: how many of its threads may run
     * call trees at once (0: all of them).
     */
    private record Shape(String name, String file, int threads, int chunkMb, int running) {
    }

    /**
     * The standard recording's file in bench/target, which bench/run query reads too. Renamed, with
     * the big one's, whenever the generator or the agent's format changes: the recordings are cached
     * between runs.
     */
    public static final String STANDARD_RECORDING = "convert-bench-kind3.jfr";

    private static final List<Shape> SHAPES = List.of(
            new Shape("standard", STANDARD_RECORDING, 4, 0, 0),
            // 200 threads taking turns, as many at once as there are cores: all running starves
            // JFR's recorder thread on a small machine, which then discards full buffers
            new Shape("big", "convert-bench-bigchunks-paced.jfr", 200, 200, Runtime.getRuntime().availableProcessors()));

    /** Entry point: a bad command line is one line on stderr and exit status 2. */
    public static void main(String[] args) throws Exception {
        try {
            run(new BenchArgs(args, USAGE));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("convert", e);
        }
    }

    private static void run(BenchArgs cli) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        long events = 200_000_000;
        int rounds = 3;
        String only = null;
        Path against = null;
        boolean regenerate = false;
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--events" -> events = cli.number(1);
                case "--rounds" -> rounds = cli.intNumber(0);
                case "--only" -> {
                    only = cli.value();
                    if (!only.equals("standard") && !only.equals("big")) {
                        throw new BenchArgs.Usage("--only takes standard or big, not '" + only + "'");
                    }
                }
                case "--against" -> against = Path.of(cli.value()).toAbsolutePath();
                case "--regenerate" -> regenerate = true;
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        if (against != null && !Files.isExecutable(against.resolve("bin/mt"))) {
            throw new BenchArgs.Usage("--against " + against + ": no bin/mt there");
        }
        ChildJvm jvm = new ChildJvm(javaHome, BenchPaths.benchJar());
        Path root = BenchPaths.projectRoot();
        Map<String, Path> mts = new LinkedHashMap<>();
        mts.put("this", root.resolve("bin/mt"));
        if (against != null) {
            mts.put("against", against.resolve("bin/mt"));
        }
        for (Shape shape : SHAPES) {
            if (only != null && !only.equals(shape.name())) {
                continue;
            }
            Path file = root.resolve("bench/target").resolve(shape.file());
            generate(jvm, shape, file, events, regenerate);
            if (rounds > 0) {
                measure(jvm, javaHome, shape, file, mts, rounds);
            }
        }
    }

    private static void generate(ChildJvm jvm, Shape shape, Path file, long events, boolean regenerate) throws Exception {
        Path countFile = file.resolveSibling(file.getFileName() + ".count");
        if (!regenerate && Files.isRegularFile(file) && Files.isRegularFile(countFile)) {
            return;
        }
        System.out.printf(Locale.ROOT, "Generating %s: %,d minitrace events from %d threads%s%s...%n", file, events, shape.threads(),
                shape.running() > 0 ? " (" + shape.running() + " at a time)" : "",
                shape.chunkMb() > 0 ? ", chunks of " + shape.chunkMb() + " MB" : "");
        Files.createDirectories(file.toAbsolutePath().getParent());
        // Eager: the generator loads TracedTree before it starts its recording, and a deferred
        // agent would trace it only once its worker retransformed it, so fewer events than made.
        List<String> opts = new ArrayList<>(List.of("-Xmx1g", "-Dminitrace.rewrite=eager",
                "-javaagent:" + BenchPaths.agentJar() + "=" + RecordingGenerator.AGENT_OPTIONS));
        if (shape.chunkMb() > 0) {
            opts.add("-XX:FlightRecorderOptions:maxchunksize=" + shape.chunkMb() + "m");
        }
        String n = jvm.run(opts, RecordingGenerator.class.getName(),
                List.of(file.toString(), Long.toString(events), Integer.toString(shape.threads()), Integer.toString(shape.running())));
        Files.writeString(countFile, n);
    }

    private static void measure(ChildJvm jvm, Path javaHome, Shape shape, Path file, Map<String, Path> mts, int rounds)
            throws Exception {
        long jfrBytes = Files.size(file);
        Path out = file.resolveSibling("convert-bench.mtlog");
        System.out.printf(Locale.ROOT, "%nRecording '%s': JDK %d, %s (%,d bytes, %d threads), %d rounds, load %s%n", shape.name(),
                jvm.featureVersion(), file.getFileName(), jfrBytes, shape.threads(), rounds, loadAverage());
        Map<String, double[][]> runs = new LinkedHashMap<>(); // name -> [round][seconds, rssKb, outBytes, exit, cpuSeconds]
        runs.put("RecordingFile", new double[rounds][]);
        for (String who : mts.keySet()) {
            for (String layout : List.of("thread", "global")) {
                runs.put(who + " bin/mt convert --layout " + layout, new double[rounds][]);
            }
        }
        long inFile = -1;
        for (int r = 0; r < rounds; r++) {
            String[] base = jvm.run(List.of("-Xmx512m", "-Xms512m"), RecordingFileProbe.class.getName(), List.of(file.toString())).split(" ");
            inFile = Long.parseLong(base[4]);
            runs.get("RecordingFile")[r] = new double[] {Double.parseDouble(base[1]), Double.parseDouble(base[2]), 0, 0, Double.NaN};
            System.out.printf(Locale.ROOT, "  round %d RecordingFile: %.2f s%n", r + 1, Double.parseDouble(base[1]));
            for (Map.Entry<String, Path> mt : mts.entrySet()) {
                for (String layout : List.of("thread", "global")) {
                    double[] res = convert(javaHome, mt.getValue(), file, out, layout);
                    runs.get(mt.getKey() + " bin/mt convert --layout " + layout)[r] = res;
                    System.out.printf(Locale.ROOT, "  round %d %s %s: %.2f s, %.2f s CPU, %.0f MiB RSS, exit %d%n", r + 1, mt.getKey(),
                            layout, res[0], res[4], res[1] / 1024, (int) res[3]);
                }
            }
        }
        Files.deleteIfExists(out);
        System.out.printf(Locale.ROOT, "minitrace trace events in the file: %,d; load after: %s%n", inFile, loadAverage());
        System.out.println("reader                                      median s  trace ev/s   x RecordingFile  peak RSS MiB  median CPU s  exit");
        double baseRate = 0;
        boolean lost = false;
        for (Map.Entry<String, double[][]> e : runs.entrySet()) {
            double s = ChildJvm.median(column(e.getValue(), 0));
            double rate = inFile / s;
            if (baseRate == 0) {
                baseRate = rate;
            }
            int exit = (int) Arrays.stream(column(e.getValue(), 3)).max().orElse(0);
            lost |= exit == 3;
            System.out.printf(Locale.ROOT, "%-43s %9.2f %11.3e %16.2f %13.0f %13.2f  %4d%n", e.getKey(), s, rate, rate / baseRate,
                    ChildJvm.median(column(e.getValue(), 1)) / 1024, ChildJvm.median(column(e.getValue(), 4)), exit);
        }
        if (lost) {
            // the conversion's exit 3: the recording itself lacks records (docs/performance.md, the big recording)
            System.out.println("exit 3: the recording lost records (mt convert's warning says how many); these figures are of an inexact recording");
        }
        System.out.printf(Locale.ROOT, "Size: .jfr %.2f bytes per trace event", jfrBytes / (double) inFile);
        for (String layout : List.of("thread", "global")) {
            double bytes = ChildJvm.median(column(runs.get("this bin/mt convert --layout " + layout), 2));
            System.out.printf(Locale.ROOT, "; .mtlog (%s) %.2f bytes per event", layout, bytes / inFile);
        }
        System.out.println();
    }

    /** Runs {@code mt convert} as a user would; returns seconds, peak RSS (KiB), output bytes, exit status, CPU seconds (user + system). */
    private static double[] convert(Path javaHome, Path mt, Path in, Path out, String layout) throws IOException, InterruptedException {
        Files.deleteIfExists(out);
        Path times = Files.createTempFile("convert-bench", ".time");
        try {
            ProcessBuilder pb = new ProcessBuilder("/usr/bin/time", "-o", times.toString(), "-f", "%e %M %U %S", mt.toString(),
                    "convert", "--layout", layout, in.toString(), out.toString());
            pb.environment().put("JAVA_HOME", javaHome.toString());
            pb.redirectErrorStream(true);
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            if (rc != 0 && rc != 3) {
                throw new IOException(mt + " convert --layout " + layout + " exited with status " + rc + ":\n" + output);
            }
            // GNU time puts a line before the figures when the command exited non-zero: take the last four words
            String[] t = Files.readString(times).trim().split("\\s+");
            double seconds = Double.parseDouble(t[t.length - 4]);
            double rssKb = Double.parseDouble(t[t.length - 3]);
            double cpu = Double.parseDouble(t[t.length - 2]) + Double.parseDouble(t[t.length - 1]);
            return new double[] {seconds, rssKb, Files.exists(out) ? Files.size(out) : -1, rc, cpu};
        } finally {
            Files.deleteIfExists(times);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static double[] column(double[][] rows, int c) {
        double[] col = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            col[i] = rows[i][c];
        }
        return col;
    }
}
