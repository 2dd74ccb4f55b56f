package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.BothEngines;
import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.MtlogContent;
import dev.minitrace.converter.SyntheticRecordings;
import dev.minitrace.converter.SystemProperties;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code minitrace.MethodBuffer} events written by JMC's writer (another producer than the JDK:
 * strings as UTF-8, {@code baseTime} without the tick-timestamp annotation): the records convert
 * exactly, merged with an allocation that a skip record jumps over, also when another thread
 * committed the buffer; a damaged one is skipped and said, with both engines alike.
 */
class MethodBufferSyntheticTest {
    @TempDir
    Path dir;

    @Test
    void writerMadeBuffersConvertExactlyAndADamagedOneIsSaid() throws Exception {
        Path in = dir.resolve("synthetic.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(1, "demo.A", "a", "()V");
            w.define(2, "demo.A", "b", "()V");
            w.tick(1_000_000);
            String first = new TraceBufferEncoder().entry(1, 0).entry(2, 10).skip(1).exit(2, 70, -1).records();
            w.buffer("worker", 10, "worker", 10, 1, 3, 500_000, 1_000_000_000L, first);
            w.alloc("worker", 10, "[I", 0x2a, 4, 3);
            w.buffer("periodic", 99, "worker", 10, 5, 2, 500_010, 1_000_000_000L,
                    new TraceBufferEncoder().thrown(2, 5).exit(1, 31, -1).records());
            w.buffer("other", 11, "other", 11, 1, 1, 500_000, 1_000_000_000L, "\u0004\u00e9\u0001"); // a char above 127
        }
        Path out = dir.resolve("synthetic.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), in, out);
        MtlogContent c = MtlogContent.read(out);
        assertEquals(List.of("worker"), List.copyOf(c.byThread.keySet()));
        assertEquals(List.of("METHOD_ENTRY 1 0", "METHOD_ENTRY 2 0", "OBJECT_ALLOC [I@2a 4", "METHOD_EXIT 2 70",
                "METHOD_EXIT 2 0", "METHOD_EXIT 1 31"), c.withoutGc("worker"));
        assertTrue(report.lostData());
        // the times, to the nanosecond: baseTime is read as raw ticks by both engines
        JfrChunk chunk = JfrChunks.scan(in).chunks().get(0);
        long base = chunk.startNanos() + (long) ((500_000 - chunk.startTicks()) / ((double) chunk.ticksPerSecond() / 1e9));
        long base2 = chunk.startNanos() + (long) ((500_010 - chunk.startTicks()) / ((double) chunk.ticksPerSecond() / 1e9));
        List<String> expected = List.of("1 worker 1 " + base + " 1 0", "1 worker 2 " + (base + 10) + " 2 0",
                "2 worker 4 " + (base + 10) + " 2 70", "2 worker 5 " + (base2 + 5) + " 2 0", "2 worker 6 " + (base2 + 5) + " 1 31");
        for (RecordingSource engine : new RecordingSource[] {new RecordingFileSource(), new FastRecordingSource()}) {
            CapturingSink sink = new CapturingSink();
            engine.read(JfrChunks.scan(in), sink);
            assertEquals(expected, sink.methodEvents, engine.getClass().getSimpleName());
            assertEquals(List.of("other 1: char 0xe9 at char 1 is not below 128 in the record at char 0"), sink.corrupt);
        }
        assertEquals(List.of("1 corrupt minitrace.MethodBuffer event(s) skipped with their 1 record(s)"
                + " (first: char 0xe9 at char 1 is not below 128 in the record at char 0)"), report.warnings());
    }

    @Test
    void anExitByTheDefinedReturnTakesItsIndexFromTheDefinitionBeforeOrAfterIt() throws Exception {
        Path in = dir.resolve("defined.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(2, "demo.A", "b", "()I", 5);
            w.tick(1_000_000);
            String records = new TraceBufferEncoder().entry(1, 0).definedLeaf(2, -1).exit(1, 40, -1).entry(1, -1).definedExit(1, -1)
                    .entry(3, -1).definedExit(3, -1).records();
            w.buffer("worker", 10, "worker", 10, 1, 8, 500_000, 1_000_000_000L, records);
            w.define(1, "demo.A", "a", "()V", 12); // after the records in the file, as JFR may write it
            w.define(3, "demo.A", "c", "()V", -1); // none: that exit's index is lost
        }
        // unbounded: records written at the chunk's end; bound 1: written as soon as the engine's
        // first pass (GC events and definitions) is done, before the definition is read in order
        for (String bound : new String[] {null, "1"}) {
            Path out = dir.resolve("defined-" + bound + ".mtlog");
            ConversionReport[] report = new ConversionReport[1];
            SystemProperties.with("minitrace.maxPendingEvents", bound,
                    () -> report[0] = BothEngines.convert(ConvertOptions.defaults(), in, out));
            assertEquals(List.of("METHOD_ENTRY 1 0", "METHOD_ENTRY 2 0", "METHOD_EXIT 2 5", "METHOD_EXIT 1 40", "METHOD_ENTRY 1 0",
                    "METHOD_EXIT 1 12", "METHOD_ENTRY 3 0", "METHOD_EXIT 3 0"), MtlogContent.read(out).withoutGc("worker"), "bound " + bound);
            assertEquals(List.of("1 method exit(s) by the method's only return instruction have no minitrace.MethodDefinition"
                    + " that gives its bytecode index; written with bytecode index 0"), report[0].warnings());
            assertTrue(report[0].lostData());
        }
    }
}
