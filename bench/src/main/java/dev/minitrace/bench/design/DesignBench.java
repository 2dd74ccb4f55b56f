package dev.minitrace.bench.design;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import dev.minitrace.bench.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures candidate event designs for the enabled-tracing cost (see {@link DesignWorkload})
 * against JEP 520's {@code jdk.MethodTrace} on the same method, in interleaved child JVMs, each
 * recording to disk. Prints median wall and process-CPU nanoseconds per traced call, minus the
 * untraced baseline, and the size of each recording per call.
 *
 * <p>Usage: {@code DesignBench [--java JDK_HOME] [--rounds N] [--trees N]}; the JEP 520 row needs
 * JDK 25 or later.
 */
public final class DesignBench {
    static final String USAGE = "bench/run designs [--java JDK_HOME] [--rounds N] [--trees N]";

    private DesignBench() {
    }

    /** Entry point: a bad command line is one line on stderr and exit status 2. */
    public static void main(String[] args) throws Exception {
        try {
            run(new BenchArgs(args, USAGE));
        } catch (BenchArgs.Usage e) {
            BenchArgs.fail("designs", e);
        }
    }

    private static void run(BenchArgs cli) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        int rounds = 3;
        long trees = 1_000_000;
        while (cli.hasNext()) {
            switch (cli.option()) {
                case "--java" -> javaHome = cli.javaHome();
                case "--rounds" -> rounds = cli.intNumber(1);
                case "--trees" -> trees = cli.number(1);
                case "-h", "--help" -> {
                    cli.printUsage();
                    System.exit(0);
                }
                default -> throw cli.unknown();
            }
        }
        ChildJvm jvm = new ChildJvm(javaHome, BenchPaths.benchJar());
        int feature = jvm.featureVersion();
        Path work = Files.createTempDirectory("mt-design");
        Path jfc = work.resolve("design.jfc");
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\">\n");
        for (String e : List.of("bench.Entry", "bench.Exit", "bench.Call", "bench.Buffer")) {
            sb.append("  <event name=\"").append(e).append("\"><setting name=\"enabled\">true</setting>")
                    .append("<setting name=\"threshold\">0 ns</setting><setting name=\"stackTrace\">false</setting></event>\n");
        }
        Files.writeString(jfc, sb.append("</configuration>\n").toString());
        Path jfr = work.resolve("run.jfr");
        String recording = "-XX:StartFlightRecording:settings=" + jfc + ",maxsize=0,filename=" + jfr;
        Map<String, List<String>> modes = new LinkedHashMap<>();
        modes.put("plain", List.of());
        modes.put("two", List.of(recording));
        modes.put("one", List.of(recording));
        modes.put("buffer", List.of(recording));
        modes.put("buffer-notime", List.of(recording));
        if (feature >= 25) {
            modes.put("jep520", List.of("-XX:StartFlightRecording:settings=none,+jdk.MethodTrace#enabled=true,"
                    + "+jdk.MethodTrace#stackTrace=false,+jdk.MethodTrace#filter=" + DesignWorkload.class.getName()
                    + "::plain,maxsize=0,filename=" + jfr));
        }
        System.out.printf(Locale.ROOT, "Event designs: JDK %d, %d rounds, %,d call trees of depth 10%n", feature, rounds, trees);
        Map<String, double[][]> res = new LinkedHashMap<>();
        for (String m : modes.keySet()) {
            res.put(m, new double[3][rounds]);
        }
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, List<String>> m : modes.entrySet()) {
                List<String> opts = new ArrayList<>(List.of("-Xms256m", "-Xmx256m"));
                opts.addAll(m.getValue());
                String mode = m.getKey().equals("jep520") ? "plain" : m.getKey();
                String[] out = jvm.run(opts, DesignWorkload.class.getName(),
                        List.of(mode, Long.toString(trees / 2), Long.toString(trees), "20")).split(" ");
                res.get(m.getKey())[0][r] = Double.parseDouble(out[0]);
                res.get(m.getKey())[1][r] = Double.parseDouble(out[1]);
                res.get(m.getKey())[2][r] = Files.exists(jfr) ? Files.size(jfr) : 0;
                Files.deleteIfExists(jfr);
            }
        }
        double wall0 = ChildJvm.median(res.get("plain")[0]);
        double cpu0 = ChildJvm.median(res.get("plain")[1]);
        // Warm-up and measured trees are both recorded.
        double calls = (trees + trees / 2) * 10.0;
        System.out.println("design         wall ns/call  CPU ns/call  recording bytes/call");
        for (String m : modes.keySet()) {
            System.out.printf(Locale.ROOT, "%-13s %13.1f %12.1f %21.1f%n", m, ChildJvm.median(res.get(m)[0]) - wall0,
                    ChildJvm.median(res.get(m)[1]) - cpu0, ChildJvm.median(res.get(m)[2]) / calls);
        }
    }
}
