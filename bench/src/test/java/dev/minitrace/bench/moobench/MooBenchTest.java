package dev.minitrace.bench.moobench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.bench.BenchArgs;
import dev.minitrace.bench.BenchPaths;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MooBenchTest {
    @TempDir
    Path dir;

    @Test
    void commandLineDefaultsAndMistakes() throws Exception {
        MooBench.Options o = MooBench.parse(new String[0]);
        assertEquals(1_000_000, o.calls());
        assertEquals(3, o.loops());
        assertEquals(10, o.depth());
        assertEquals(0, o.methodTime());
        assertEquals(MooBench.CONFIGS, o.configs());
        assertEquals(List.of("plain", "mt-full", "kieker"), MooBench.parse(new String[] {"--configs", "mt-full,kieker,mt-full"}).configs(),
                "the baseline is always run");
        assertEquals("--configs: unknown 'jfr' (expected some of plain,mt-loaded,mt-full,jep520,kieker,otel)",
                assertThrows(BenchArgs.Usage.class, () -> MooBench.parse(new String[] {"--configs", "jfr"})).getMessage());
        assertThrows(BenchArgs.Usage.class, () -> MooBench.parse(new String[] {"--calls", "1"}));
    }

    @Test
    void keepsTheSecondHalfOfTheCallsAsMooBenchDoes() throws Exception {
        Path times = dir.resolve("times.bin");
        MooBenchDriver.write(new long[] {9, 9, 9, 1, 2, 3, 4L + Integer.MAX_VALUE}, times);
        assertArrayEquals(new int[] {1, 2, 3, Integer.MAX_VALUE}, MooBench.readSecondHalf(times, 7));
        assertThrows(java.io.IOException.class, () -> MooBench.readSecondHalf(times, 8), "a run that wrote fewer calls");
    }

    /**
     * End to end: a real child JVM with the real agent and recording, converted with bin/mt; the
     * harness's exactness check passes, and counting the kept recording again finds exactly the
     * calls made, the constructor's one call, and nothing of a method that never ran.
     */
    @Test
    void aMiniTraceRunHoldsExactlyTheCallsItMade() throws Exception {
        Path keep = dir.resolve("keep");
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            MooBench.run(MooBench.parse(new String[] {"--calls", "2000", "--depth", "4", "--loops", "1", "--configs", "mt-full",
                "--keep", keep.toString()}));
        } finally {
            System.setOut(out);
        }
        String report = printed.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("exact: 16,000 records of the monitored method"), report);
        assertTrue(report.contains("MiniTrace full trace per instrumented call: median"), report);
        Path recording;
        try (var files = Files.list(keep)) {
            recording = files.filter(p -> p.toString().endsWith("-mt-full.jfr")).findFirst().orElseThrow();
        }
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path root = BenchPaths.projectRoot();
        String monitored = MonitoredClass.class.getName();
        assertEquals(16_000, TraceCount.monitoredRecords(root, javaHome, recording, dir, monitored + ".monitoredMethod"));
        assertEquals(2, TraceCount.monitoredRecords(root, javaHome, recording, dir, monitored + ".<init>"));
        assertEquals(0, TraceCount.monitoredRecords(root, javaHome, recording, dir, monitored + ".neverCalled"));
    }
}
