package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recordings written with JMC's writer: scrambled order, many threads, unknown types, missing definitions, data loss, chunks. */
class EdgeCaseTest {
    @TempDir
    Path dir;

    private ConversionReport convert(Path in, Path out, boolean global) throws Exception {
        ConvertOptions o = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
        return BothEngines.convert(o, in, out);
    }

    private static final int THREADS = 5;
    private static final int PER_CHUNK = 300;

    @Test
    void scrambledOrderAcrossThreeChunksIsRestoredPerThread() throws Exception {
        Path in = dir.resolve("scrambled.jfr");
        scrambledOrderAcrossThreeChunksIsRestoredPerThreadInputOnly(in);
        int threads = THREADS;
        int perChunk = PER_CHUNK;
        assertEquals(3, JfrChunks.scan(in).chunks().size());
        for (boolean global : new boolean[] {false, true}) {
            Path out = dir.resolve("scrambled-" + global + ".mtlog");
            ConversionReport report = convert(in, out, global);
            MtlogContent c = MtlogContent.read(out);
            assertEquals(threads, c.byThread.size());
            for (List<String> lines : c.byThread.values()) {
                assertEquals(3 * perChunk, lines.size());
                for (int i = 0; i < lines.size(); i++) {
                    assertEquals("METHOD_ENTRY " + (i + 1) + " 0", lines.get(i));
                }
            }
            assertEquals(Oracles.recordingFile(in), c.traceCounts());
            assertEquals(Oracles.jmc(in), c.traceCounts());
            assertEquals(3, report.chunks());
            // ids 2.. have no definition: a placeholder and one warning
            assertEquals("unknown#2", c.info.methods().get(2L).methodName());
            assertEquals("?", c.info.methods().get(2L).className());
            assertEquals("a", c.info.methods().get(1L).methodName());
            assertTrue(report.warnings().stream().anyMatch(s -> s.contains("no minitrace.MethodDefinition")), report.warnings().toString());
            assertFalse(report.lostData(), report.warnings().toString());
        }
    }

