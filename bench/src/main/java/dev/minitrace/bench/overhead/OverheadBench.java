package dev.minitrace.bench.overhead;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import dev.minitrace.bench.TracerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Tracing overhead, MooBench style: time per call tree (a method recursing to depth 10) in child
 * JVMs for (a) no agent, (b) agent loaded but no recording, (c) agent and a recording of method
 * events, (d) on JDK 25+ no agent and JEP 520's {@code jdk.MethodTrace} filtered to the same
 * method without stack traces; and (a') / (c') for a workload that also locks and allocates at
 * every level, with lock and allocation events on. Rounds are interleaved; each figure is the
 * median over rounds of each child's median batch.
 *
 * <p>With {@code --against DIR} (the root of another built checkout, an earlier version) every
 * configuration that loads the agent also runs with that checkout's agent, as {@code KEY@against},
 * in the same interleaved rounds, and the ratio of each pair is printed: before and after a change
 * under the same load.
 *
 * <p>Usage: {@code OverheadBench [--java JDK_HOME] [--rounds N] [--trees N] [--warmup N] [--configs KEY,KEY...]
 * [--against DIR]}.
 */
public final class OverheadBench {
    private static final String WORKLOAD = CallTreeWorkload.class.getName();

    static final String USAGE = "bench/run overhead [--java JDK_HOME] [--rounds N] [--trees N] [--warmup N] [--configs a,c,...] [--against DIR]";

    private OverheadBench() {
    }

    /** Entry point: a bad command line is one line on stderr and exit status 2. */
    public static void main(String[] args) throws Exception {
        try {
            run(new BenchArgs(args, USAGE));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("overhead", e);
        }
    }

    private static void run(BenchArgs cli) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        int rounds = 5;
        long trees = 2_000_000;
        long warmup = 1_000_000;
        int batches = 20;
        java.util.Set<String> only = null;
        Path against = null;
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--configs" -> only = new java.util.HashSet<>(List.of(cli.value().split(",")));
                case "--java" -> javaHome = cli.javaHome();
                case "--rounds" -> rounds = cli.intNumber(1);
                case "--trees" -> trees = cli.number(1);
                case "--warmup" -> warmup = cli.number(0);
                case "--against" -> against = Path.of(cli.value()).toAbsolutePath();
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        ChildJvm jvm = new ChildJvm(javaHome, BenchPaths.benchJar());
        int feature = jvm.featureVersion();
        Path agent = BenchPaths.agentJar();
        Path otherAgent = null;
        if (against != null) {
            otherAgent = against.resolve("injector/target/minitrace-agent.jar");
            if (!Files.isRegularFile(otherAgent)) {
                throw new BenchArgs.Usage("--against " + against + ": no built agent at " + otherAgent);
            }
        }
        Path work = Files.createTempDirectory("mt-overhead");
        Path jfcMethods = writeJfc(work.resolve("methods.jfc"), false);
        Path jfcAll = writeJfc(work.resolve("all.jfc"), true);
        Path jfcCapture = writeJfc(work.resolve("capture.jfc"), false, true);
        String plainFilter = WORKLOAD + "::recurse";
        String richFilter = WORKLOAD + "::recurseRich";
        Path jfr = work.resolve("run.jfr");

        Map<String, Config> configs = new LinkedHashMap<>();
        configs.put("a", new Config("no agent", "plain", List.of()));
        // Eager: the agent rewrites nothing while no recording is on (docs/agent.md), and (b)
        // measures what its disabled hooks cost in the rewritten code.
        configs.put("b", new Config("agent, no recording, classes rewritten (minitrace.rewrite=eager)", "plain",
                List.of("-Dminitrace.rewrite=eager", "-javaagent:" + agent + "=include=" + plainFilter)));
        configs.put("c", new Config("agent + recording (method records, buffered: the default)", "plain",
                List.of("-javaagent:" + agent + "=include=" + plainFilter,
                        "-XX:StartFlightRecording:settings=" + jfcMethods + ",maxsize=0,filename=" + jfr)));
        // The same agent with its two other ways of recording method events, to show what each costs.
        configs.put("c-every", new Config("as c, every record stamped (stamp=every)", "plain",
                List.of("-javaagent:" + agent + "=include=" + plainFilter + ",stamp=every",
                        "-XX:StartFlightRecording:settings=" + jfcMethods + ",maxsize=0,filename=" + jfr)));
        configs.put("c-events", new Config("as c, one JFR event per entry and exit (methods=events)", "plain",
                List.of("-javaagent:" + agent + "=include=" + plainFilter + ",methods=events",
                        "-XX:StartFlightRecording:settings=" + jfcMethods + ",maxsize=0,filename=" + jfr)));
        // The shipped profiles enable minitrace.MethodCapture; without capture= no method carries its code.
        configs.put("c-cap", new Config("as c, minitrace.MethodCapture enabled as in the shipped profiles, no capture=", "plain",
                List.of("-javaagent:" + agent + "=include=" + plainFilter,
                        "-XX:StartFlightRecording:settings=" + jfcCapture + ",maxsize=0,filename=" + jfr)));
        if (feature >= 25) {
            configs.put("d", new Config("JEP 520 jdk.MethodTrace, no agent", "plain",
                    List.of("-XX:StartFlightRecording:settings=none," + TracerOptions.methodTrace(plainFilter) + ",maxsize=0,filename=" + jfr)));
        }
        configs.put("a'", new Config("no agent, locks + allocations", "rich", List.of()));
        configs.put("c'", new Config("agent + recording (method, lock, alloc events)", "rich",
                List.of("-javaagent:" + agent + "=include=" + richFilter + ",events=method+lock+alloc",
                        "-XX:StartFlightRecording:settings=" + jfcAll + ",maxsize=0,filename=" + jfr)));

