package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings made by {@code jcmd <pid> JFR.dump} (run in-process through the DiagnosticCommand
 * MBean, which is what jcmd calls), whole and with {@code begin}: a dump cut in time starts in the
 * middle of each thread's sequence, which is not data loss, and converts exactly.
 */
class JfrDumpTest {
    @TempDir
    Path dir;

    private static void jfrDump(String... args) throws Exception {
        ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "jfrDump", new Object[] {args}, new String[] {String[].class.getName()});
    }

    @Test
    void dumpsWholeAndFromABeginTimeConvertExactly() throws Exception {
        long[] seq = {0};
        List<String> trace = new ArrayList<>();
        Instant middle;
        try (Recording rec = new Recording()) {
            rec.setName("mt-dump-test");
            rec.enable(MethodEntryEvent.class);
            rec.setToDisk(true);
            rec.start();
            MethodDefinitionEvent d = new MethodDefinitionEvent();
            d.methodId = 1;
            d.className = "demo.D";
            d.methodName = "d";
            d.descriptor = "()V";
            d.commit();
            for (int i = 0; i < 2000; i++) {
                TestRecordings.entry(seq, trace, 1);
            }
            // a new chunk, so that a dump from the middle leaves the first part out
            try (Recording other = new Recording()) {
                other.start();
                other.stop();
            }
            Thread.sleep(20);
            middle = Instant.now();
            Thread.sleep(20);
            for (int i = 0; i < 2000; i++) {
                TestRecordings.entry(seq, trace, 1);
            }
            jfrDump("name=mt-dump-test", "filename=" + dir.resolve("whole.jfr"));
            jfrDump("name=mt-dump-test", "filename=" + dir.resolve("late.jfr"), "begin=" + middle);
        }
        for (String f : List.of("whole.jfr", "late.jfr")) {
            Path jfr = dir.resolve(f);
            assertTrue(Files.size(jfr) > 0, f);
            List<Long> sequences = new ArrayList<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
                if (e.getEventType().getName().equals(MethodEntryEvent.NAME)) {
                    sequences.add(e.getLong("sequence"));
                }
            }
            sequences.sort(null);
            Path out = dir.resolve(f + ".mtlog");
            ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), jfr, out);
            assertFalse(report.lostData(), f + ": " + report.warnings());
            MtlogContent c = MtlogContent.read(out);
            assertEquals(Oracles.recordingFile(jfr), c.traceCounts(), f);
            assertEquals(Oracles.jmc(jfr), c.traceCounts(), f);
            // one thread: its records are exactly its events in sequence order, a contiguous run ending at the last
            assertEquals(sequences.size(), c.byThread.values().iterator().next().size(), f);
            assertEquals(4000L, sequences.get(sequences.size() - 1), f);
            assertEquals(4000L - sequences.size() + 1, sequences.get(0), f + " is a contiguous run");
        }
        long lateCount = RecordingFile.readAllEvents(dir.resolve("late.jfr")).stream()
                .filter(e -> e.getEventType().getName().equals(MethodEntryEvent.NAME)).count();
        assertTrue(lateCount < 4000, "the dump with begin= leaves the first chunk out: " + lateCount);
    }
}
