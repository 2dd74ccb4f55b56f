package dev.minitrace.bench.apps;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import dev.minitrace.bench.TracerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench/run coverage}: how much of what a program allocates {@code alloc-scope=all}
 * records, measured against JFR's allocation sampler in the same run. Each app of
 * {@code bench/run apps} runs once with the agent ({@code alloc-scope=all}) and a recording of
 * {@code minitrace.jfc} whose {@code jdk.ObjectAllocationSample} takes stack traces at a higher
 * rate, and small fixed TLABs (the sampler samples when a thread takes a new one, with the bytes
 * the thread allocated since its last sample as weight: small TLABs make many samples of small
 * weight, so that the class and frame a sample names stand for the bytes it weighs); the
 * recording is converted with {@code bin/mt-convert} as users run it.
 *
 * <p>Two figures. <b>Bytes</b>: the bytes the trace recorded (the agent's measured sizes) over the
 * bytes the program allocates, measured exactly in a run of its own without the agent: the JVM's
 * count of each thread's allocated bytes ({@code jdk.ThreadAllocationStatistics}, each thread's
 * last figure, JFR's threads left out), with escape analysis off, since the traced run's hooks
 * make every recorded object escape and so be allocated. The traced run itself cannot give the
 * total: the agent allocates on the program's threads too (the text of each committed buffer),
 * and the sampler's weights mix its bytes with the program's. <b>Sites</b>: the share of the
 * sampled bytes (the samples' weights, the tracer's own samples set apart) whose allocating frame's
 * method allocated objects of the sample's class in the trace; then the classes with the most bytes
 * sampled at frames the trace has no allocation of for them, each with those frames: the kinds it
 * misses.
 */
public final class CoverageBench {
    static final String USAGE = "bench/run coverage [--java JDK_HOME] [--apps ecj,h2,pmd] [--throttle N/s] [--eager] [--keep DIR]";
    private static final Pattern SAMPLER = Pattern.compile("<event name=\"jdk\\.ObjectAllocationSample\">.*?</event>", Pattern.DOTALL);
    /** The goal of issue 35: the share of sampled bytes by class. */
    private static final double GOAL = 0.95;
    private static final int TOP = 8;
    private static final String TLAB = "16k";

    /** {@code eager}: the JDK's start-up classes are rewritten in premain ({@code -Dminitrace.rewrite=eager}), not once the recording started. */
    record Options(Path javaHome, List<String> apps, String throttle, Path keep, boolean eager) {
    }

    private CoverageBench() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        try {
            System.exit(run(parse(args)));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("coverage", e);
        }
    }

    static Options parse(String[] args) throws BenchArgs.Usage {
        Path javaHome = Path.of(System.getProperty("java.home"));
        List<String> apps = new ArrayList<>(AppsBench.APPS.keySet());
        String throttle = "5000/s";
        Path keep = null;
        boolean eager = false;
        BenchArgs cli = new BenchArgs(args, USAGE);
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--apps" -> apps = cli.names(AppsBench.APPS.keySet());
                case "--throttle" -> {
                    throttle = cli.value();
                    if (!throttle.matches("\\d+/(s|ms|min)")) {
                        throw new BenchArgs.Usage("--throttle " + throttle + ": expected samples per time unit, such as 1000/s");
                    }
                }
                case "--keep" -> keep = Path.of(cli.value());
                case "--eager" -> eager = true;
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.out.println("Runs ecj, h2 and pmd with alloc-scope=all and JFR's allocation sampler (stack traces on) in the"
                            + " same recording, and prints the share of the sampled bytes the trace recorded; see docs/agent.md.");
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        return new Options(javaHome, apps, throttle, keep, eager);
    }

    /** One app's figures. */
    record Coverage(String app, long samples, double sampled, double tracer, long allocated, double bySite, long allocations,
            long recordedBytes, AppsBench.Conversion conversion, long startUp) {
        double byBytes() {
            return allocated == 0 ? 0 : (double) recordedBytes / allocated;
        }

        /** The share of the bytes allocated after the start-up (the JVM's and JFR's, before the program's main). */
        double afterStartUp() {
            return allocated <= startUp ? 0 : (double) recordedBytes / (allocated - startUp);
        }
    }

    static int run(Options o) throws Exception {
        int feature = new ChildJvm(o.javaHome(), BenchPaths.benchJar()).featureVersion();
        Path root = BenchPaths.projectRoot();
        AppsBench.Layout layout = AppsBench.Layout.of(root);
        Path appsDir = layout.appsDir();
        Path classes = layout.classes();
        Path src = layout.src();
        Path work = Files.createTempDirectory("mt-coverage");
        if (o.keep() != null) {
            Files.createDirectories(o.keep());
        }
        Path jfc = work.resolve("coverage.jfc");
        String profile = Files.readString(root.resolve("jfc-profiles/minitrace.jfc"));
        Matcher sampler = SAMPLER.matcher(profile);
        if (!sampler.find()) {
            throw new IllegalStateException("jfc-profiles/minitrace.jfc has no " + SampledAllocations.EVENT + " setting to replace");
        }
        Files.writeString(jfc, profile.substring(0, sampler.start()) + "<event name=\"" + SampledAllocations.EVENT + "\">\n"
                + "    <setting name=\"enabled\">true</setting>\n    <setting name=\"throttle\">" + o.throttle() + "</setting>\n"
                + "    <setting name=\"stackTrace\">true</setting>\n  </event>" + profile.substring(sampler.end()));
        Path time = Path.of("/usr/bin/time");
        time = Files.isExecutable(time) ? time : null;
        System.out.printf(Locale.ROOT, "Allocation coverage of alloc-scope=all%s against %s (stack traces, %s): JDK %d (%s), %s UTC,"
                + " load average %s, %d cores%n", o.eager() ? " (start-up classes rewritten in premain)" : "", SampledAllocations.EVENT,
                o.throttle(), feature, o.javaHome(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), AppsBench.loadAverage(), Runtime.getRuntime().availableProcessors());
        List<Coverage> results = new ArrayList<>();
        for (String name : o.apps()) {
            AppsBench.App app = AppsBench.APPS.get(name);
            Path scratch = Files.createDirectories(work.resolve(name + "-scratch"));
            Plain plain = allocatedBytes(o.javaHome(), app, classes, appsDir, src, scratch, work, time, o.throttle());
            long allocated = plain.allocated();
            Path recording = work.resolve(name + ".jfr");
            List<String> cmd = new ArrayList<>();
            cmd.add(o.javaHome().resolve("bin/java").toString());
            if (o.eager()) {
                cmd.add("-Dminitrace.rewrite=eager");
            }
            cmd.add(TracerOptions.agent(BenchPaths.agentJar(), "include=" + app.includeFilter() + ",events=" + AppsBench.EVENTS
                    + ",alloc-scope=all"));
            cmd.addAll(TracerOptions.recording("minitrace", jfc.toString(), recording));
            // The sampler samples where a thread takes a new TLAB: small fixed TLABs give many samples of small weight,
            // so that the bytes a sample stands for are those its thread allocated just before (JFR's weight).
            cmd.addAll(List.of("-XX:TLABSize=" + TLAB, "-XX:-ResizeTLAB"));
            cmd.addAll(app.launch(classes, appsDir, src, scratch));
            AppsBench.Measured m = AppsBench.measure(cmd, work.resolve("child.log"), time, null);
            if (m.exitCode() != 0 || m.resultLine() == null) {
                throw new IllegalStateException(name + " failed (exit " + m.exitCode() + "): " + String.join(" ", cmd) + "\n" + m.tail());
            }
            EcjApp.deleteTree(scratch);
            System.out.printf(Locale.ROOT, "  %-4s %.2f s wall, %.2f s CPU, recording %,d bytes  [%s]%n", name, m.wallSeconds(),
                    m.cpuSeconds(), Files.size(recording), m.resultLine());
            Path mtlog = work.resolve(name + ".mtlog");
            AppsBench.Conversion c = AppsBench.convert(root, o.javaHome(), recording, mtlog, work, time);
            RecordedAllocations recorded = RecordedAllocations.read(mtlog);
            Files.delete(mtlog);
            SampledAllocations sampled = SampledAllocations.read(recording);
            if (o.keep() != null) {
                Path kept = o.keep().resolve(name + "-jdk" + feature + "-coverage.jfr");
                Files.move(recording, kept, StandardCopyOption.REPLACE_EXISTING);
                System.out.println("  kept " + kept);
            }
            Files.deleteIfExists(recording);
            results.add(report(name, allocated, plain.startUp(), sampled, recorded, c));
            reportByClass(allocated, plain.sampled(), recorded);
        }
        System.out.printf(Locale.ROOT, "%nLoad average at the end: %s%n%n", AppsBench.loadAverage());
        System.out.println("app   allocated MiB  start-up MiB  recorded allocations  recorded MiB  bytes covered  after start-up  samples  tracer's own"
                + "  sampled bytes at recorded sites");
        boolean met = true;
        for (Coverage r : results) {
            System.out.printf(Locale.ROOT, "%-5s %13.1f %13.1f %,21d %13.1f %13.1f%% %14.1f%% %,8d %12.1f%% %30.1f%%%n", r.app(),
                    r.allocated() / 1048576.0, r.startUp() / 1048576.0, r.allocations(), r.recordedBytes() / 1048576.0, 100 * r.byBytes(),
                    100 * r.afterStartUp(), r.samples(), 100 * r.tracer() / (r.tracer() + r.sampled()), 100 * r.bySite());
            met &= r.byBytes() >= GOAL;
        }
        System.out.printf(Locale.ROOT, "Goal: >= %.0f %% of the allocated bytes recorded: %s%n", 100 * GOAL, met ? "met" : "NOT met");
        EcjApp.deleteTree(work);
        return 0;
    }

    /** The run without the agent: the bytes the app allocates, and the sampler's view of them. */
    record Plain(long allocated, long startUp, SampledAllocations sampled) {
    }

    /**
     * The bytes the app allocates, run without the agent and with escape analysis off: the sum over
     * its threads of each one's last {@code jdk.ThreadAllocationStatistics} (every second and at the end);
     * and the allocation sampler with stack traces, as in the traced run, whose shares by class and
     * frame split those bytes without the agent's own allocations mixed in.
     */
    private static Plain allocatedBytes(Path javaHome, AppsBench.App app, Path classes, Path appsDir, Path src, Path scratch, Path work,
            Path time, String throttle) throws Exception {
        Path jfc = work.resolve("allocated.jfc");
        Files.writeString(jfc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\" label=\"allocated bytes\">\n"
                + "  <event name=\"jdk.ThreadAllocationStatistics\">\n    <setting name=\"enabled\">true</setting>\n"
                + "    <setting name=\"period\">1 s</setting>\n  </event>\n"
                + "  <event name=\"" + SampledAllocations.EVENT + "\">\n    <setting name=\"enabled\">true</setting>\n"
                + "    <setting name=\"throttle\">" + throttle + "</setting>\n    <setting name=\"stackTrace\">true</setting>\n  </event>\n"
                + "</configuration>\n");
        Path recording = work.resolve(app.name() + "-allocated.jfr");
        List<String> flags = List.of(javaHome.resolve("bin/java").toString(), "-XX:-DoEscapeAnalysis",
                "-XX:StartFlightRecording:settings=" + jfc + ",filename=" + recording + ",dumponexit=true", "-XX:TLABSize=" + TLAB,
                "-XX:-ResizeTLAB");
        List<String> cmd = new ArrayList<>(flags);
        cmd.addAll(app.launch(classes, appsDir, src, scratch));
        AppsBench.Measured m = AppsBench.measure(cmd, work.resolve("child.log"), time, null);
        if (m.exitCode() != 0 || m.resultLine() == null) {
            throw new IllegalStateException(app.name() + " failed (exit " + m.exitCode() + "): " + String.join(" ", cmd) + "\n" + m.tail());
        }
        long[] threads = new long[1];
        long total = allocated(recording, threads);
        SampledAllocations sampled = SampledAllocations.read(recording);
        Files.delete(recording);
        EcjApp.deleteTree(scratch);
        Files.createDirectories(scratch);
        // The same JVM and recording with a main that does nothing: what the JVM and JFR allocate before any program runs.
        List<String> empty = new ArrayList<>(flags);
        empty.addAll(List.of("-cp", BenchPaths.benchJar().toString(), Empty.class.getName()));
        AppsBench.Measured e = AppsBench.measure(empty, work.resolve("child.log"), time, null);
        if (e.exitCode() != 0) {
            throw new IllegalStateException("an empty main failed (exit " + e.exitCode() + "): " + String.join(" ", empty) + "\n" + e.tail());
        }
        long startUp = allocated(recording, new long[1]);
        Files.delete(recording);
        System.out.printf(Locale.ROOT, "  %-4s without the agent (escape analysis off): %.2f s wall, %,d threads allocated %.1f MiB, of which the JVM's and"
                + " JFR's start-up (an empty main) %.1f MiB  [%s]%n", app.name(), m.wallSeconds(), threads[0], total / 1048576.0, startUp / 1048576.0,
                m.resultLine());
        return new Plain(total, startUp, sampled);
    }

    /** The sum over the recording's threads (JFR's left out, their number in {@code threads[0]}) of each one's last allocated bytes. */
    private static long allocated(Path recording, long[] threads) throws java.io.IOException {
        Map<Long, Long> last = new java.util.HashMap<>();
        try (jdk.jfr.consumer.RecordingFile file = new jdk.jfr.consumer.RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                jdk.jfr.consumer.RecordedEvent e = file.readEvent();
                jdk.jfr.consumer.RecordedThread t = e.getEventType().getName().equals("jdk.ThreadAllocationStatistics") ? e.getThread("thread") : null;
                if (t != null && (t.getJavaName() == null || !t.getJavaName().startsWith("JFR "))) {
                    last.merge(t.getId(), e.getLong("allocated"), Math::max);
                }
            }
        }
        threads[0] = last.size();
        return last.values().stream().mapToLong(Long::longValue).sum();
    }

    /** A program that does nothing: its run measures the start-up. */
    public static final class Empty {
        private Empty() {
        }

        /** Does nothing. */
        public static void main(String[] args) {
        }
    }

    /**
     * What the trace misses, by class: each class's bytes as the run without the agent allocated them
     * (its samples' share of the allocated bytes) less the bytes the trace recorded of it; the classes
     * with the most missed, each with the frames that allocated it there and that allocated no object of
     * it in the trace (those the trace has at all are counted as "at recorded sites").
     */
    private static void reportByClass(long allocated, SampledAllocations plain, RecordedAllocations r) {
        if (plain.bytes == 0) {
            return;
        }
        Map<String, Double> estimated = new java.util.HashMap<>();
        Map<String, Map<String, Double>> sites = new java.util.HashMap<>();
        for (Map.Entry<String, Map<String, Double>> e : plain.bytesByClassAndSite.entrySet()) {
            for (Map.Entry<String, Double> site : e.getValue().entrySet()) {
                double bytes = allocated * site.getValue() / plain.bytes;
                estimated.merge(RecordedAllocations.kind(e.getKey()), bytes, Double::sum);
                String seen = r.sites.contains(RecordedAllocations.site(site.getKey(), e.getKey())) ? "at recorded sites" : site.getKey();
                sites.computeIfAbsent(RecordedAllocations.kind(e.getKey()), k -> new java.util.HashMap<>()).merge(seen, bytes, Double::sum);
            }
        }
        Map<String, Double> recorded = new java.util.HashMap<>();
        r.bytesByClass.forEach((c, b) -> recorded.merge(RecordedAllocations.kind(c), (double) b, Double::sum));
        List<Map.Entry<String, Double>> missed = new ArrayList<>();
        double total = 0;
        for (Map.Entry<String, Double> e : estimated.entrySet()) {
            double gap = e.getValue() - recorded.getOrDefault(e.getKey(), 0.0);
            if (gap > 0) {
                missed.add(Map.entry(e.getKey(), gap));
                total += gap;
            }
        }
        missed.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        System.out.printf(Locale.ROOT, "       missed by class (bytes allocated without the agent, split by its %,d samples, less the bytes recorded;"
                + " %.1f %% of the allocated bytes in classes recorded short; share of the allocated bytes; the frames that allocated"
                + " it without the agent):%n", plain.samples, 100 * total / allocated);
        for (Map.Entry<String, Double> m : missed.subList(0, Math.min(2 * TOP, missed.size()))) {
            StringBuilder frames = new StringBuilder();
            Map<String, Double> where = sites.get(m.getKey());
            double all = where.values().stream().mapToDouble(Double::doubleValue).sum();
            where.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(3).forEach(x -> frames.append(
                    String.format(Locale.ROOT, "%n           %4.0f %% %s", 100 * x.getValue() / all, x.getKey())));
            System.out.printf(Locale.ROOT, "         %5.2f %%  %s (%.1f MiB allocated, %.1f recorded)%s%n", 100 * m.getValue() / allocated, m.getKey(),
                    estimated.get(m.getKey()) / 1048576.0, recorded.getOrDefault(m.getKey(), 0.0) / 1048576.0, frames);
        }
    }

    private static Coverage report(String app, long allocated, long startUp, SampledAllocations s, RecordedAllocations r,
            AppsBench.Conversion c) {
        double siteCovered = 0;
        List<Map.Entry<String, Double>> missed = new ArrayList<>();
        for (Map.Entry<String, Map<String, Double>> e : s.bytesByClassAndSite.entrySet()) {
            double unseen = 0;
            for (Map.Entry<String, Double> site : e.getValue().entrySet()) {
                if (r.sites.contains(RecordedAllocations.site(site.getKey(), e.getKey()))) {
                    siteCovered += site.getValue();
                } else {
                    unseen += site.getValue();
                }
            }
            if (unseen > 0) {
                missed.add(Map.entry(e.getKey(), unseen));
            }
        }
        long recordedBytes = r.bytesByClass.values().stream().mapToLong(Long::longValue).sum();
        Coverage cov = new Coverage(app, s.samples, s.bytes, s.tracerBytes, allocated, s.bytes == 0 ? 0 : siteCovered / s.bytes, r.allocations,
                recordedBytes, c, startUp);
        System.out.printf(Locale.ROOT, "  %-4s converted: exit %d, %,d records, %.0f MiB peak RSS; recorded %,d allocations, %.1f MiB (%,d of classes"
                + " without a size): %.1f %% of the bytes allocated; %,d samples of %.1f MiB (the tracer's own %.1f MiB set apart), %.1f %% at sites"
                + " the trace has%n", app, c.m().exitCode(), c.records(), c.m().peakRssKb() / 1024.0, r.allocations, recordedBytes / 1048576.0,
                r.unsized, 100 * cov.byBytes(), s.samples, s.bytes / 1048576.0, s.tracerBytes / 1048576.0, 100 * cov.bySite());
        missed.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        System.out.println("       most missed (sampled bytes at frames with no allocation of the class in the trace, share of the sampled bytes;"
                + " those frames):");
        for (Map.Entry<String, Double> m : missed.subList(0, Math.min(TOP, missed.size()))) {
            StringBuilder frames = new StringBuilder();
            Map<String, Double> sites = s.bytesByClassAndSite.get(m.getKey());
            java.util.function.Predicate<Map.Entry<String, Double>> unseen = x -> !r.sites.contains(RecordedAllocations.site(x.getKey(), m.getKey()));
            double unrecorded = sites.entrySet().stream().filter(unseen).mapToDouble(Map.Entry::getValue).sum();
            sites.entrySet().stream().filter(unseen).sorted(Comparator.comparing(Map.Entry<String, Double>::getValue).reversed()).limit(3)
                    .forEach(x -> frames.append(String.format(Locale.ROOT, "%n           %4.0f %% %s (%s)", 100 * x.getValue() / unrecorded,
                            x.getKey(), s.where.get(x.getKey()))));
            System.out.printf(Locale.ROOT, "         %5.2f %%  %s%s%n", 100 * m.getValue() / s.bytes, m.getKey(), frames);
        }
        return cov;
    }
}