        // The heap records' costs (issue #12), run only when named: each workload without the agent,
        // with today's method tracing, and with the heap record kind added.
        Path jfcHeap = BenchPaths.projectRoot().resolve("jfc-profiles/minitrace-heap.jfc");
        String[][] heap = {
            {"store", "recurseStore", "field", jfcMethods.toString(), "a reference field store"},
            {"throw", "recurseThrow", "exception", jfcMethods.toString(), "an exception thrown and caught"},
            {"death", "recurseAlloc", "alloc+death", jfcAll.toString(), "an allocated object that dies"},
            {"recv", "recurseOn", "receiver", jfcMethods.toString(), "an instance method's receiver"},
        };
        for (String[] h : heap) {
            String filter = WORKLOAD + "::" + h[1];
            String methodEvents = h[0].equals("death") ? "method+alloc" : "method";
            configs.put("a-" + h[0], new Config("no agent, " + h[4] + " per call", h[0], List.of()));
            configs.put("m-" + h[0], new Config("agent + recording, events=" + methodEvents + ", " + h[4] + " per call", h[0],
                    List.of("-javaagent:" + agent + "=include=" + filter + ",events=" + methodEvents,
                            "-XX:StartFlightRecording:settings=" + h[3] + ",maxsize=0,filename=" + jfr)));
            configs.put("c-" + h[0], new Config("agent + recording, events=method+" + h[2] + ", " + h[4] + " per call", h[0],
                    List.of("-javaagent:" + agent + "=include=" + filter + ",events=method+" + h[2],
                            "-XX:StartFlightRecording:settings=" + jfcHeap + ",maxsize=0,filename=" + jfr)));
        }
        if (only == null) {
            configs.keySet().removeIf(k -> k.matches("[amc]-(store|throw|death|recv)"));
        }

