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
 * <p>Two shares of the sampled bytes (the samples' weights, JFR's estimate of the bytes each
 * stands for), the tracer's own samples set apart: <b>by class</b>, the sum over classes of the
 * smaller of the bytes the trace recorded and the bytes sampled, over the bytes sampled (the
 * sampler's estimate per class is noisy: the minimum keeps a class's noise from covering another's
 * misses); <b>by site</b>, the samples whose allocating frame's method allocated objects of the
 * sample's class in the trace, a lower bound: JIT-compiled intrinsics such as {@code Arrays.copyOf}
 * report their caller's frame, where the trace has the intrinsic's own method.
 * Then the classes with the most bytes sampled and not recorded, each with the unrecorded frames
 * that allocated most of them.
 */
public final class CoverageBench {
    static final String USAGE = "bench/run coverage [--java JDK_HOME] [--apps ecj,h2,pmd] [--throttle N/s] [--keep DIR]";
    private static final Pattern SAMPLER = Pattern.compile("<event name=\"jdk\\.ObjectAllocationSample\">.*?</event>", Pattern.DOTALL);
    /** The goal of issue 35: the share of sampled bytes by class. */
    private static final double GOAL = 0.95;
    private static final int TOP = 8;
    private static final String TLAB = "16k";

    record Options(Path javaHome, List<String> apps, String throttle, Path keep) {
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
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.out.println("Runs ecj, h2 and pmd with alloc-scope=all and JFR's allocation sampler (stack traces on) in the"
                            + " same recording, and prints the share of the sampled bytes the trace recorded; see docs/agent.md.");
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        return new Options(javaHome, apps, throttle, keep);
    }

    /** One app's figures. */
    record Coverage(String app, long samples, double sampled, double tracer, double byClass, double bySite, long allocations,
            long recordedBytes, AppsBench.Conversion conversion) {
    }

    static int run(Options o) throws Exception {
        int feature = new ChildJvm(o.javaHome(), BenchPaths.benchJar()).featureVersion();
        Path root = BenchPaths.projectRoot();
        Path appsDir = root.resolve("bench/target/apps");
        Path classes = root.resolve("bench/target/classes");
        Path src = appsDir.resolve("inputs/commons-lang3-src");
        if (!Files.isDirectory(src) || !Files.isDirectory(classes)) {
            throw new BenchArgs.Usage("the apps are not resolved: run 'mvn -B -DskipTests package' first (" + appsDir + " is missing)");
        }
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
        System.out.printf(Locale.ROOT, "Allocation coverage of alloc-scope=all against %s (stack traces, %s): JDK %d (%s), %s UTC,"
                + " load average %s, %d cores%n", SampledAllocations.EVENT, o.throttle(), feature, o.javaHome(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), AppsBench.loadAverage(), Runtime.getRuntime().availableProcessors());
        List<Coverage> results = new ArrayList<>();
        for (String name : o.apps()) {
            AppsBench.App app = AppsBench.APPS.get(name);
            Path scratch = Files.createDirectories(work.resolve(name + "-scratch"));
            Path recording = work.resolve(name + ".jfr");
            List<String> cmd = new ArrayList<>();
            cmd.add(o.javaHome().resolve("bin/java").toString());
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
            results.add(report(name, sampled, recorded, c));
        }
        System.out.printf(Locale.ROOT, "%nLoad average at the end: %s%n%n", AppsBench.loadAverage());
        System.out.println("app   samples  sampled MiB  tracer's own  recorded allocations  recorded MiB  covered by class  by site");
        boolean met = true;
        for (Coverage r : results) {
            System.out.printf(Locale.ROOT, "%-5s %,8d %12.1f %12.1f%% %,21d %13.1f %16.1f%% %7.1f%%%n", r.app(), r.samples(), r.sampled() / 1048576.0,
                    100 * r.tracer() / (r.tracer() + r.sampled()), r.allocations(), r.recordedBytes() / 1048576.0, 100 * r.byClass(),
                    100 * r.bySite());
            met &= r.byClass() >= GOAL;
        }
        System.out.printf(Locale.ROOT, "Goal: >= %.0f %% of the sampled bytes by class: %s%n", 100 * GOAL, met ? "met" : "NOT met");
        EcjApp.deleteTree(work);
        return 0;
    }

    private static Coverage report(String app, SampledAllocations s, RecordedAllocations r, AppsBench.Conversion c) {
        double covered = 0;
        double siteCovered = 0;
        List<Map.Entry<String, Double>> missed = new ArrayList<>();
        for (Map.Entry<String, Map<String, Double>> e : s.bytesByClassAndSite.entrySet()) {
            double sampled = e.getValue().values().stream().mapToDouble(Double::doubleValue).sum();
            double recorded = r.bytesByClass.getOrDefault(e.getKey(), 0L);
            covered += Math.min(sampled, recorded);
            if (sampled > recorded) {
                missed.add(Map.entry(e.getKey(), sampled - recorded));
            }
            for (Map.Entry<String, Double> site : e.getValue().entrySet()) {
                if (r.sites.contains(RecordedAllocations.site(site.getKey(), e.getKey()))) {
                    siteCovered += site.getValue();
                }
            }
        }
        long recordedBytes = r.bytesByClass.values().stream().mapToLong(Long::longValue).sum();
        Coverage cov = new Coverage(app, s.samples, s.bytes, s.tracerBytes, s.bytes == 0 ? 0 : covered / s.bytes,
                s.bytes == 0 ? 0 : siteCovered / s.bytes, r.allocations, recordedBytes, c);
        System.out.printf(Locale.ROOT, "  %-4s converted: exit %d, %,d records, %.0f MiB peak RSS; %,d samples of %.1f MiB (the tracer's own %.1f MiB"
                + " set apart); recorded %,d allocations, %.1f MiB (%,d of classes without a size); covered by class %.1f %%, by site %.1f %%%n",
                app, c.m().exitCode(), c.records(), c.m().peakRssKb() / 1024.0, s.samples, s.bytes / 1048576.0, s.tracerBytes / 1048576.0,
                r.allocations, recordedBytes / 1048576.0, r.unsized, 100 * cov.byClass(), 100 * cov.bySite());
        missed.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        System.out.println("       most missed (sampled - recorded bytes of the class, share of the sampled bytes; the unrecorded frames that"
                + " allocated most of its samples):");
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
