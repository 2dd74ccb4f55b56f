package dev.minitrace.bench.latestart;

import com.sun.tools.attach.VirtualMachine;
import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.wire.AttachRequest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench/run latestart}: a recording started late on a program that has loaded every class
 * of a real library set (Spring, Hibernate; from Maven Central, in {@code bench/target/latestart/}),
 * as {@code mt attach} starts one. Per library set, two runs of the same target program:
 * <ol>
 *   <li>every loadable class: MiniTrace attaches (tracing everything), the time its start takes is
 *       read from its answer, the classes it could not retransform from the target's stderr; a
 *       probe agent loaded after it sees the bytes the stop installs, and the stop's answer and the
 *       probe say whether any class kept its hooks;</li>
 *   <li>the same classes but those that failed: the time of a start without any failing class.</li>
 * </ol>
 * The ratio of the two is what a failing class costs; both runs share the machine's load of the
 * moment. {@code --agent} measures another build of the attach agent (an older one, for a before
 * and after), whose answers may be worded differently: the times are read from "in N ms".
 */
public final class LateStartBench {
    private static final String USAGE = "bench/run latestart [--java JDK_HOME] [--apps spring,hibernate] [--agent JAR]";
    private static final Pattern MILLIS = Pattern.compile(" in ([0-9.]+) ms");
    private static final Pattern FAILED = Pattern.compile("^minitrace: cannot (?:retransform|instrument) (\\S+): (.*)$");

    private LateStartBench() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"));
        List<String> apps = List.of("spring", "hibernate");
        Path agent = BenchPaths.projectRoot().resolve("injector/target/minitrace-agent-attach.jar");
        BenchArgs a = new BenchArgs(args, USAGE);
        try {
            while (a.hasNext()) {
                switch (a.option()) {
                    case "--java" -> java = a.javaHome();
                    case "--apps" -> apps = List.of(a.value().split(","));
                    case "--agent" -> agent = Path.of(a.value()).toAbsolutePath();
                    default -> throw new BenchArgs.Usage("unknown option " + a.option() + "; usage: " + USAGE);
                }
            }
            if (!Files.isRegularFile(agent)) {
                throw new BenchArgs.Usage("no agent jar at " + agent + ": build the project first (mvn -B -DskipTests package)");
            }
            for (String app : apps) {
                if (!Files.isDirectory(libs(app))) {
                    throw new BenchArgs.Usage("--apps " + app + ": no " + libs(app) + " (expected spring or hibernate, built by mvn package)");
                }
            }
        } catch (BenchArgs.Usage u) {
            BenchArgs.fail("latestart", u);
            return;
        }
        System.out.println("agent " + agent + ", target JDK " + java + " (the machine may be shared: compare the ratios)");
        for (String app : apps) {
            Path dir = Files.createTempDirectory("latestart-" + app);
            Run all = run(java, agent, app, dir.resolve("all"), null);
            Path skip = dir.resolve("failed.txt");
            Files.write(skip, all.failed);
            Run clean = run(java, agent, app, dir.resolve("clean"), skip);
            System.out.printf(Locale.ROOT, "%s: %d classes loaded, %d failed; start %.0f ms, without the failing ones (%d classes) %.0f ms:"
                    + " ratio %.2f; stop %.0f ms; after the stop: %s%n", app, all.loaded, all.failed.size(), all.startMs, clean.loaded,
                    clean.startMs, all.startMs / clean.startMs, all.stopMs, all.hooks);
            System.out.println("  start: " + all.start);
            System.out.println("  stop:  " + all.stop);
            System.out.println("  failure causes: " + all.causes);
        }
    }

    private static Path libs(String app) {
        return BenchPaths.projectRoot().resolve("bench/target/latestart").resolve(app).resolve("lib");
    }

    private record Run(int loaded, double startMs, double stopMs, String start, String stop, List<String> failed, Set<String> causes,
            String hooks) {
    }

    private static Run run(Path java, Path agent, String app, Path dir, Path skip) throws Exception {
        Files.createDirectories(dir);
        StringBuilder cp = new StringBuilder(BenchPaths.benchJar().toString());
        File[] jars = libs(app).toFile().listFiles((d, n) -> n.endsWith(".jar"));
        Arrays.sort(jars);
        for (File j : jars) {
            cp.append(File.pathSeparatorChar).append(j);
        }
        List<String> cmd = new ArrayList<>(List.of(java.resolve("bin/java").toString(), "-XX:+EnableDynamicAgentLoading", "-cp", cp.toString(),
                LoadAll.class.getName(), dir.toString(), libs(app).toString(), skip == null ? "-" : skip.toString()));
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(err.toFile()).start();
        try {
            Path ready = dir.resolve("ready");
            while (!Files.exists(ready) || Files.size(ready) == 0) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("target ended: " + Files.readString(err));
                }
                Thread.sleep(50);
            }
            int loaded = Integer.parseInt(Files.readString(ready).trim());
            VirtualMachine vm = VirtualMachine.attach(Long.toString(p.pid()));
            try {
                String start = request(vm, agent, AttachRequest.start("", null, dir.resolve("late.jfr"), null));
                Path probe = probeJar(dir);
                vm.loadAgent(probe.toString(), "register");
                String stop = request(vm, agent, AttachRequest.stop());
                vm.loadAgent(probe.toString(), "report");
                String hooks = vm.getSystemProperties().getProperty(HookProbe.REPORT);
                String[] h = hooks.split(" ", 3);
                List<String> failed = new ArrayList<>();
                Set<String> causes = new LinkedHashSet<>();
                for (String line : Files.readAllLines(err)) {
                    Matcher m = FAILED.matcher(line);
                    if (m.matches()) {
                        failed.add(m.group(1));
                        causes.add(m.group(2).replaceAll("[a-z]+(\\.[a-zA-Z$_0-9]+)+", "…"));
                    }
                }
                return new Run(loaded, millis(start), millis(stop.substring(stop.indexOf("; ") + 1)), start, stop, failed, causes,
                        h[0] + " classes retransformed by the stop, " + h[1] + " with hooks" + (h.length > 2 && !h[2].isEmpty() ? " (" + h[2] + ")" : ""));
            } finally {
                vm.detach();
            }
        } finally {
            Files.writeString(dir.resolve("stop"), "stop");
            if (!p.waitFor(1, TimeUnit.MINUTES)) {
                p.destroyForcibly();
            }
        }
    }

    private static String request(VirtualMachine vm, Path agent, AttachRequest request) throws Exception {
        String token = "b" + System.nanoTime();
        vm.loadAgent(agent.toString(), request.withReply(token).text());
        String reply = vm.getSystemProperties().getProperty(AttachRequest.REPLY_PROPERTY_PREFIX + token);
        if (reply == null || !reply.startsWith(AttachRequest.OK)) {
            throw new IllegalStateException("the agent answered: " + reply);
        }
        return reply;
    }

    private static double millis(String reply) {
        Matcher m = MILLIS.matcher(reply);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    private static Path probeJar(Path dir) throws Exception {
        Path jar = dir.resolve("probe.jar");
        if (!Files.exists(jar)) {
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            m.getMainAttributes().putValue("Agent-Class", HookProbe.class.getName());
            m.getMainAttributes().putValue("Can-Retransform-Classes", "true");
            String entry = HookProbe.class.getName().replace('.', '/') + ".class";
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m);
                    var in = HookProbe.class.getClassLoader().getResourceAsStream(entry)) {
                out.putNextEntry(new JarEntry(entry));
                in.transferTo(out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
