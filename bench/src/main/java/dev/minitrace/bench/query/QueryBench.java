package dev.minitrace.bench.query;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import dev.minitrace.bench.convert.ConvertBench;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Parquet export and the named queries on the converter benchmark's standard recording
 * (made by {@code bench/run convert}, cached), as users run them: in each round {@code bin/mt
 * convert} to an {@code .mtlog} and {@code bin/mt export --format parquet} of the same recording,
 * then every named question with {@code bin/mt query} on the export, each under
 * {@code /usr/bin/time} for the peak RSS of the whole process. Prints medians, the sizes of the
 * {@code .jfr}, the {@code .mtlog} and the export (per table), and the load average.
 *
 * <p>Usage: {@code QueryBench [--java JDK_HOME] [--rounds N] [--recording FILE] [--against CHECKOUT] [--keep]}
 * ({@code --recording}: another recording, such as a real application's full trace kept by {@code
 * bench/run apps --keep DIR}; {@code --against}: a built checkout whose {@code bin/mt export} and
 * {@code bin/mt query} run too, interleaved in the same rounds, and whose answer to every question
 * must be the same, byte for byte, as this checkout's, else exit status 1; {@code --keep} leaves
 * the export in {@code bench/target/query-bench/}).
 */
public final class QueryBench {
    static final String USAGE = "bench/run query [--java JDK_HOME] [--rounds N] [--recording FILE] [--against CHECKOUT] [--keep]";

    private QueryBench() {
    }

    /** Entry point: a bad option or a missing recording is one line on stderr and exit status 2. */
    public static void main(String[] args) throws Exception {
        try {
            run(new BenchArgs(args, USAGE));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("query", e);
        }
    }