    /** Three chunks; in each, the events of 5 threads in a random order. */
    private void scrambledOrderAcrossThreeChunksIsRestoredPerThreadInputOnly(Path in) throws Exception {
        Random rnd = new Random(7);
        int threads = THREADS;
        int perChunk = PER_CHUNK;
        Path[] parts = new Path[3];
        for (int chunk = 0; chunk < 3; chunk++) {
            parts[chunk] = in.resolveSibling(in.getFileName() + ".part" + chunk);
            try (SyntheticRecordings w = new SyntheticRecordings(parts[chunk])) {
                w.define(1, "demo.A", "a", "()V");
                // the same first-use order in every chunk gives each thread the same JFR id in all chunks
                for (int t = 0; t < threads; t++) {
                    w.unknown("s-" + t, 100 + t, "declares the thread");
                }
                w.tick(1000L * chunk * perChunk * threads);
                List<long[]> events = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    for (int i = 0; i < perChunk; i++) {
                        events.add(new long[] {t, chunk * perChunk + i + 1});
                    }
                }
                Collections.shuffle(events, rnd);
                for (long[] e : events) {
                    // the method id encodes the sequence so the output order can be checked
                    w.entry("s-" + e[0], 100 + e[0], (int) e[1], e[1]);
                }
            }
        }
        SyntheticRecordings.concatenate(in, parts);
    }

    @Test
    void memoryBoundSpillsAndStaysExact() throws Exception {
        Path in = dir.resolve("window.jfr");
        Random rnd = new Random(3);
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(1, "demo.A", "a", "()V");
            for (int block = 0; block < 50; block++) {
                // each thread's events arrive shuffled within windows of 20 sequence numbers
                for (int t = 0; t < 3; t++) {
                    List<Integer> seqs = new ArrayList<>();
                    for (int i = 1; i <= 20; i++) {
                        seqs.add(block * 20 + i);
                    }
                    Collections.shuffle(seqs, rnd);
                    for (int s : seqs) {
                        w.entry("w-" + t, 10 + t, s, s);
                    }
                }
            }
        }
        SystemProperties.with("minitrace.maxPendingEvents", "300", () -> {
            Path out = dir.resolve("window.mtlog");
            ConversionReport report = convert(in, out, false);
            MtlogContent c = MtlogContent.read(out);
            for (List<String> lines : c.byThread.values()) {
                for (int i = 0; i < lines.size(); i++) {
                    assertEquals("METHOD_ENTRY " + (i + 1) + " 0", lines.get(i));
                }
                assertEquals(1000, lines.size());
            }
            assertTrue(report.warnings().stream().noneMatch(x -> x.contains("out of order") || x.contains("after later")),
                    report.warnings().toString());
            // the chunk's GC events are read first, so records are written as soon as they are contiguous
            assertEquals(0, report.spilledRecords(), "written mid-chunk as they became contiguous, nothing waited on disk");
            // the scrambled recording (every thread's events spread over three chunks) under the same
            // bound: spilled and merged, still exact per thread, nothing lost, nothing out of order
            for (boolean global : new boolean[] {false, true}) {
                Path scrambledOut = dir.resolve("scrambled-bound-" + global + ".mtlog");
                scrambledOrderAcrossThreeChunksIsRestoredPerThreadInputOnly(dir.resolve("s.jfr"));
                ConversionReport r2 = convert(dir.resolve("s.jfr"), scrambledOut, global);
                if (global) {
                    // the global layout writes at chunk ends only: what the bound does not hold waits on disk
                    assertTrue(r2.spilledRecords() > 0, r2.warnings().toString());
                }
                assertTrue(r2.warnings().stream().noneMatch(x -> x.contains("after later") || x.contains("missing")),
                        r2.warnings().toString());
                assertFalse(r2.lostData(), r2.warnings().toString());
                MtlogContent sc = MtlogContent.read(scrambledOut);
                for (List<String> lines : sc.byThread.values()) {
                    assertEquals(3 * PER_CHUNK, lines.size());
                    for (int i = 0; i < lines.size(); i++) {
                        assertEquals("METHOD_ENTRY " + (i + 1) + " 0", lines.get(i));
                    }
                }
                assertEquals(Oracles.recordingFile(dir.resolve("s.jfr")), sc.traceCounts());
            }
        });
    }

    @Test
    void eventsWithoutAThreadAreCountedAsLost() throws Exception {
        Path in = dir.resolve("nothread.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(1, "demo.A", "a", "()V");
            w.entry("x", 1, 1, 1);
            w.entryWithoutThread(1, 2);
            w.entryWithoutThread(1, 3);
            w.exit("x", 1, 1, 4, 4);
        }
        Path out = dir.resolve("nothread.mtlog");
        ConversionReport report = convert(in, out, false);
        assertTrue(report.lostData());
        assertTrue(report.warnings().stream().anyMatch(s -> s.startsWith("2 minitrace event(s) have no thread")), report.warnings().toString());
        java.util.Map<String, Long> oracle = Oracles.recordingFile(in);
        assertEquals(2L, oracle.get("METHOD_ENTRY@null"), "RecordingFile sees them without a thread: " + oracle);
        assertEquals(List.of("METHOD_ENTRY 1 0", "METHOD_EXIT 1 4"), MtlogContent.read(out).byThread.get("x"));
    }

    @Test
    void aTimeGapBetweenChunksIsReportedAsPossiblyDroppedChunks() throws Exception {
        long t0 = 1_700_000_000_000_000_000L;
        Path a = dir.resolve("gap-a.jfr");
        Path b = dir.resolve("gap-b.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(a, t0)) {
            w.define(1, "demo.A", "a", "()V");
            w.entry("x", 1, 1, 1);
        }
        try (SyntheticRecordings w = new SyntheticRecordings(b, t0 + 30_000_000_000L)) {
            w.define(1, "demo.A", "a", "()V");
            w.entry("x", 1, 1, 2);
        }
        Path in = dir.resolve("gap.jfr");
        SyntheticRecordings.concatenate(in, a, b);
        ConversionReport report = convert(in, dir.resolve("gap.mtlog"), false);
        assertTrue(report.warnings().stream().anyMatch(s -> s.startsWith("chunks 0 and 1 are ") && s.contains(" s apart: chunks between them may have been dropped")), report.warnings().toString());
        assertEquals(2, report.records());
    }

    @Test
    void thousandsOfThreadsUnknownTypesAndAllocations() throws Exception {
        Path in = dir.resolve("many.jfr");
        int threads = 2000;
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(9, "demo.B", "<init>", "()V");
            for (int t = 0; t < threads; t++) {
                String name = "t-" + t;
                w.unknown(name, t + 1, "ignored");
                w.entry(name, t + 1, 9, 1);
                w.alloc(name, t + 1, t % 2 == 0 ? "[I" : "java/lang/String", t, 3, 2);
                w.exit(name, t + 1, 9, 17, 3);
            }
        }
        Path out = dir.resolve("many.mtlog");
        ConversionReport report = convert(in, out, false);
        MtlogContent c = MtlogContent.read(out);
        assertEquals(threads, c.byThread.size());
        assertEquals(threads, c.info.threads().size());
        assertEquals(List.of("METHOD_ENTRY 9 0", "OBJECT_ALLOC java.lang.String@7 3", "METHOD_EXIT 9 17"), c.byThread.get("t-7"));
        assertEquals(List.of("METHOD_ENTRY 9 0", "OBJECT_ALLOC [I@8 3", "METHOD_EXIT 9 17"), c.byThread.get("t-8"));
        assertEquals(Oracles.recordingFile(in), c.traceCounts());
        assertEquals(Oracles.jmc(in), c.traceCounts());
        assertEquals(3L * threads, report.records());
        assertTrue(report.warnings().isEmpty(), report.warnings().toString());
    }

    @Test
    void dataLossAndSequenceGapsAreReportedAsLostData() throws Exception {
        Path in = dir.resolve("lossy.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(1, "demo.A", "a", "()V");
            w.entry("x", 1, 1, 1);
            w.exit("x", 1, 1, 4, 2);
            w.entry("x", 1, 1, 10); // 7 events lost
            w.dataLoss(4096);
        }
        Path out = dir.resolve("lossy.mtlog");
        ConversionReport report = convert(in, out, false);
        assertTrue(report.lostData());
        assertTrue(report.warnings().stream().anyMatch(s -> s.contains("4096 bytes")), report.warnings().toString());
        assertTrue(report.warnings().stream().anyMatch(s -> s.startsWith("7 minitrace event(s) missing")), report.warnings().toString());
        assertEquals(3, MtlogContent.read(out).records);
        assertEquals(Oracles.recordingFile(in), MtlogContent.read(out).traceCounts());
        assertEquals(Oracles.jmc(in), MtlogContent.read(out).traceCounts());
    }
}
