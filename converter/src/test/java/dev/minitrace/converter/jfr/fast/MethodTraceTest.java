package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JDK 25's jdk.MethodTrace (JEP 520), enabled in-process with a method filter. */
class MethodTraceTest {
    @TempDir
    Path dir;

    /** The traced code; its own class so the filter matches nothing else. */
    static final class Traced {
        static int depth(int n) {
            return n == 0 ? 0 : 1 + depth(n - 1);
        }

        static long sum(long a, String b) {
            return a + b.length();
        }
    }

    @Test
    void methodTraceEventsDecodeToTheSameMethodsAsRecordingFile() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "jdk.MethodTrace needs JDK 25");
        Path file = dir.resolve("trace.jfr");
        long check = 0;
        try (Recording r = new Recording()) {
            r.enable("jdk.MethodTrace").with("filter", Traced.class.getName()).withoutStackTrace();
            r.start();
            for (int i = 0; i < 50; i++) {
                check += Traced.depth(3) + Traced.sum(i, "xy");
            }
            r.stop();
            r.dump(file);
        }
        assertEquals(50 * 3 + 50 * 49 / 2 + 100, check);

        CanonicalEvents.Sink sink = JfrReaderTest.readFast(file);
        List<String> expected = CanonicalEvents.fromRecordingFile(file);
        assertEquals(expected, sink.lines);

        List<String> traces = new ArrayList<>();
        for (String line : sink.lines) {
            if (line.startsWith("jdk.MethodTrace|")) {
                String[] p = line.split("\\|");
                traces.add(p[4] + "." + p[5] + p[6]);
            }
        }
        // depth(3) is 4 calls, sum is 1: 5 calls per iteration.
        assertEquals(250, traces.size(), traces.toString());
        assertEquals(200, traces.stream().filter(t -> t.endsWith("$Traced.depth(I)I")).count());
        assertEquals(50, traces.stream().filter(t -> t.endsWith("$Traced.sum(JLjava/lang/String;)J")).count());
    }
}
