package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.TraceBufferEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape of a real program's recording, made with JMC's writer: 2,000 threads whose buffers
 * (minitrace.MethodBuffer) arrive in scrambled order within a chunk and, for most threads, one, two
 * or five chunks late, committed by another thread; converted under a bound of a few thousand
 * records, so that every run spills to disk and merges back. Each thread's trace must come out
 * exactly, in both layouts, with both engines byte for byte, nothing called lost, and no spill file
 * left behind.
 */
class LateBuffersAtScaleTest {
    private static final int THREADS = 2000;
    private static final int CHUNKS = 8;
    /** Records per thread per chunk, in buffers of {@link #PER_BUFFER}. */
    private static final int PER_CHUNK = 24;
    private static final int PER_BUFFER = 8;
    private static final int[] LATENESS = {0, 1, 2, 5};
    private static final int METHODS = 50;

    @TempDir
    static Path dir;
    static Path recording;

    @BeforeAll
    static void write() throws Exception {
        recording = dir.resolve("late-2000.jfr");
        Random rnd = new Random(42);
        // buffers[c] = the buffers written into chunk c: {thread, firstSequence}
        List<List<long[]>> buffers = new ArrayList<>();
        for (int c = 0; c < CHUNKS; c++) {
            buffers.add(new ArrayList<>());
        }
        for (int t = 0; t < THREADS; t++) {
            int late = LATENESS[t % LATENESS.length];
            for (int c = 0; c < CHUNKS; c++) {
                for (int b = 0; b < PER_CHUNK / PER_BUFFER; b++) {
                    long first = (long) c * PER_CHUNK + (long) b * PER_BUFFER + 1;
                    // the thread's first buffer of each chunk is the late one (its records come before the on-time ones)
                    int into = b == 0 ? Math.min(CHUNKS - 1, c + late) : c;
                    buffers.get(into).add(new long[] {t, first});
                }
            }
        }
        Path[] parts = new Path[CHUNKS];
        long t0 = 1_700_000_000_000_000_000L;
        for (int c = 0; c < CHUNKS; c++) {
            parts[c] = dir.resolve("part" + c + ".jfr");
            List<long[]> chunk = buffers.get(c);
            Collections.shuffle(chunk, rnd);
            try (SyntheticRecordings w = new SyntheticRecordings(parts[c], t0 + c * 1_000_000_000L)) {
                for (int m = 1; m <= METHODS; m++) {
                    w.define(m, "scale.C" + m, "m", "()V");
                }
                // the same first-use order in every chunk gives each thread the same JFR id in all chunks
                w.unknown("periodic", 1, "declares the committer");
                for (int t = 0; t < THREADS; t++) {
                    w.unknown("t-" + t, 100 + t, "declares the thread");
                }
                for (long[] buf : chunk) {
                    int t = (int) buf[0];
                    long first = buf[1];
                    TraceBufferEncoder e = new TraceBufferEncoder();
                    for (long s = first; s < first + PER_BUFFER; s++) {
                        if (s % 2 == 1) {
                            e.entry(method(s), s == first ? 0 : -1);
                        } else {
                            e.exit(method(s), (int) s, -1);
                        }
                    }
                    // late buffers are committed by another thread (the agent's periodic flush)
                    boolean lateOne = (first - 1) % PER_CHUNK == 0 && LATENESS[t % LATENESS.length] > 0;
                    w.buffer(lateOne ? "periodic" : "t-" + t, lateOne ? 1 : 100 + t, "t-" + t, 100 + t, first, PER_BUFFER,
                            10 * first, 1_000_000_000L, e.records());
                }
            }
        }
        SyntheticRecordings.concatenate(recording, parts);
        for (Path p : parts) {
            Files.delete(p);
        }
    }

    private static int method(long seq) {
        return (int) ((seq + 1) / 2 % METHODS) + 1;
    }

    /** A thread's trace as {@link MtlogContent} shows it (the global layout has no bytecode index). */
    private static List<String> expected(boolean global) {
        List<String> lines = new ArrayList<>();
        for (long s = 1; s <= (long) CHUNKS * PER_CHUNK; s++) {
            lines.add(s % 2 == 1 ? "METHOD_ENTRY " + method(s) + " 0" : "METHOD_EXIT " + method(s) + " " + (global ? "?" : s));
        }
        return lines;
    }

    @AfterEach
    void noSpillFileLeft() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> left = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spill") || n.endsWith(".tmp")).toList();
            assertEquals(List.of(), left, "temporary files left in " + dir);
        }
    }

    @Test
    void everyThreadExactInBothLayoutsWhileSpilling() throws Exception {
        assertEquals(CHUNKS, JfrChunks.scan(recording).chunks().size());
        SystemProperties.with("minitrace.maxPendingEvents", "5000", () -> {
            for (boolean global : new boolean[] {false, true}) {
                List<String> want = expected(global);
                Path out = dir.resolve("late-" + global + ".mtlog");
                ConvertOptions o = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
                ConversionReport report = BothEngines.convert(o, recording, out);
                assertEquals(List.of(), report.warnings(), "global " + global);
                assertFalse(report.lostData());
                assertTrue(report.spilledRecords() > 0, "a bound of 5000 records must spill");
                MtlogContent c = MtlogContent.read(out);
                assertEquals(THREADS, c.byThread.size());
                for (int t = 0; t < THREADS; t++) {
                    assertEquals(want, c.byThread.get("t-" + t), "thread t-" + t + ", global " + global);
                }
                assertEquals((long) THREADS * CHUNKS * PER_CHUNK, c.records);
                Files.delete(out);
            }
        });
    }

    @Test
    void theSameWithoutSpilling() throws Exception {
        for (boolean global : new boolean[] {false, true}) {
            List<String> want = expected(global);
            Path out = dir.resolve("late-mem-" + global + ".mtlog");
            ConvertOptions o = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            ConversionReport report = BothEngines.convert(o, recording, out);
            assertEquals(List.of(), report.warnings(), "global " + global);
            assertEquals(0, report.spilledRecords());
            MtlogContent c = MtlogContent.read(out);
            for (int t = 0; t < THREADS; t += 97) {
                assertEquals(want, c.byThread.get("t-" + t), "thread t-" + t + ", global " + global);
            }
            Files.delete(out);
        }
    }
}
