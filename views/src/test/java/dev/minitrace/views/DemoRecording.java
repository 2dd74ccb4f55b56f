package dev.minitrace.views;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The bundled demo traced for real: a child JVM runs it with the agent and MiniTrace's JFR profile,
 * as {@code mt run} does, once per test JVM. Its code fixes what each worker does (DemoMain,
 * OrderWorker), so the tests know the exact calls, monitors and allocations to expect.
 */
public final class DemoRecording {
    /** Workers, orders per worker, and rejected orders per worker (every 50th). */
    public static final int WORKERS = 4;
    public static final int ORDERS = 2000;
    public static final int REJECTED = 40;
    /** Monitor acquires per worker: take (synchronized), countReservation (static synchronized), two nested blocks in Ledger.accept, one in Ledger.reject. */
    public static final int MONITORS = ORDERS + (ORDERS - REJECTED) + 2 * (ORDERS - REJECTED) + REJECTED;

    private static final Path AGENT = Paths.get(System.getProperty("minitrace.agent.jar", "../injector/target/minitrace-agent.jar"));
    private static final Path DEMO = Paths.get(System.getProperty("minitrace.demo.jar", "../demo/target/minitrace-demo.jar"));
    private static final Path JFC = Paths.get(System.getProperty("minitrace.jfc", "../jfc-profiles/minitrace.jfc"));
    private static Path recording;

    private DemoRecording() {
    }

    /** The recording (made on first use, removed when the test JVM exits). */
    public static synchronized Path get() throws IOException, InterruptedException {
        if (recording != null) {
            return recording;
        }
        Path dir = Files.createTempDirectory("minitrace-views-demo-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
        Path jfr = dir.resolve("demo.jfr");
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + AGENT.toAbsolutePath(), "-XX:FlightRecorderOptions:memorysize=64m",
                "-XX:StartFlightRecording:name=minitrace,settings=" + JFC.toAbsolutePath() + ",filename=" + jfr
                        + ",dumponexit=true,maxsize=0",
                "-jar", DEMO.toAbsolutePath().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the demo finished");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("minitrace demo: 4 workers, 7840 orders accepted, 160 rejected"), out);
        assertTrue(Files.size(jfr) > 0, out);
        recording = jfr;
        return jfr;
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary folder is not worth failing the build for
        }
    }
}
