package dev.minitrace.bench.moobench;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import dev.minitrace.bench.TracerOptions;
import dev.minitrace.bench.apps.AppsBench;
import dev.minitrace.bench.apps.EcjApp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code bench/run moobench}: MooBench's set-up (its system under test, {@link MonitoredClass}
 * recursing to depth 10 with method time 0, timed per top-level call by {@link MooBenchDriver}),
 * run in a fresh JVM per configuration and loop, the configurations interleaved within each
 * loop: no agent; MiniTrace loaded without a recording; MiniTrace with the full profile; JEP 520's
 * {@code jdk.MethodTrace} with the same profile (JDK 25+); Kieker's AspectJ agent with its binary
 * file writer; the OpenTelemetry Java agent with spans not sampled. Each configuration's figures
 * are MooBench's: the second half of every run's calls, pooled over the loops; mean with 95 %
 * confidence interval, median, quartiles, per call tree and per instrumented call (minus the
 * run without agent, divided by the depth), and the bytes of trace per call. Every MiniTrace
 * trace is converted with {@code bin/mt} and must hold exactly 2 x calls x depth records of the
 * monitored method, or the benchmark stops with exit status 1.
 */
public final class MooBench {
    static final String USAGE = "bench/run moobench [--java JDK_HOME] [--calls N] [--loops N] [--depth N] [--method-time NS]"
            + " [--configs plain,mt-loaded,mt-full,jep520,kieker,otel] [--keep DIR]";
    static final List<String> CONFIGS = List.of("plain", "mt-loaded", "mt-full", "jep520", "kieker", "otel");
    private static final String MONITORED = MonitoredClass.class.getName();
    private static final String METHOD = "monitoredMethod";
    /** The Kieker file writer's records per file (its default, named so the bytes per record can be read off a full file). */
    private static final int KIEKER_ENTRIES_PER_FILE = 25_000;

    /** The parsed command line. */
    record Options(Path javaHome, int calls, int loops, int depth, long methodTime, List<String> configs, boolean configsGiven,
            Path keep) {
    }

    /** One configuration: its key, what it is, the options of its child JVM. */
    private record Config(String key, String description, List<String> jvmOptions) {
    }

    private MooBench() {
    }

    /** Entry point: a bad command line is one line on stderr and exit 2; an inexact trace exit 1. */
    public static void main(String[] args) throws Exception {
        try {
            run(parse(args));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("moobench", e);
        } catch (InexactTrace e) {
            System.err.println("bench/run moobench: INEXACT TRACE: " + e.getMessage());
            System.exit(1);
        }
    }

    static Options parse(String[] args) throws BenchArgs.Usage {
        Path javaHome = Path.of(System.getProperty("java.home"));
        int calls = 1_000_000;
        int loops = 3;
        int depth = 10;
        long methodTime = 0;
        List<String> configs = new ArrayList<>(CONFIGS);
        boolean configsGiven = false;
        Path keep = null;
        BenchArgs cli = new BenchArgs(args, USAGE);
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--calls" -> calls = cli.intNumber(2);
                case "--loops" -> loops = cli.intNumber(1);
                case "--depth" -> depth = cli.intNumber(1);
                case "--method-time" -> methodTime = cli.number(0);
                case "--configs" -> {
                    configs = new ArrayList<>(cli.names(CONFIGS));
                    configsGiven = true;
                }
                case "--keep" -> keep = Path.of(cli.value());
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.out.println("MooBench's system under test (depth 10, method time 0) under each tracer, a fresh JVM per"
                            + " configuration and loop. Default: 1,000,000 calls x 3 loops; MooBench's own size: --calls 2000000 --loops 10.");
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        if (!configs.contains("plain")) {
            configs.add(0, "plain"); // every per-call figure is measured against it
        }
        return new Options(javaHome, calls, loops, depth, methodTime, configs, configsGiven, keep);
    }

