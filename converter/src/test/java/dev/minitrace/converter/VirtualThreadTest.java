package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Virtual threads (JDK 21+) get their own thread ids and streams, distinct from their carriers. */
class VirtualThreadTest {
    @TempDir
    Path dir;

    @Test
    void eachVirtualThreadIsItsOwnStream() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+; running on " + Runtime.version());
        // Compiled for Java 17: the virtual-thread API is reached by reflection.
        Method ofVirtual = Thread.class.getMethod("ofVirtual");
        Class<?> builder = Class.forName("java.lang.Thread$Builder");
        Method name = builder.getMethod("name", String.class);
        Method start = builder.getMethod("start", Runnable.class);
        Path jfr = dir.resolve("virtual.jfr");
        int threads = 8;
        try (Recording rec = new Recording()) {
            rec.enable(MethodEntryEvent.class);
            rec.enable(MethodExitEvent.class);
            rec.start();
            MethodDefinitionEvent d = new MethodDefinitionEvent();
            d.methodId = 5;
            d.className = "demo.V";
            d.methodName = "run";
            d.descriptor = "()V";
            d.commit();
            List<Thread> started = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Object b = name.invoke(ofVirtual.invoke(null), "v-" + t);
                started.add((Thread) start.invoke(b, (Runnable) () -> {
                    long[] seq = {0};
                    List<String> ignored = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        TestRecordings.entry(seq, ignored, 5);
                        Thread.yield(); // may move to another carrier between entry and exit
                        TestRecordings.exit(seq, ignored, 5, 3, false);
                    }
                }));
            }
            for (Thread t : started) {
                t.join();
            }
            rec.stop();
            rec.dump(jfr);
        }
        Path out = dir.resolve("virtual.mtlog");
        BothEngines.convert(ConvertOptions.defaults(), jfr, out);
        MtlogContent c = MtlogContent.read(out);
        Set<String> names = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            names.add("v-" + t);
            List<String> lines = c.byThread.get("v-" + t);
            assertEquals(100, lines.size(), "v-" + t);
            for (int i = 0; i < lines.size(); i++) {
                assertEquals(i % 2 == 0 ? "METHOD_ENTRY 5 0" : "METHOD_EXIT 5 3", lines.get(i));
            }
        }
        assertTrue(c.byThread.keySet().containsAll(names));
        assertEquals(threads, c.info.threads().size(), "one id per virtual thread: " + c.info.threads());
        assertEquals(Oracles.recordingFile(jfr), c.traceCounts());
        assertEquals(Oracles.jmc(jfr), c.traceCounts());
    }
}