    private static void run(BenchArgs cli) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        int rounds = 3;
        boolean keep = false;
        Path recording = null;
        Path against = null;
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--rounds" -> rounds = cli.intNumber(1);
                case "--keep" -> keep = true;
                case "--recording" -> recording = Path.of(cli.value()).toAbsolutePath();
                case "--against" -> {
                    against = Path.of(cli.value()).toAbsolutePath();
                    if (!Files.isExecutable(against.resolve("bin/mt"))) {
                        throw new BenchArgs.Usage("--against " + against + ": no bin/mt there (expected a built checkout)");
                    }
                }
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        Path root = BenchPaths.projectRoot();
        Path jfr = recording != null ? recording : root.resolve("bench/target").resolve(ConvertBench.STANDARD_RECORDING);
        if (!Files.isRegularFile(jfr)) {
            throw new BenchArgs.Usage(jfr + " is missing: make it with bench/run convert --rounds 0");
        }
        Path mt = root.resolve("bin/mt");
        Path work = root.resolve("bench/target/query-bench");
        Path log = work.resolve("bench.mtlog");
        // each checkout's bin/mt and export folder: this one's first
        Map<String, Path> mts = new LinkedHashMap<>();
        Map<String, Path> exports = new LinkedHashMap<>();
        mts.put("", mt);
        exports.put("", work.resolve("tables"));
        if (against != null) {
            mts.put(" @against", against.resolve("bin/mt"));
            exports.put(" @against", work.resolve("tables-against"));
        }
        Path tables = exports.get("");
        Files.createDirectories(work);
        System.out.printf(Locale.ROOT, "Recording %s (%,d bytes), JDK %d, %d rounds, load %s%s%n", jfr.getFileName(), Files.size(jfr),
                new ChildJvm(javaHome, BenchPaths.benchJar()).featureVersion(), rounds, load(),
                against == null ? "" : ", against " + against);
        Map<String, List<double[]>> runs = new LinkedHashMap<>();
        List<String> sides = new ArrayList<>(mts.keySet());
        for (int r = 0; r < rounds; r++) {
            Files.deleteIfExists(log);
            record(runs, "bin/mt convert (thread layout)", time(javaHome, mt, List.of("convert", jfr.toString(), log.toString())));
            // the checkouts take turns at going first
            for (int k = 0; k < sides.size(); k++) {
                String side = sides.get((k + r) % sides.size());
                delete(exports.get(side));
                record(runs, "bin/mt export --format parquet" + side, time(javaHome, mts.get(side), List.of("export", "--format", "parquet",
                        jfr.toString(), exports.get(side).toString())));
            }
            System.out.printf(Locale.ROOT, "  round %d done, load %s%n", r + 1, load());
        }
        String[] gcs = new String(run(javaHome, mt, List.of("query", tables.toString(), "--format", "csv",
                "SELECT min(gc_id), max(gc_id) FROM gcs")), StandardCharsets.UTF_8).lines().skip(1).findFirst().orElseThrow().split(",");
        // The standard recording's recursive method; in another recording the method that most
        // often calls others, so that its call tree and slow calls have something to find.
        String method = recording == null ? "TracedTree::level" : new String(run(javaHome, mt, List.of("query", tables.toString(), "--format", "csv",
                "SELECT any_value(m.class_name || '::' || m.method_name) FROM calls c JOIN methods m USING (recording, method_id)"
                        + " WHERE c.self_ns < c.duration_ns GROUP BY c.method_id ORDER BY count(*) DESC, c.method_id LIMIT 1")),
                StandardCharsets.UTF_8).lines().skip(1).findFirst().orElseThrow().replace("\"", "");
        Map<String, List<String>> questions = new LinkedHashMap<>();
        questions.put("--top-methods", List.of("--top-methods"));
        questions.put("--call-tree " + method, List.of("--call-tree", method));
        questions.put("--slow-calls " + method + " --over 1ms", List.of("--slow-calls", method, "--over", "1ms"));
        questions.put("--lock-holds", List.of("--lock-holds"));
        questions.put("--alloc-by-site", List.of("--alloc-by-site"));
        questions.put("--between-gcs " + gcs[0] + " " + gcs[1], List.of("--between-gcs", gcs[0], gcs[1]));
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, List<String>> q : questions.entrySet()) {
                for (int k = 0; k < sides.size(); k++) {
                    String side = sides.get((k + r) % sides.size());
                    List<String> cmd = new ArrayList<>(List.of("query", exports.get(side).toString()));
                    cmd.addAll(q.getValue());
                    record(runs, "bin/mt query " + q.getKey() + side, time(javaHome, mts.get(side), cmd));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nload after: %s%n%-70s %9s %13s%n", load(), "command", "median s", "peak RSS MiB");
        for (Map.Entry<String, List<double[]>> e : runs.entrySet()) {
            double[] s = e.getValue().stream().mapToDouble(v -> v[0]).toArray();
            double[] m = e.getValue().stream().mapToDouble(v -> v[1]).toArray();
            System.out.printf(Locale.ROOT, "%-70s %9.2f %13.0f%n", e.getKey(), ChildJvm.median(s), ChildJvm.median(m) / 1024);
        }
        boolean same = true;
        if (against != null) {
            // Every answer in full, as CSV: the same, byte for byte, from both checkouts' exports and SQL
            for (Map.Entry<String, List<String>> q : questions.entrySet()) {
                List<byte[]> answers = new ArrayList<>();
                for (String side : sides) {
                    List<String> cmd = new ArrayList<>(List.of("query", exports.get(side).toString(), "--format", "csv"));
                    cmd.addAll(q.getValue());
                    answers.add(run(javaHome, mts.get(side), cmd));
                }
                boolean equal = java.util.Arrays.equals(answers.get(0), answers.get(1));
                same &= equal;
                System.out.printf(Locale.ROOT, "answer of %-50s %s (%,d lines)%n", q.getKey(), equal ? "identical" : "DIFFERS",
                        new String(answers.get(0), StandardCharsets.UTF_8).lines().count());
            }
        }
        long mtlog = Files.size(log);
        for (Map.Entry<String, Path> e : exports.entrySet()) {
            long parquet = size(e.getValue());
            System.out.printf(Locale.ROOT, "%nSizes%s: .jfr %,d bytes; .mtlog %,d bytes; Parquet %,d bytes (%.3f of the .mtlog, %.3f of the .jfr)%n",
                    e.getKey(), Files.size(jfr), mtlog, parquet, parquet / (double) mtlog, parquet / (double) Files.size(jfr));
            try (Stream<Path> t = Files.list(e.getValue())) {
                for (Path table : t.sorted().toList()) {
                    System.out.printf(Locale.ROOT, "  %-10s %,15d bytes%n", table.getFileName(), size(table));
                }
            }
        }
        Files.deleteIfExists(log);
        if (!keep) {
            for (Path e : exports.values()) {
                delete(e);
            }
        }
        if (!same) {
            System.err.println("bench/run query: the checkouts' answers differ");
            System.exit(1);
        }
    }

    private static void record(Map<String, List<double[]>> runs, String name, double[] result) {
        runs.computeIfAbsent(name, k -> new ArrayList<>()).add(result);
        System.out.printf(Locale.ROOT, "  %s: %.2f s, %.0f MiB RSS%n", name, result[0], result[1] / 1024);
    }

    /** Runs {@code mt args} under /usr/bin/time; returns seconds and peak RSS (KiB). Exit status 0 or 3 only. */
    private static double[] time(Path javaHome, Path mt, List<String> args) throws IOException, InterruptedException {
        Path times = Files.createTempFile("query-bench", ".time");
        try {
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-o", times.toString(), "-f", "%e %M", mt.toString()));
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("JAVA_HOME", javaHome.toString());
            int rc = pb.start().waitFor();
            String[] t = Files.readString(times).trim().split("\\s+");
            if (rc != 0 && rc != 3) {
                throw new IOException("bin/mt " + String.join(" ", args) + " exited with status " + rc);
            }
            return new double[] {Double.parseDouble(t[t.length - 2]), Double.parseDouble(t[t.length - 1])};
        } finally {
            Files.deleteIfExists(times);
        }
    }

    private static byte[] run(Path javaHome, Path mt, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(mt.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", javaHome.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IOException("bin/mt " + String.join(" ", args) + " failed");
        }
        return out;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
