package dev.minitrace.bench.apps;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import dev.minitrace.bench.RecordingPlace;
import dev.minitrace.bench.TracerOptions;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench/run apps}: real applications from Maven Central (resolved by the bench module's
 * build into {@code bench/target/apps/}), each run as a child JVM with a deterministic workload
 * that prints a checksum, under four configurations: plain; the agent loaded with no recording;
 * the agent with the full profile (methods, locks, allocations of the app's packages); and on
 * JDK 25+ JEP 520's {@code jdk.MethodTrace} filtered to the same classes, methods only. Rounds
 * are interleaved; the report gives medians of wall time, CPU time and peak RSS of the child, the
 * slowdowns against plain in the same run, recording sizes, and the conversion of the last
 * round's full trace with {@code bin/mt-convert} as users run it. Any checksum that differs from
 * the first run's stops the benchmark with exit status 1.
 *
 * <p>A script (options, the apps' definitions, the interleaved rounds, the report); what another
 * benchmark reuses is in {@link AppRuns}.
 */
public final class AppsBench {
    static final List<String> CONFIGS = List.of("plain", "agent", "full", "jep520");
    /**
     * Not run unless named: {@code agent-eager}, the agent loaded with no recording but rewriting
     * every selected class as it loads (as before the agent deferred its rewriting; see
     * {@code Deferral}), to measure both in the same run; {@code heap}, the agent with every kind of
     * record and {@code minitrace-heap.jfc}, whose last round's trace is also written in Elephant
     * Tracks' format and checked ({@link HeapTraceCheck}); {@code allall}, the full configuration
     * with {@code alloc-scope=all} (every allocation, the JDK's included), whose last round's trace
     * is converted (and kept with {@code --keep}) as the full one's.
     */
    static final List<String> EXTRA_CONFIGS = List.of("agent-eager", "heap", "allall");
    /** The {@code heap} configuration's agent events: everything, deaths included (jfc-profiles/minitrace-heap.jfc). */
    private static final String HEAP_EVENTS = "method+lock+alloc+exception+field+death";
    /** Suffix of the configurations run with the agent of {@code --against DIR}. */
    static final String AGAINST = "@against";
    /** Where a built checkout keeps its agent ({@code --against DIR}). */
    static final String AGENT_IN_CHECKOUT = "injector/target/minitrace-agent.jar";
    static final String USAGE = "bench/run apps [--java JDK_HOME] [--rounds N] [--apps ecj,h2,pmd] [--configs plain,agent,full,jep520,agent-eager,heap,allall]"
            + " [--keep DIR] [--no-convert] [--against CHECKOUT] [--split]";
    static final String EVENTS = "method+lock+alloc";

    /** A real application: where its jars are, which packages are its own, how to run its workload. */
    record App(String name, String description, List<String> packages, String mainClass, List<String> args) {
        /** The agent's {@code include=} filter for the app's packages. */
        String includeFilter() {
            return String.join(";", packages.stream().map(p -> p + ".*").toList());
        }

        /**
         * What follows the JVM options on the child's command line: class path, main class, the
         * workload's arguments ({@code src} the unpacked input sources, {@code scratch} a folder of its own).
         */
        List<String> launch(Path classes, Path appsDir, Path src, Path scratch) {
            List<String> cmd = new ArrayList<>(List.of("-cp", classes + java.io.File.pathSeparator + appsDir.resolve(name + "/lib") + "/*",
                    mainClass));
            for (String arg : args) {
                cmd.add(arg.replace("{src}", src.toString()).replace("{work}", scratch.toString()));
            }
            return cmd;
        }
    }

    static final Map<String, App> APPS = new LinkedHashMap<>();

    /** Where the build put the apps' jars, the workloads' classes and the input sources. */
    record Layout(Path appsDir, Path classes, Path src) {
        static Layout of(Path root) throws BenchArgs.Usage {
            Path appsDir = root.resolve("bench/target/apps");
            Layout l = new Layout(appsDir, root.resolve("bench/target/classes"), appsDir.resolve("inputs/commons-lang3-src"));
            if (!Files.isDirectory(l.src()) || !Files.isDirectory(l.classes())) {
                throw new BenchArgs.Usage("the apps are not resolved: run 'mvn -B -DskipTests package' first (" + appsDir + " is missing)");
            }
            return l;
        }
    }

    static {
        // Arguments: {src} is the unpacked sources of the input library, {work} a scratch folder.
        APPS.put("ecj", new App("ecj", "org.eclipse.jdt:ecj compiles the sources of org.apache.commons:commons-lang3 (2 times)",
                List.of("org.eclipse.jdt"), EcjApp.class.getName(), List.of("{src}", "{work}", "2")));
        APPS.put("h2", new App("h2", "com.h2database:h2 in memory, TPC-B-like transactions, 2 threads x 4,000 (20,000 accounts)",
                List.of("org.h2"), H2App.class.getName(), List.of("2", "4000", "20000")));
        APPS.put("pmd", new App("pmd", "net.sourceforge.pmd:pmd-java, quickstart ruleset over the sources of commons-lang3",
                List.of("net.sourceforge.pmd"), PmdApp.class.getName(), List.of("{src}", "rulesets/java/quickstart.xml", "1")));
    }


    /** The parsed command line. {@code configsGiven}: whether --configs named them (then jep520 on JDK < 25 is an error). */
    record Options(Path javaHome, int rounds, List<String> apps, List<String> configs, boolean configsGiven, Path keep, boolean convert,
            Path against, boolean split) {
    }

    private AppsBench() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        try {
            run(parse(args));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("apps", e);
        } catch (AppRuns.ChecksumMismatch e) {
            System.err.println("bench/run apps: CHECKSUM MISMATCH: " + e.getMessage());
            System.exit(1);
        }
    }

    static Options parse(String[] args) throws BenchArgs.Usage {
        Path javaHome = Path.of(System.getProperty("java.home"));
        int rounds = 3;
        List<String> apps = new ArrayList<>(APPS.keySet());
        List<String> configs = new ArrayList<>(CONFIGS);
        boolean configsGiven = false;
        Path keep = null;
        Path against = null;
        boolean convert = true;
        boolean split = false;
        BenchArgs cli = new BenchArgs(args, USAGE);
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--rounds" -> rounds = cli.intNumber(1);
                case "--apps" -> apps = cli.names(APPS.keySet());
                case "--configs" -> {
                    List<String> known = new ArrayList<>(CONFIGS);
                    known.addAll(EXTRA_CONFIGS);
                    configs = cli.names(known);
                    configsGiven = true;
                }
                case "--keep" -> keep = Path.of(cli.value());
                case "--against" -> {
                    against = Path.of(cli.value());
                    if (!Files.isRegularFile(against.resolve(AGENT_IN_CHECKOUT))) {
                        throw new BenchArgs.Usage("--against " + against + ": no " + AGENT_IN_CHECKOUT + " there (expected a built checkout)");
                    }
                }
                case "--no-convert" -> convert = false;
                case "--split" -> split = true;
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.out.println("Runs ecj, h2 and pmd (bench/target/apps) plain, with the agent, with the full trace and"
                            + " (JDK 25+) with JEP 520; see docs/performance.md.");
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        return new Options(javaHome, rounds, apps, configs, configsGiven, keep, convert, against, split);
    }

    static void run(Options o) throws Exception {
        ChildJvm jvm = new ChildJvm(o.javaHome(), BenchPaths.benchJar());
        int feature = jvm.featureVersion();
        List<String> configs = TracerOptions.runnable(o.configs(), o.configsGiven(), feature);
        RecordingPlace place = RecordingPlace.of(feature);
        if (o.against() != null) {
            // Every configuration that loads the agent runs again, in the same rounds, with the agent of another checkout.
            List<String> both = new ArrayList<>();
            for (String c : configs) {
                both.add(c);
                if (!c.equals("plain") && !c.equals("jep520")) {
                    both.add(c + AGAINST);
                }
            }
            configs = both;
        }
        Path root = BenchPaths.projectRoot();
        Layout layout = Layout.of(root);
        Path appsDir = layout.appsDir();
        Path classes = layout.classes();
        Path src = layout.src();
        Path agent = BenchPaths.agentJar();
        Path jfc = root.resolve("jfc-profiles/minitrace.jfc");
        Path work = Files.createTempDirectory("mt-apps");
        if (o.keep() != null) {
            Files.createDirectories(o.keep());
        }
        Path time = Path.of("/usr/bin/time");
        boolean gnuTime = Files.isExecutable(time);

        System.out.printf(Locale.ROOT, "Real applications: JDK %d (%s), %d rounds, configs %s, %s UTC, load average %s, %d cores%n",
                feature, o.javaHome(), o.rounds(), String.join(",", configs), Instant.now().truncatedTo(ChronoUnit.SECONDS),
                loadAverage(), Runtime.getRuntime().availableProcessors());
        System.out.println(gnuTime ? "CPU and peak RSS of each child from /usr/bin/time" : "CPU and peak RSS of each child polled from /proc (no /usr/bin/time)");
        System.out.println("Traced runs' " + place.describe());
        Map<String, AppRuns> results = new LinkedHashMap<>();
        Map<String, Path> jep520Jfc = new LinkedHashMap<>();
        for (String name : o.apps()) {
            App app = APPS.get(name);
            results.put(name, new AppRuns(name));
            System.out.printf(Locale.ROOT, "  %-4s %s; traced packages %s%n", name, app.description(), app.includeFilter());
            if (configs.contains("jep520")) {
                jep520Jfc.put(name, writeJep520Jfc(work.resolve(name + "-jep520.jfc"), appsDir.resolve(name + "/lib"), app.packages()));
            }
        }
        Map<String, Conversion> conversions = new LinkedHashMap<>();
        Map<String, Map<String, List<RunSplit>>> splits = new LinkedHashMap<>();
        for (int round = 1; round <= o.rounds(); round++) {
            for (String name : o.apps()) {
                App app = APPS.get(name);
                Path scratch = Files.createDirectories(work.resolve(name + "-scratch"));
                for (String config : configs) {
                    Path stem = work.resolve(name + "-" + config + ".jfr");
                    RecordingPlace.delete(stem);
                    List<String> cmd = new ArrayList<>();
                    cmd.add(o.javaHome().resolve("bin/java").toString());
                    boolean other = config.endsWith(AGAINST);
                    String agentOption = TracerOptions.agent(other ? o.against().resolve(AGENT_IN_CHECKOUT) : agent,
                            "include=" + app.includeFilter() + ",events=" + EVENTS);
                    switch (other ? config.substring(0, config.length() - AGAINST.length()) : config) {
                        case "plain" -> {
                        }
                        case "agent" -> cmd.add(agentOption);
                        case "agent-eager" -> cmd.addAll(List.of("-Dminitrace.rewrite=eager", agentOption));
                        case "full" -> {
                            cmd.add(agentOption);
                            cmd.addAll(place.options("minitrace", jfc.toString(), stem));
                        }
                        case "allall" -> {
                            cmd.add(agentOption + ",alloc-scope=all");
                            cmd.addAll(place.options("minitrace", jfc.toString(), stem));
                        }
                        case "heap" -> {
                            cmd.add(agentOption.replace(",events=" + EVENTS, ",events=" + HEAP_EVENTS));
                            cmd.addAll(place.options("minitrace", root.resolve("jfc-profiles/minitrace-heap.jfc").toString(), stem));
                        }
                        case "jep520" -> cmd.addAll(place.options("jep520", jep520Jfc.get(name).toString(), stem));
                        default -> throw new IllegalStateException(config);
                    }
                    cmd.addAll(app.launch(classes, appsDir, src, scratch));
                    RunSplit split = o.split() ? new RunSplit(USER_HZ) : null;
                    Measured m = measure(cmd, work.resolve("child.log"), gnuTime ? time : null, null, split);
                    String result = m.resultLine();
                    if (m.exitCode() != 0 || result == null) {
                        throw new IllegalStateException(name + " '" + config + "' round " + round + " failed (exit " + m.exitCode() + "): "
                                + String.join(" ", cmd) + "\n" + m.tail());
                    }
                    Path recording = place.recording(stem);
                    long recBytes = recording != null ? RecordingPlace.bytes(recording) : -1;
                    results.get(name).add(new AppRuns.Run(config, round, m.wallSeconds(), m.cpuSeconds(), m.peakRssKb(), recBytes,
                            result.split(" ")[0]));
                    System.out.printf(Locale.ROOT, "  round %d %-4s %-6s %7.2f s wall %7.2f s CPU %6.0f MiB peak RSS%s  [%s]%n", round, name,
                            config, m.wallSeconds(), m.cpuSeconds(), m.peakRssKb() / 1024.0,
                            recBytes >= 0 ? String.format(Locale.ROOT, "  recording %,d bytes", recBytes) : "", result);
                    if (split != null) {
                        splits.computeIfAbsent(name, k -> new LinkedHashMap<>()).computeIfAbsent(config, k -> new ArrayList<>()).add(split);
                        System.out.println("          " + splitLine(split));
                    }
                    if (config.equals("heap") && round == o.rounds() && recBytes > 0 && o.convert()) {
                        HeapTraceCheck.Result h = HeapTraceCheck.run(root, o.javaHome(), recording, work, gnuTime ? time : null);
                        System.out.printf(Locale.ROOT, "  heap %-4s Elephant Tracks trace in %.2f s: lines by kind %s, %,d deaths, "
                                + "%,d bytes allocated (%,d allocations without a size)%s%n", name,
                                h.conversion().wallSeconds(), h.lines(), h.deaths(), h.bytes(), h.unsized(),
                                h.problems().isEmpty() ? "; every id allocated once, every death after its allocation and once"
                                        : "; PROBLEMS: " + h.problems());
                        if (!h.problems().isEmpty()) {
                            throw new IllegalStateException(name + ": the Elephant Tracks trace breaks its grammar's rules: " + h.problems());
                        }
                    }
                    if (config.equals("heap") && round == o.rounds() && recBytes > 0 && o.keep() != null) {
                        Path kept = o.keep().resolve(name + "-jdk" + feature + "-heap.jfr");
                        RecordingPlace.keep(recording, kept);
                        System.out.println("  kept " + kept);
                    }
                    if ((config.equals("full") || config.equals("allall")) && round == o.rounds() && recBytes > 0) {
                        Path kept = recording;
                        if (o.keep() != null) {
                            kept = o.keep().resolve(name + "-jdk" + feature + "-" + config + ".jfr");
                            RecordingPlace.keep(recording, kept);
                        }
                        if (o.convert()) {
                            Conversion c = convert(root, o.javaHome(), kept, work, gnuTime ? time : null);
                            if (config.equals("full")) {
                                conversions.put(name, c);
                            }
                            System.out.printf(Locale.ROOT, "  convert %-4s " + config
                                    + " exit %d, %,d records (%,d allocations), %d chunks, %.2f s, %.2f M records/s, %.0f MiB peak RSS%n",
                                    name, c.m().exitCode(), c.records(), c.allocations(), c.chunks(), c.m().wallSeconds(),
                                    c.records() / c.m().wallSeconds() / 1e6, c.m().peakRssKb() / 1024.0);
                        }
                        if (o.keep() != null) {
                            System.out.println("  kept " + kept);
                        }
                    }
                    RecordingPlace.delete(stem);
                }
                EcjApp.deleteTree(scratch);
            }
        }
        System.out.printf(Locale.ROOT, "%nLoad average at the end: %s (shared machine: figures are noisy)%n", loadAverage());
        report(results, configs, conversions, feature);
        if (!splits.isEmpty()) {
            reportSplits(splits);
        }
        EcjApp.deleteTree(work);
    }

    private static void report(Map<String, AppRuns> results, List<String> configs, Map<String, Conversion> conversions, int feature) {
        System.out.println();
        System.out.println("app   config      median wall s  x plain  median CPU s  x plain  peak RSS MiB  recording MiB  checksum");
        for (AppRuns r : results.values()) {
            String app = results.entrySet().stream().filter(e -> e.getValue() == r).findFirst().orElseThrow().getKey();
            for (String config : configs) {
                OptionalDouble cpu = r.medianCpu(config);
                OptionalDouble cpuPlain = r.medianCpu("plain");
                OptionalDouble rec = r.medianRecordingBytes(config);
                System.out.printf(Locale.ROOT, "%-5s %-11s %13s %8s %13s %8s %13s %14s  %s%n", app, config, fmt(r.medianWall(config), 2),
                        fmt(r.slowdown(config, "plain"), 2), fmt(cpu, 2),
                        cpu.isPresent() && cpuPlain.isPresent() ? fmt(OptionalDouble.of(cpu.getAsDouble() / cpuPlain.getAsDouble()), 2) : "-",
                        fmt(scale(r.medianRssKb(config), 1024), 0), fmt(scale(rec, 1024 * 1024), 1), r.checksum());
            }
        }
        System.out.println();
        for (Map.Entry<String, AppRuns> e : results.entrySet()) {
            AppRuns r = e.getValue();
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-5s", e.getKey()));
            if (configs.contains("agent")) {
                sb.append(" agent without recording ").append(fmt(r.slowdown("agent", "plain"), 3)).append("x plain, per round ")
                        .append(fmt(r.slowdownPerRound("agent", "plain"), 3)).append("x (target <= 1.03);");
            }
            if (configs.contains("agent" + AGAINST)) {
                sb.append(" (--against: ").append(fmt(r.slowdown("agent" + AGAINST, "plain"), 3)).append("x, per round ")
                        .append(fmt(r.slowdownPerRound("agent" + AGAINST, "plain"), 3)).append("x);");
            }
            if (configs.contains("full" + AGAINST)) {
                sb.append(" full trace of --against ").append(fmt(r.slowdown("full" + AGAINST, "plain"), 2)).append("x plain;");
            }
            if (configs.contains("agent-eager")) {
                sb.append(" agent-eager ").append(fmt(r.slowdown("agent-eager", "plain"), 3)).append("x plain;");
            }
            if (configs.contains("full")) {
                sb.append(" full trace ").append(fmt(r.slowdown("full", "plain"), 2)).append("x plain (target <= ").append(fullTarget(e.getKey())).append(");");
            }
            if (configs.contains("jep520") && configs.contains("full")) {
                sb.append(" (full - plain) / (JEP 520 - plain) = ").append(fmt(r.addedCostRatio("full", "jep520", "plain"), 2))
                        .append(" (target <= 0.3)");
            }
            System.out.println(sb);
        }
        if (!conversions.isEmpty()) {
            System.out.println();
            System.out.println("Conversion of the last round's full trace with bin/mt-convert (JDK " + feature + ", no heap flags):");
            System.out.println("app   recording MiB  chunks  MiB per chunk  records        s  M records/s  peak RSS MiB");
            for (Map.Entry<String, Conversion> e : conversions.entrySet()) {
                Conversion c = e.getValue();
                System.out.printf(Locale.ROOT, "%-5s %13.1f %7d %14.1f %,14d %7.2f %11.2f %13.0f%n", e.getKey(), c.bytes() / 1048576.0,
                        c.chunks(), c.bytes() / 1048576.0 / Math.max(1, c.chunks()), c.records(), c.m().wallSeconds(),
                        c.records() / c.m().wallSeconds() / 1e6, c.m().peakRssKb() / 1024.0);
            }
        }
    }

    /** The unit of /proc's CPU times (USER_HZ), 100 on every Linux the JDK supports. */
    private static final long USER_HZ = 100;

    private static String splitLine(RunSplit split) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "exit phase %.2f s wall; CPU s", split.exitPhaseSeconds()));
        split.seconds().forEach((group, sec) -> sb.append(String.format(Locale.ROOT, " %s %.2f", group, sec)));
        return sb.toString();
    }

    /** Medians of the per-run splits (--split): the wall after the result, CPU by kind of thread. */
    private static void reportSplits(Map<String, Map<String, List<RunSplit>>> splits) {
        System.out.println();
        System.out.println("Where the time goes (--split; medians; CPU polled per thread from /proc every 100 ms):");
        StringBuilder head = new StringBuilder("app   config      exit phase s");
        for (String g : RunSplit.GROUPS) {
            head.append(String.format(Locale.ROOT, " %9s", g));
        }
        System.out.println(head.append("  (CPU s)"));
        splits.forEach((app, byConfig) -> byConfig.forEach((config, runs) -> {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-5s %-11s %12s", app, config,
                    fmt(AppRuns.median(runs.stream().mapToDouble(RunSplit::exitPhaseSeconds).filter(v -> v >= 0).toArray()), 2)));
            for (String g : RunSplit.GROUPS) {
                sb.append(String.format(Locale.ROOT, " %9s", fmt(AppRuns.median(runs.stream().mapToDouble(r -> r.seconds().get(g)).toArray()), 2)));
            }
            System.out.println(sb);
        }));
    }

    private static OptionalDouble scale(OptionalDouble v, double divisor) {
        return v.isPresent() ? OptionalDouble.of(v.getAsDouble() / divisor) : v;
    }

    /** The full trace's target against plain: H2 makes several times the records per second of the others. */
    private static String fullTarget(String app) {
        return app.equals("h2") ? "4" : "1.8";
    }

    private static String fmt(OptionalDouble v, int decimals) {
        return v.isPresent() ? String.format(Locale.ROOT, "%." + decimals + "f", v.getAsDouble()) : "-";
    }

    /** JEP 520 has no package filter: the jfc names every class of the app's packages found in its jars. */
    static Path writeJep520Jfc(Path file, Path lib, List<String> packages) throws IOException {
        TreeSet<String> classes = new TreeSet<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "*.jar")) {
            for (Path jar : jars) {
                try (JarFile jf = new JarFile(jar.toFile())) {
                    jf.stream().map(e -> e.getName())
                            .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")
                                    && !n.endsWith("package-info.class"))
                            .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                            .filter(n -> packages.stream().anyMatch(p -> n.startsWith(p + ".")))
                            .forEach(classes::add);
                }
            }
        }
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\" label=\"JEP 520, methods only\">\n"
                + "  <event name=\"jdk.MethodTrace\">\n    <setting name=\"enabled\">true</setting>\n"
                + "    <setting name=\"stackTrace\">false</setting>\n    <setting name=\"threshold\">0 ms</setting>\n"
                + "    <setting name=\"filter\">" + String.join(";", classes) + "</setting>\n  </event>\n</configuration>\n";
        Files.writeString(file, xml);
        return file;
    }

    /** A finished {@code bin/mt-convert}; {@code allocations}: the OBJECT_ALLOC records of the trace. */
    record Conversion(long bytes, long records, int chunks, long allocations, Measured m) {
    }

    private static final Pattern CONVERTED = Pattern.compile(": (\\d+) records, \\d+ threads, \\d+ GCs, (\\d+) chunks");

    private static Conversion convert(Path root, Path javaHome, Path recording, Path work, Path time) throws Exception {
        Path out = work.resolve("converted.mtlog");
        try {
            return convert(root, javaHome, recording, out, work, time);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Converts {@code recording} to {@code out} with {@code bin/mt-convert} as users run it, and counts its allocations. */
    static Conversion convert(Path root, Path javaHome, Path recording, Path out, Path work, Path time) throws Exception {
        List<String> cmd = List.of(root.resolve("bin/mt-convert").toString(), recording.toString(), out.toString());
        Measured m = measure(cmd, work.resolve("convert.log"), time, javaHome);
        Matcher matcher = CONVERTED.matcher(m.output());
        // 3: converted, with a warning that the recording itself lost data (reported in the log)
        if ((m.exitCode() != 0 && m.exitCode() != 3) || !matcher.find()) {
            throw new IllegalStateException("bin/mt-convert failed (exit " + m.exitCode() + "): " + String.join(" ", cmd) + "\n" + m.tail());
        }
        for (String line : m.output().split("\n")) {
            if (line.contains("warning")) {
                System.out.println("  " + line);
            }
        }
        return new Conversion(RecordingPlace.bytes(recording), Long.parseLong(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                RecordedAllocations.read(out).allocations, m);
    }

    /** A finished child process. {@code cpuSeconds} (user + system) and {@code peakRssKb} are -1 when unknown. */
    public record Measured(int exitCode, double wallSeconds, double cpuSeconds, long peakRssKb, String output) {
        String resultLine() {
            String result = null;
            for (String line : output.split("\n")) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring(7).trim();
                }
            }
            return result;
        }

        public String tail() {
            String[] lines = output.split("\n");
            return String.join("\n", Arrays.copyOfRange(lines, Math.max(0, lines.length - 40), lines.length));
        }
    }

    /**
     * Runs {@code cmd} with its output in {@code log}. With GNU time, the child's CPU and peak RSS
     * come from the kernel's accounting at exit; without it, from polling /proc while it runs.
     */
    public static Measured measure(List<String> cmd, Path log, Path time, Path javaHome) throws Exception {
        return measure(cmd, log, time, javaHome, null);
    }

    /** As {@link #measure(List, Path, Path, Path)}, also filling {@code split} (when not null) every 100 ms. */
    static Measured measure(List<String> cmd, Path log, Path time, Path javaHome, RunSplit split) throws Exception {
        Path timeFile = log.resolveSibling(log.getFileName() + ".time");
        List<String> full = new ArrayList<>();
        if (time != null) {
            full.addAll(List.of(time.toString(), "-f", "%e %U %S %M", "-o", timeFile.toString()));
        }
        full.addAll(cmd);
        ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile());
        if (javaHome != null) {
            pb.environment().put("JAVA_HOME", javaHome.toString());
        }
        long t0 = System.nanoTime();
        Process p = pb.start();
        AtomicLong polledRss = new AtomicLong(-1);
        AtomicLong polledCpuNs = new AtomicLong(-1);
        long jvm = -1;
        while (!p.waitFor(split != null ? 100 : time == null ? 50 : 1000, TimeUnit.MILLISECONDS)) {
            if (split != null) {
                if (jvm < 0) {
                    jvm = RunSplit.jvmOf(p.toHandle());
                }
                if (jvm >= 0) {
                    split.poll(jvm);
                }
                if (Files.readString(log).contains("RESULT ")) {
                    split.resultAt((System.nanoTime() - t0) / 1e9);
                }
            }
            if (time == null) {
                polledRss.set(Math.max(polledRss.get(), peakRssKb(p.pid())));
                p.info().totalCpuDuration().ifPresent(d -> polledCpuNs.set(d.toNanos()));
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        if (split != null) {
            split.exitAt(wall);
        }
        String output = Files.readString(log);
        double cpu = polledCpuNs.get() < 0 ? -1 : polledCpuNs.get() / 1e9;
        long rss = polledRss.get();
        if (time != null && Files.exists(timeFile)) {
            // the last line: GNU time writes "Command exited with non-zero status" before it on failure
            List<String> lines = Files.readAllLines(timeFile);
            String[] f = lines.get(lines.size() - 1).trim().split(" ");
            cpu = Double.parseDouble(f[1]) + Double.parseDouble(f[2]);
            rss = Long.parseLong(f[3]);
            Files.delete(timeFile);
        }
        return new Measured(p.exitValue(), wall, cpu, rss, output);
    }

    private static long peakRssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1; // the process is gone, or no /proc
        }
        return -1;
    }

    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