    static void run(Options o) throws Exception {
        ChildJvm jvm = new ChildJvm(o.javaHome(), BenchPaths.benchJar());
        int feature = jvm.featureVersion();
        List<String> keys = TracerOptions.runnable(o.configs(), o.configsGiven(), feature);
        Path root = BenchPaths.projectRoot();
        Path agents = root.resolve("bench/target/moobench");
        for (String[] needed : new String[][] {{"kieker", "kieker-aspectj.jar"}, {"otel", "opentelemetry-javaagent.jar"}}) {
            if (keys.contains(needed[0]) && !Files.isRegularFile(agents.resolve(needed[1]))) {
                throw new BenchArgs.Usage("no " + agents.resolve(needed[1]) + ": run 'mvn -B -DskipTests package' first");
            }
        }
        Path work = Files.createTempDirectory("mt-moobench");
        Path recording = work.resolve("trace.jfr");
        Path kiekerData = work.resolve("kieker");
        Map<String, Config> configs = configs(keys, root, work, recording, kiekerData, agents);
        if (o.keep() != null) {
            Files.createDirectories(o.keep());
        }

        System.out.printf(Locale.ROOT, "MooBench: JDK %d (%s), %,d calls of depth %d, method time %d ns, %d loops, %s UTC,"
                + " load average %s, %d cores%n", feature, o.javaHome(), o.calls(), o.depth(), o.methodTime(), o.loops(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), AppsBench.loadAverage(), Runtime.getRuntime().availableProcessors());
        for (Config c : configs.values()) {
            System.out.printf(Locale.ROOT, "  %-9s %s%n", c.key(), c.description());
        }
        int kept = o.calls() - o.calls() / 2;
        Map<String, int[]> pooled = new LinkedHashMap<>();
        Map<String, List<Double>> bytesPerCall = new LinkedHashMap<>();
        for (String key : configs.keySet()) {
            pooled.put(key, new int[kept * o.loops()]);
            bytesPerCall.put(key, new ArrayList<>());
        }
        Path times = work.resolve("times.bin");
        long monitoredCalls = (long) o.calls() * o.depth();
        for (int loop = 0; loop < o.loops(); loop++) {
            for (Config c : configs.values()) {
                Files.deleteIfExists(recording);
                EcjApp.deleteTree(kiekerData);
                Files.createDirectories(kiekerData); // Kieker's writer writes nothing into a folder that is not there
                List<String> opts = new ArrayList<>(List.of("-Xms1g", "-Xmx2g"));
                opts.addAll(c.jvmOptions());
                jvm.run(opts, MooBenchDriver.class.getName(),
                        List.of(Integer.toString(o.calls()), Integer.toString(o.depth()), Long.toString(o.methodTime()), times.toString()));
                int[] secondHalf = readSecondHalf(times, o.calls());
                System.arraycopy(secondHalf, 0, pooled.get(c.key()), loop * kept, kept);
                Stats s = Stats.of(secondHalf.clone());
                double bytes = traceBytes(c.key(), recording, kiekerData, monitoredCalls);
                if (!Double.isNaN(bytes)) {
                    bytesPerCall.get(c.key()).add(bytes);
                }
                String check = "";
                if (c.key().equals("mt-full")) {
                    long records = TraceCount.monitoredRecords(root, o.javaHome(), recording, work, MONITORED + "." + METHOD);
                    if (records != 2 * monitoredCalls) {
                        throw new InexactTrace(String.format(Locale.ROOT, "loop %d: the converted trace holds %,d records of %s.%s,"
                                + " expected 2 x %,d calls x %d = %,d", loop + 1, records, MONITORED, METHOD, o.calls(), o.depth(),
                                2 * monitoredCalls));
                    }
                    check = String.format(Locale.ROOT, "  exact: %,d records of the monitored method", records);
                    if (o.keep() != null && loop == o.loops() - 1) {
                        Files.copy(recording, o.keep().resolve("moobench-jdk" + feature + "-mt-full.jfr"),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                System.out.printf(Locale.ROOT, "  loop %d %-9s median %8.1f ns/tree  mean %8.1f%s%s%n", loop + 1, c.key(), s.median(),
                        s.mean(), Double.isNaN(bytes) ? "" : String.format(Locale.ROOT, "  %6.2f bytes/call", bytes), check);
            }
        }
        Files.deleteIfExists(recording);
        EcjApp.deleteTree(work);
        System.out.printf(Locale.ROOT, "%nLoad average at the end: %s (shared machine: figures are noisy)%n", AppsBench.loadAverage());
        report(configs, pooled, bytesPerCall, o.depth(), kept, o.loops());
    }

    private static Map<String, Config> configs(List<String> keys, Path root, Path work, Path recording, Path kiekerData, Path agents)
            throws IOException {
        Path agent = BenchPaths.agentJar();
        String jfc = root.resolve("jfc-profiles/minitrace.jfc").toString();
        Map<String, Config> configs = new LinkedHashMap<>();
        for (String key : keys) {
            Config c = switch (key) {
                case "plain" -> new Config(key, "no agent", List.of());
                case "mt-loaded" -> new Config(key, "MiniTrace's agent loaded (include=" + MONITORED + "), no recording",
                        List.of(TracerOptions.agent(agent, "include=" + MONITORED)));
                case "mt-full" -> {
                    List<String> opts = new ArrayList<>(List.of(TracerOptions.agent(agent, "include=" + MONITORED)));
                    opts.addAll(TracerOptions.recording("minitrace", jfc, recording));
                    yield new Config(key, "MiniTrace's agent + a recording with jfc-profiles/minitrace.jfc", opts);
                }
                case "jep520" -> new Config(key, "no agent; a recording with minitrace.jfc + jdk.MethodTrace of " + METHOD
                        + " (JEP 520), no stack traces",
                        TracerOptions.recording("jep520", jfc + "," + TracerOptions.methodTrace(MONITORED + "::" + METHOD), recording));
                case "kieker" -> new Config(key, "Kieker " + kiekerVersion(agents) + " AspectJ agent, OperationExecutionAspectFull,"
                        + " binary file writer (MooBench's settings)", kieker(agents, work, kiekerData));
                case "otel" -> new Config(key, "OpenTelemetry Java agent, " + METHOD + " instrumented, spans not sampled,"
                        + " no exporter (MooBench's 'no logging')", otel(agents));
                default -> throw new IllegalStateException(key);
            };
            configs.put(key, c);
        }
        return configs;
    }

    /**
     * Kieker as MooBench runs it: load-time weaving of the monitored class with the aspect of its
     * aop.xml, and its writer settings of the binary writer configuration, here in a generated
     * kieker.monitoring.properties (MooBench passes them as -D options).
     */
    private static List<String> kieker(Path agents, Path work, Path data) throws IOException {
        Path aop = work.resolve("aop.xml");
        Files.writeString(aop, """
                <!DOCTYPE aspectj PUBLIC "-//AspectJ//DTD//EN" "http://www.aspectj.org/dtd/aspectj_1_5_0.dtd">
                <aspectj>
                  <weaver options="">
                    <include within="%s"/>
                  </weaver>
                  <aspects>
                    <aspect name="kieker.monitoring.probe.aspectj.operationExecution.OperationExecutionAspectFull"/>
                  </aspects>
                </aspectj>
                """.formatted(MONITORED));
        Path properties = work.resolve("kieker.monitoring.properties");
        String writer = "kieker.monitoring.writer.filesystem.FileWriter";
        Files.writeString(properties, String.join("\n",
                "kieker.monitoring.name=KIEKER-BENCHMARK",
                "kieker.monitoring.enabled=true",
                "kieker.monitoring.adaptiveMonitoring.enabled=false",
                "kieker.monitoring.periodicSensorsExecutorPoolSize=0",
                "kieker.monitoring.writer=" + writer,
                writer + ".logStreamHandler=kieker.monitoring.writer.filesystem.BinaryLogStreamHandler",
                writer + ".bufferSize=8192",
                writer + ".customStoragePath=" + data,
                writer + ".maxEntriesInFile=" + KIEKER_ENTRIES_PER_FILE,
                writer + ".maxLogFiles=100",
                "kieker.monitoring.core.controller.WriterController.QueuePutStrategy=kieker.monitoring.queue.putstrategy.YieldPutStrategy",
                ""));
        return List.of("-javaagent:" + agents.resolve("kieker-aspectj.jar"),
                // AspectJ's weaver needs java.lang open on JDK 9+ (MooBench sets the same)
                "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-Dkieker.monitoring.skipDefaultAOPConfiguration=true",
                "-Dorg.aspectj.weaver.loadtime.configuration=" + aop.toUri(),
                "-Dkieker.monitoring.configuration=" + properties);
    }

    /** The OpenTelemetry agent as MooBench's 'no logging' configuration runs it, with no exporter trying to connect. */
    private static List<String> otel(Path agents) {
        return List.of("-javaagent:" + agents.resolve("opentelemetry-javaagent.jar"),
                "-Dotel.resource.attributes=service.name=moobench",
                "-Dotel.instrumentation.methods.include=" + MONITORED + "[" + METHOD + "]",
                "-Dotel.traces.sampler=always_off",
                "-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none");
    }

    private static String kiekerVersion(Path agents) throws IOException {
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(agents.resolve("kieker-aspectj.jar").toFile())) {
            java.util.jar.Attributes a = jar.getManifest().getAttributes("kieker");
            return a == null ? "" : a.getValue("Specification-Version");
        }
    }

    /**
     * Bytes of trace per monitored call: the recording's size; for Kieker, whose writer keeps
     * only its last 100 files, the size of its largest file (a full one) per record; NaN when
     * the configuration writes no trace.
     */
    private static double traceBytes(String key, Path recording, Path kiekerData, long monitoredCalls) throws IOException {
        if (key.equals("mt-full") || key.equals("jep520")) {
            return Files.size(recording) / (double) monitoredCalls;
        }
        if (key.equals("kieker") && Files.isDirectory(kiekerData)) {
            long largest = 0;
            try (Stream<Path> files = Files.walk(kiekerData)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".bin")).toList()) {
                    largest = Math.max(largest, Files.size(f));
                }
            }
            return largest / (double) KIEKER_ENTRIES_PER_FILE;
        }
        return Double.NaN;
    }

    /** The second half of the run's call times (MooBench discards the first half as warm-up). */
    static int[] readSecondHalf(Path times, int calls) throws IOException {
        int from = calls / 2;
        int[] out = new int[calls - from];
        try (FileChannel ch = FileChannel.open(times, StandardOpenOption.READ)) {
            if (ch.size() != 8L * calls) {
                throw new IOException(times + ": " + ch.size() + " bytes, expected " + 8L * calls);
            }
            ByteBuffer buf = ByteBuffer.allocate(8 * out.length).order(ByteOrder.LITTLE_ENDIAN);
            ch.position(8L * from);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // fill
            }
            buf.flip();
            for (int i = 0; i < out.length; i++) {
                out[i] = (int) Math.min(Integer.MAX_VALUE, buf.getLong());
            }
        }
        return out;
    }

    private static void report(Map<String, Config> configs, Map<String, int[]> pooled, Map<String, List<Double>> bytesPerCall, int depth,
            int kept, int loops) {
        System.out.printf(Locale.ROOT, "%nPer call tree (one top-level call, depth %d), ns: second half of each run, %d loops pooled (%,d calls)%n",
                depth, loops, (long) kept * loops);
        System.out.println("config        mean   95% CI +-    median        Q1        Q3   | per instrumented call, ns:"
                + "   mean   95% CI +-   median  | bytes/call");
        Map<String, Stats> stats = new LinkedHashMap<>();
        for (Map.Entry<String, int[]> e : pooled.entrySet()) {
            stats.put(e.getKey(), Stats.of(e.getValue()));
        }
        Stats base = stats.get("plain");
        for (Map.Entry<String, Stats> e : stats.entrySet()) {
            Stats s = e.getValue();
            List<Double> bytes = bytesPerCall.get(e.getKey());
            String perCall = e.getKey().equals("plain") ? String.format(Locale.ROOT, "%28s %8s %11s %8s", "", "-", "-", "-")
                    : String.format(Locale.ROOT, "%28s %8.2f %11.2f %8.2f", "", (s.mean() - base.mean()) / depth,
                            s.ci95OfDifference(base) / depth, (s.median() - base.median()) / depth);
            System.out.printf(Locale.ROOT, "%-9s %9.1f %11.2f %9.1f %9.1f %9.1f   |%s  | %s%n", e.getKey(), s.mean(), s.ci95(), s.median(),
                    s.q1(), s.q3(), perCall, bytes.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f",
                            bytes.stream().mapToDouble(Double::doubleValue).sorted().toArray()[bytes.size() / 2]));
        }
        if (stats.containsKey("mt-full")) {
            System.out.printf(Locale.ROOT, "%nMiniTrace full trace per instrumented call: median %.2f ns (target <= 6 ns)%n",
                    (stats.get("mt-full").median() - base.median()) / depth);
        }
    }

    /** The converted trace does not hold exactly the records the run made. */
    static final class InexactTrace extends Exception {
        InexactTrace(String message) {
            super(message);
        }
    }
}
