package dev.minitrace.bench.convert;

import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converter throughput and size. Generates (once, cached) a recording of 200 M minitrace trace
 * events (by default; about 1.2 GB, since the agent packs them at about 6 bytes each) from 4 threads, made by the real agent tracing
 * {@link TracedTree}, then in interleaved rounds of child JVMs with the same heap limit reads it
 * with {@code RecordingFile} doing nothing else (the baseline) and converts it with
 * {@code mt convert} in both layouts. Prints median events per second, the ratio to the baseline,
 * peak RSS and peak heap, and bytes per event of the {@code .jfr} and the {@code .mtlog}.
 *
 * <p>Usage: {@code ConvertBench [--java JDK_HOME] [--events N] [--threads N] [--rounds N]
 * [--heap 512m] [--file F.jfr] [--regenerate]}.
 */
public final class ConvertBench {
    private ConvertBench() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        long events = 200_000_000;
        int threads = 4;
        int rounds = 3;
        String heap = "512m";
        // Renamed whenever the generator changes: the recording is cached between runs.
        Path file = BenchPaths.projectRoot().resolve("bench/target/convert-bench-buffered.jfr");
        boolean regenerate = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--java" -> javaHome = Path.of(args[++i]);
                case "--events" -> events = Long.parseLong(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--heap" -> heap = args[++i];
                case "--file" -> file = Path.of(args[++i]);
                case "--regenerate" -> regenerate = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (expected --java, --events, --threads, --rounds, --heap, --file, --regenerate)");
            }
        }
        ChildJvm jvm = new ChildJvm(javaHome, BenchPaths.benchJar());
        Path countFile = file.resolveSibling(file.getFileName() + ".count");
        if (regenerate || !Files.isRegularFile(file) || !Files.isRegularFile(countFile)) {
            System.out.printf(Locale.ROOT, "Generating %s: %,d minitrace events from %d threads...%n", file, events, threads);
            Files.createDirectories(file.toAbsolutePath().getParent());
            // Eager: the generator loads TracedTree before it starts its recording, and a deferred
            // agent would trace it only once its worker retransformed it, so fewer events than made.
            String n = jvm.run(List.of("-Xmx1g", "-Dminitrace.rewrite=eager",
                    "-javaagent:" + BenchPaths.agentJar() + "=" + RecordingGenerator.AGENT_OPTIONS),
                    RecordingGenerator.class.getName(),
                    List.of(file.toString(), Long.toString(events), Integer.toString(threads)));
            Files.writeString(countFile, n);
        }
        long minitraceEvents = Long.parseLong(Files.readString(countFile).trim());
        if (rounds == 0) {
            return; // --rounds 0: only make sure the recording exists
        }
        long jfrBytes = Files.size(file);
        Path out = file.resolveSibling("convert-bench.mtlog");
        System.out.printf(Locale.ROOT, "Converter throughput: JDK %d, %s (%,d bytes, %,d minitrace trace events made), -Xmx%s, %d rounds%n",
                jvm.featureVersion(), file.getFileName(), jfrBytes, minitraceEvents, heap, rounds);

        Map<String, double[][]> runs = new LinkedHashMap<>(); // name -> [round][seconds, rssKb, heapBytes, outBytes]
        long allEvents = -1;
        long inFile = -1;
        for (String name : List.of("RecordingFile", "mt convert --layout thread", "mt convert --layout global")) {
            runs.put(name, new double[rounds][]);
        }
        List<String> opts = List.of("-Xmx" + heap, "-Xms" + heap);
        for (int r = 0; r < rounds; r++) {
            String[] base = jvm.run(opts, RecordingFileProbe.class.getName(), List.of(file.toString())).split(" ");
            allEvents = Long.parseLong(base[0]);
            inFile = Long.parseLong(base[4]);
            runs.get("RecordingFile")[r] = new double[] {Double.parseDouble(base[1]), Double.parseDouble(base[2]), Double.parseDouble(base[3]), 0};
            System.out.printf(Locale.ROOT, "  round %d RecordingFile: %.2f s%n", r + 1, Double.parseDouble(base[1]));
            for (String layout : List.of("thread", "global")) {
                String[] res = jvm.run(opts, ConvertProbe.class.getName(), List.of(file.toString(), out.toString(), layout)).split(" ");
                if (!res[0].equals("0") && !res[0].equals("3")) {
                    // 3 = converted completely, with a warning that the recording itself lost events
                    throw new IllegalStateException("mt convert --layout " + layout + " exited with status " + res[0]);
                }
                runs.get("mt convert --layout " + layout)[r] = new double[] {Double.parseDouble(res[1]), Double.parseDouble(res[2]),
                    Double.parseDouble(res[3]), Double.parseDouble(res[4])};
                System.out.printf(Locale.ROOT, "  round %d %s: %.2f s%n", r + 1, layout, Double.parseDouble(res[1]));
            }
        }
        Files.deleteIfExists(out);
        System.out.printf(Locale.ROOT, "%nJFR events in the file (RecordingFile's count): %,d; minitrace trace events in them: %,d"
                + " (%,d made)%n", allEvents, inFile, minitraceEvents);
        minitraceEvents = inFile;
        System.out.println("reader                         median s  trace ev/s   x RecordingFile  peak RSS MiB  peak heap MiB");
        double baseRate = 0;
        for (Map.Entry<String, double[][]> e : runs.entrySet()) {
            double s = ChildJvm.median(column(e.getValue(), 0));
            double rate = minitraceEvents / s;
            if (baseRate == 0) {
                baseRate = rate;
            }
            System.out.printf(Locale.ROOT, "%-29s %9.2f %11.3e %16.2f %13.0f %14.0f%n", e.getKey(), s, rate, rate / baseRate,
                    ChildJvm.median(column(e.getValue(), 1)) / 1024, ChildJvm.median(column(e.getValue(), 2)) / (1024 * 1024));
        }
        System.out.printf(Locale.ROOT, "%nSize: .jfr %.2f bytes per minitrace event", jfrBytes / (double) minitraceEvents);
        for (String layout : List.of("thread", "global")) {
            double bytes = ChildJvm.median(column(runs.get("mt convert --layout " + layout), 3));
            System.out.printf(Locale.ROOT, "; .mtlog (%s) %.2f bytes per event", layout, bytes / minitraceEvents);
        }
        System.out.println();
    }

    private static double[] column(double[][] rows, int c) {
        double[] col = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            col[i] = rows[i][c];
        }
        return col;
    }
}
