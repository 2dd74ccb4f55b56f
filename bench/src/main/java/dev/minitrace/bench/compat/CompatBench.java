package dev.minitrace.bench.compat;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.TracerOptions;
import dev.minitrace.bench.apps.AppsBench;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code bench/run compat}: released test suites of well-known libraries (their Maven {@code tests}
 * jars, resolved by the bench module's build into {@code bench/target/compat/}) run by the JUnit
 * console launcher in a child JVM twice, plain and under the agent with the full recording 'bin/mt
 * run' starts. A tracer must not change what a program does, so the traced run must pass every
 * test the plain one passes; exit status 1 when it passes fewer.
 */
public final class CompatBench {
    static final String USAGE = "bench/run compat [--java JDK_HOME] [--suites lang3,collections4] [--include FILTER] [--alloc-scope traced|all]"
            + " [--keep DIR]";
    private static final String EVENTS = "method+lock+alloc";

    /**
     * A library's released tests: its packages (traced, and the test packages the launcher selects;
     * a subset so that one run takes seconds, not the minutes the whole suite takes traced).
     */
    record Suite(String name, String description, List<String> tracedPackages, List<String> selectedPackages) {
        String includeFilter() {
            return String.join(";", tracedPackages.stream().map(p -> p + ".*").toList());
        }
    }

    static final Map<String, Suite> SUITES = new LinkedHashMap<>();

    static {
        SUITES.put("lang3", new Suite("lang3", "org.apache.commons:commons-lang3:tests (math, tuple, mutable, text, reflect)",
                List.of("org.apache.commons.lang3"),
                List.of("org.apache.commons.lang3.math", "org.apache.commons.lang3.tuple", "org.apache.commons.lang3.mutable",
                        "org.apache.commons.lang3.text", "org.apache.commons.lang3.reflect")));
        SUITES.put("collections4", new Suite("collections4", "org.apache.commons:commons-collections4:tests (bidimap, iterators, map, list, set)",
                List.of("org.apache.commons.collections4"),
                List.of("org.apache.commons.collections4.bidimap", "org.apache.commons.collections4.iterators",
                        "org.apache.commons.collections4.map", "org.apache.commons.collections4.list", "org.apache.commons.collections4.set")));
    }

    /** {@code include}: the agent's include filter instead of the suite's packages (null: theirs); {@code allocScope} its alloc-scope=. */
    record Options(Path javaHome, List<String> suites, String include, String allocScope, Path keep) {
    }

    private CompatBench() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        try {
            System.exit(run(parse(args)));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("compat", e);
        }
    }

    static Options parse(String[] args) throws BenchArgs.Usage {
        Path javaHome = Path.of(System.getProperty("java.home"));
        List<String> suites = new ArrayList<>(SUITES.keySet());
        Path keep = null;
        String include = null;
        String allocScope = "traced";
        BenchArgs cli = new BenchArgs(args, USAGE);
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--suites" -> {
                    suites = new ArrayList<>();
                    for (String s : cli.value().split(",")) {
                        if (!SUITES.containsKey(s)) {
                            throw new BenchArgs.Usage("--suites: unknown suite '" + s + "' (expected " + String.join(", ", SUITES.keySet()) + ")");
                        }
                        suites.add(s);
                    }
                }
                case "--keep" -> keep = Path.of(cli.value());
                case "--include" -> include = cli.value();
                case "--alloc-scope" -> {
                    allocScope = cli.value();
                    if (!allocScope.equals("traced") && !allocScope.equals("all")) {
                        throw new BenchArgs.Usage("--alloc-scope " + allocScope + ": expected traced or all");
                    }
                }
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        return new Options(javaHome, suites, include, allocScope, keep);
    }

    /** One launcher run: the summary counts, the failed tests' names, the measurements. */
    record SuiteRun(JUnitSummary summary, TreeSet<String> failed, AppsBench.Measured m, long recordingBytes) {
    }

    static int run(Options o) throws Exception {
        Path root = BenchPaths.projectRoot();
        Path compatDir = root.resolve("bench/target/compat");
        Path launcher = firstJar(compatDir.resolve("launcher"), "junit-platform-console-standalone-*.jar");
        if (launcher == null) {
            throw new BenchArgs.Usage("the suites are not resolved: run 'mvn -B -DskipTests package' first (" + compatDir + " is missing)");
        }
        Path agent = BenchPaths.agentJar();
        Path jfc = root.resolve("jfc-profiles/minitrace.jfc");
        Path time = Path.of("/usr/bin/time");
        Path work = Files.createTempDirectory("mt-compat");
        if (o.keep() != null) {
            Files.createDirectories(o.keep());
        }
        System.out.printf(Locale.ROOT, "Compatibility: JDK %s, %s UTC, load average %s, %d cores%n", o.javaHome(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), AppsBench.loadAverage(), Runtime.getRuntime().availableProcessors());
        boolean worse = false;
        List<String> table = new ArrayList<>();
        for (String name : o.suites()) {
            Suite suite = SUITES.get(name);
            Path lib = compatDir.resolve(name + "/lib");
            Path testsJar = firstJar(lib, "*-tests.jar");
            if (testsJar == null) {
                throw new BenchArgs.Usage("no tests jar in " + lib + ": run 'mvn -B -DskipTests package' first");
            }
            String include = o.include() != null ? o.include() : suite.includeFilter();
            System.out.println("  " + name + ": " + suite.description() + "; traced packages " + include + ", alloc-scope=" + o.allocScope());
            Path recording = work.resolve(name + ".jfr");
            List<String> traced = List.of("-javaagent:" + agent + "=include=" + include + ",events=" + EVENTS + ",alloc-scope=" + o.allocScope(),
                    TracerOptions.RECORDER_OPTIONS,
                    "-XX:StartFlightRecording:name=minitrace,settings=" + jfc + ",filename=" + recording + ",dumponexit=true,maxsize=0,disk=true");
            SuiteRun plain = runSuite(o.javaHome(), launcher, lib, suite, List.of(), work.resolve(name + "-plain"), time, null);
            SuiteRun withAgent = runSuite(o.javaHome(), launcher, lib, suite, traced, work.resolve(name + "-traced"), time, recording);
            if (o.keep() != null && Files.exists(recording)) {
                Path kept = o.keep().resolve(name + "-full.jfr");
                Files.move(recording, kept, StandardCopyOption.REPLACE_EXISTING);
                System.out.println("  kept " + kept);
            }
            Files.deleteIfExists(recording);
            TreeSet<String> onlyTraced = new TreeSet<>(withAgent.failed());
            onlyTraced.removeAll(plain.failed());
            TreeSet<String> onlyPlain = new TreeSet<>(plain.failed());
            onlyPlain.removeAll(withAgent.failed());
            if (plain.summary().found() == 0) {
                // a harness that ran nothing would report "no difference" and prove nothing
                System.err.println("bench/run compat: " + name + ": the launcher found no tests");
                worse = true;
            }
            if (withAgent.summary().successful() < plain.summary().successful()) {
                worse = true;
            }
            table.add(String.format(Locale.ROOT, "%-12s %6d %6d/%-3d %6d/%-3d %8.2f %8.2f %6.2f %8.2f %8.2f %6.2f %10.1f", name,
                    plain.summary().found(), plain.summary().successful(), plain.summary().failed(), withAgent.summary().successful(),
                    withAgent.summary().failed(), plain.m().wallSeconds(), withAgent.m().wallSeconds(),
                    withAgent.m().wallSeconds() / plain.m().wallSeconds(), plain.m().cpuSeconds(), withAgent.m().cpuSeconds(),
                    withAgent.m().cpuSeconds() / plain.m().cpuSeconds(), withAgent.recordingBytes() / 1048576.0));
            for (String t : onlyTraced) {
                table.add("    fails only traced: " + t);
            }
            for (String t : onlyPlain) {
                table.add("    fails only plain:  " + t);
            }
        }
        System.out.printf(Locale.ROOT, "%nLoad average at the end: %s (shared machine: times are noisy)%n%n", AppsBench.loadAverage());
        System.out.println("suite         tests pass/fail   pass/fail   wall s   wall s   x      CPU s    CPU s  x      recording");
        System.out.println("                    plain       traced      plain    traced  plain   plain   traced  plain        MiB");
        table.forEach(System.out::println);
        try (Stream<Path> paths = Files.walk(work)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        if (worse) {
            System.err.println("bench/run compat: the traced run passed fewer tests than the plain run");
            return 1;
        }
        return 0;
    }

    private static SuiteRun runSuite(Path javaHome, Path launcher, Path lib, Suite suite, List<String> jvmOptions, Path dir, Path time,
            Path recording) throws Exception {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(javaHome.resolve("bin/java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", launcher.toString(), "execute", "--disable-banner", "--details=summary", "--disable-ansi-colors",
                "--class-path", classPath(lib), "--reports-dir", dir.toString()));
        for (String p : suite.selectedPackages()) {
            cmd.add("--select-package");
            cmd.add(p);
        }
        AppsBench.Measured m = AppsBench.measure(cmd, dir.resolve("launcher.log"), Files.isExecutable(time) ? time : null, null);
        JUnitSummary summary;
        try {
            summary = JUnitSummary.parse(m.output());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(suite.name() + ": " + e.getMessage() + " (exit " + m.exitCode() + "): " + String.join(" ", cmd)
                    + "\n" + m.tail());
        }
        TreeSet<String> failed = JUnitSummary.failedTests(dir.resolve("TEST-junit-jupiter.xml"));
        long bytes = recording != null && Files.exists(recording) ? Files.size(recording) : -1;
        System.out.printf(Locale.ROOT, "  %-12s %-6s %d found, %d successful, %d failed, %d skipped; %.2f s wall, %.2f s CPU%s%n", suite.name(),
                jvmOptions.isEmpty() ? "plain" : "traced", summary.found(), summary.successful(), summary.failed(), summary.skipped(),
                m.wallSeconds(), m.cpuSeconds(), bytes >= 0 ? String.format(Locale.ROOT, ", recording %,d bytes", bytes) : "");
        return new SuiteRun(summary, failed, m, bytes);
    }

    /** The launcher does not expand "dir/*" as java does: every jar, named. */
    private static String classPath(Path lib) throws IOException {
        List<String> jars = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(lib, "*.jar")) {
            s.forEach(p -> jars.add(p.toString()));
        }
        jars.sort(null);
        return String.join(java.io.File.pathSeparator, jars);
    }

    private static Path firstJar(Path dir, String glob) throws IOException {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
            for (Path p : s) {
                return p;
            }
        }
        return null;
    }
}
