package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import fixture.scale.Crowd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 2,000 platform threads and, on JDK 21+, 100,000 virtual threads traced at once in a JVM with a
 * 256 MB heap: no deadlock (the child ends within its time), every thread's trace exact (its
 * entries and exits counted), nothing lost by the converter, and the heap in use once they ended
 * small (the agent keeps no buffer of an ended thread).
 */
class ScaleIT {
    private static final int PLATFORM = 2_000;
    private static final int VIRTUAL = 100_000;
    private static final int CALLS = 50;

    @TempDir
    Path dir;

    @Test
    void thousandsOfThreadsAreTracedExactly() throws Exception {
        Path jfr = dir.resolve("crowd.jfr");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.scale.Work",
                "-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                        + ",filename=" + jfr + ",dumponexit=true,maxsize=0",
                "-XX:FlightRecorderOptions:memorysize=64m",
                "-cp", ChildProcess.testClasses(), Crowd.class.getName(), Integer.toString(PLATFORM), Integer.toString(VIRTUAL),
                Integer.toString(CALLS)).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "no deadlock");
        String output = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        int virtual = Runtime.version().feature() >= 21 ? VIRTUAL : 0;
        assertTrue(output.contains("threads " + PLATFORM + " " + virtual), output);
        // Bounded: an ended thread's buffer is committed and dropped. Kept, 102,000 buffers of at
        // least 256 chars would hold some 60 MB; measured 10 MB after all threads ended (JDK 25).
        long heap = Long.parseLong(output.replaceAll("(?s).*heap (\\d+).*", "$1"));
        assertTrue(heap < 40L << 20, "heap in use after the threads ended: " + heap);
        Path log = dir.resolve("crowd.mtlog");
        ChildProcess.Outcome o = ChildProcess.cli(dir, "convert", jfr.toString(), log.toString(), "--memory", "1g");
        assertEquals(ExitCodes.OK, o.status(), o::toString);
        assertFalse(o.err().contains("missing") || o.err().contains("lost"), o::err);
        try (MtlogReader r = MtlogReader.open(log)) {
            Map<Integer, int[]> perStream = new HashMap<>();
            r.forEachRecord((stream, type, value, aux) -> {
                int[] c = perStream.computeIfAbsent(stream, k -> new int[2]);
                if (type == MtlogFormat.METHOD_ENTRY) {
                    c[0]++;
                } else if (type == MtlogFormat.METHOD_EXIT) {
                    c[1]++;
                }
            });
            int platformSeen = 0;
            int virtualSeen = 0;
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> e : r.info().threads().entrySet()) {
                String name = e.getValue().name();
                int[] c = perStream.getOrDefault((int) (long) e.getKey(), new int[2]);
                if (name.startsWith("p-") || name.startsWith("v-")) {
                    assertEquals(1 + 2 * CALLS, c[0], name + " entries");
                    assertEquals(1 + 2 * CALLS, c[1], name + " exits");
                    if (name.startsWith("p-")) {
                        platformSeen++;
                    } else {
                        virtualSeen++;
                    }
                }
            }
            assertEquals(PLATFORM, platformSeen);
            assertEquals(virtual, virtualSeen);
        }
        System.out.println("ScaleIT: " + output.replace('\n', ' ') + "; " + o.out().strip());
    }
}