        if (otherAgent != null) {
            Map<String, Config> both = new LinkedHashMap<>();
            for (Map.Entry<String, Config> e : configs.entrySet()) {
                both.put(e.getKey(), e.getValue());
                String agentOption = "-javaagent:" + agent + "=";
                if (e.getValue().jvmOptions.stream().anyMatch(o -> o.startsWith(agentOption))) {
                    List<String> other = new ArrayList<>();
                    for (String o : e.getValue().jvmOptions) {
                        other.add(o.startsWith(agentOption) ? "-javaagent:" + otherAgent + "=" + o.substring(agentOption.length()) : o);
                    }
                    both.put(e.getKey() + "@against", new Config(e.getValue().description + ", agent of " + against,
                            e.getValue().mode, other));
                }
            }
            configs = both;
        }
        if (only != null) {
            // a short run of the configurations asked for, with the baselines they need
            boolean rich = false;
            for (String key : only) {
                rich |= configs.containsKey(key) && configs.get(key).mode.equals("rich");
            }
            for (String key : List.copyOf(configs.keySet())) {
                String base = key.endsWith("@against") ? key.substring(0, key.length() - "@against".length()) : key;
                boolean baselineNeeded = false;
                for (String named : only) {
                    Config c = configs.get(named);
                    baselineNeeded |= c != null && key.equals(baselineKey(c.mode));
                }
                if (!only.contains(base) && !key.equals("a") && !(rich && key.equals("a'")) && !baselineNeeded) {
                    configs.remove(key);
                }
            }
        }
        System.out.printf(Locale.ROOT, "Tracing overhead: JDK %d, %d rounds, %,d call trees of depth %d measured after %,d warm-up%n",
                feature, rounds, trees, CallTreeWorkload.DEPTH, warmup);
        Map<String, double[]> results = new LinkedHashMap<>();
        Map<String, double[]> cpuResults = new LinkedHashMap<>();
        Map<String, double[]> recordingBytes = new LinkedHashMap<>();
        for (String key : configs.keySet()) {
            results.put(key, new double[rounds]);
            cpuResults.put(key, new double[rounds]);
            recordingBytes.put(key, new double[rounds]);
        }
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, Config> e : configs.entrySet()) {
                Config c = e.getValue();
                List<String> args2 = List.of(c.mode, Long.toString(warmup), Long.toString(trees), Integer.toString(batches));
                List<String> opts = new ArrayList<>(List.of("-Xms256m", "-Xmx256m"));
                opts.addAll(c.jvmOptions);
                String[] result = jvm.run(opts, WORKLOAD, args2).trim().split(" ");
                double ns = Double.parseDouble(result[0]);
                double cpu = Double.parseDouble(result[1]);
                results.get(e.getKey())[r] = ns;
                cpuResults.get(e.getKey())[r] = cpu;
                recordingBytes.get(e.getKey())[r] = Files.exists(jfr) ? Files.size(jfr) : 0;
                Files.deleteIfExists(jfr);
                System.out.printf(Locale.ROOT, "  round %d %-3s %10.1f ns/tree %10.1f CPU ns/tree%n", r + 1, e.getKey(), ns, cpu);
            }
        }
        double a = ChildJvm.median(results.get("a"));
        System.out.println();
        double aCpu = ChildJvm.median(cpuResults.get("a"));
        System.out.println("config    median ns/tree  ns per traced call (x - baseline)/10   process CPU: ns/tree  per call   description");
        for (Map.Entry<String, Config> e : configs.entrySet()) {
            double x = ChildJvm.median(results.get(e.getKey()));
            double xCpu = ChildJvm.median(cpuResults.get(e.getKey()));
            String baseKey = baselineKey(e.getValue().mode);
            double base = results.containsKey(baseKey) ? ChildJvm.median(results.get(baseKey)) : Double.NaN;
            double baseCpu = results.containsKey(baseKey) ? ChildJvm.median(cpuResults.get(baseKey)) : Double.NaN;
            System.out.printf(Locale.ROOT, "%-8s  %14.1f  %36.2f   %19.1f  %8.2f   %s%n", e.getKey(), x,
                    (x - base) / CallTreeWorkload.DEPTH, xCpu, (xCpu - baseCpu) / CallTreeWorkload.DEPTH,
                    e.getValue().description);
        }
        heapCosts(results, cpuResults, recordingBytes, rounds, warmup + trees);
        if (otherAgent != null) {
            System.out.println();
            System.out.println("this agent / agent of --against, median of per-round ratios of ns per traced call (x - baseline):");
            for (String key : configs.keySet()) {
                if (!results.containsKey(key + "@against")) {
                    continue;
                }
                double[] base = results.get(configs.get(key).mode.equals("rich") ? "a'" : "a");
                double[] baseCpu = cpuResults.get(configs.get(key).mode.equals("rich") ? "a'" : "a");
                double[] ratios = new double[rounds];
                double[] cpuRatios = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    ratios[r] = (results.get(key)[r] - base[r]) / (results.get(key + "@against")[r] - base[r]);
                    cpuRatios[r] = (cpuResults.get(key)[r] - baseCpu[r]) / (cpuResults.get(key + "@against")[r] - baseCpu[r]);
                }
                System.out.printf(Locale.ROOT, "  %-8s %.3f (process CPU: %.3f)%n", key, ChildJvm.median(ratios), ChildJvm.median(cpuRatios));
            }
        }
        if (results.containsKey("c") && results.containsKey("c-cap")) {
            double[] ratios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratios[r] = results.get("c-cap")[r] / results.get("c")[r];
            }
            System.out.printf(Locale.ROOT, "%nMethodCapture enabled, no capture= (c-cap / c, median of per-round ratios): %.3f%n",
                    ChildJvm.median(ratios));
        }
        if (results.containsKey("b")) {
            double b = ChildJvm.median(results.get("b"));
            System.out.printf(Locale.ROOT, "%nDisabled overhead (b - a)/10: %.2f ns per instrumented call (target <= 1 ns)%n",
                    (b - a) / CallTreeWorkload.DEPTH);
        }
        if (!results.containsKey("c")) {
            return;
        }
        double c = ChildJvm.median(results.get("c"));
        if (results.containsKey("d")) {
            double d = ChildJvm.median(results.get("d"));
            System.out.printf(Locale.ROOT, "Enabled overhead ratio (c - a) / (d - a): %.2f (issue #11: <= 0.25); in process CPU time %.2f%n",
                    (c - a) / (d - a), (ChildJvm.median(cpuResults.get("c")) - aCpu) / (ChildJvm.median(cpuResults.get("d")) - aCpu));
            for (String variant : List.of("c-every", "c-events")) {
                if (results.containsKey(variant)) {
                    System.out.printf(Locale.ROOT, "  %s: %.2f%n", configs.get(variant).description,
                            (ChildJvm.median(results.get(variant)) - a) / (d - a));
                }
            }
        } else {
            System.out.println("(d) needs JDK 25 or later: run with --java <JDK 25 home> for the JEP 520 comparison");
        }
    }

    /** The configuration without the agent that a configuration of workload {@code mode} is measured against. */
    static String baselineKey(String mode) {
        return switch (mode) {
            case "plain" -> "a";
            case "rich" -> "a'";
            default -> "a-" + mode;
        };
    }

    /**
     * Per heap record kind measured: what it adds per call to today's method tracing of the same
     * workload (median of the per-round differences, wall and process CPU), and the bytes it adds
     * to the recording per record (a throw makes two: the throw and its handler).
     */
    private static void heapCosts(Map<String, double[]> wall, Map<String, double[]> cpu, Map<String, double[]> bytes,
            int rounds, long trees) {
        boolean header = false;
        for (String kind : List.of("store", "throw", "death", "recv")) {
            if (!wall.containsKey("c-" + kind) || !wall.containsKey("m-" + kind)) {
                continue;
            }
            if (!header) {
                System.out.println();
                System.out.println("heap record kind: added to method tracing per call (ns, wall / process CPU), x plain, bytes per record");
                header = true;
            }
            double[] dWall = new double[rounds];
            double[] dCpu = new double[rounds];
            double[] dBytes = new double[rounds];
            int records = kind.equals("throw") ? 2 : 1;
            for (int r = 0; r < rounds; r++) {
                dWall[r] = (wall.get("c-" + kind)[r] - wall.get("m-" + kind)[r]) / CallTreeWorkload.DEPTH;
                dCpu[r] = (cpu.get("c-" + kind)[r] - cpu.get("m-" + kind)[r]) / CallTreeWorkload.DEPTH;
                dBytes[r] = (bytes.get("c-" + kind)[r] - bytes.get("m-" + kind)[r]) / (double) (trees * CallTreeWorkload.DEPTH * records);
            }
            double plain = wall.containsKey("a-" + kind) ? ChildJvm.median(wall.get("a-" + kind)) : Double.NaN;
            System.out.printf(Locale.ROOT, "  %-6s %8.2f / %8.2f ns   c %.2fx plain, methods only %.2fx   %6.2f bytes%n", kind,
                    ChildJvm.median(dWall), ChildJvm.median(dCpu), ChildJvm.median(wall.get("c-" + kind)) / plain,
                    ChildJvm.median(wall.get("m-" + kind)) / plain, ChildJvm.median(dBytes));
        }
    }

    private static Path writeJfc(Path file, boolean locksAndAllocs) throws IOException {
        return writeJfc(file, locksAndAllocs, false);
    }

    private static Path writeJfc(Path file, boolean locksAndAllocs, boolean capture) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\" label=\"bench\">\n");
        List<String> events = new ArrayList<>(List.of("minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodBuffer"));
        if (locksAndAllocs) {
            events.addAll(List.of("minitrace.LockAcquire", "minitrace.LockRelease", "minitrace.ObjectAlloc"));
        }
        for (String ev : events) {
            sb.append("  <event name=\"").append(ev).append("\"><setting name=\"enabled\">true</setting>")
                    .append("<setting name=\"stackTrace\">false</setting><setting name=\"threshold\">0 ns</setting></event>\n");
        }
        if (capture) {
            sb.append("  <event name=\"minitrace.MethodCapture\"><setting name=\"enabled\">true</setting>")
                    .append("<setting name=\"stackTrace\">true</setting><setting name=\"threshold\">0 ns</setting></event>\n");
        }
        for (String definitions : List.of("minitrace.MethodDefinition", "minitrace.ClassDefinition")) {
            sb.append("  <event name=\"").append(definitions).append("\"><setting name=\"enabled\">true</setting>")
                    .append("<setting name=\"period\">everyChunk</setting></event>\n");
        }
        sb.append("</configuration>\n");
        Files.writeString(file, sb.toString());
        return file;
    }

    private record Config(String description, String mode, List<String> jvmOptions) {
    }
}
