package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing the next chunk ahead on a second thread must deliver exactly what the chunk reader
 * delivers when it parses each chunk on the caller's thread: the same calls in the same order, the same events before a
 * format error and the same error, whichever chunks are parsed ahead.
 */
class JfrChunkReaderTest {
    @TempDir
    static Path dir;
    static Path recording;
    static byte[] bytes;
    static List<long[]> chunks;

    @BeforeAll
    static void record() throws Exception {
        Path multi = TestRecordings.multiChunk(dir, "m.jfr", 3, 200);
        Path single = TestRecordings.singleChunk(dir, "s.jfr", 2, 100);
        recording = TestRecordings.concatenate(dir.resolve("both.jfr"), multi, single);
        bytes = Files.readAllBytes(recording);
        chunks = JfrReaderTest.chunkBounds(recording);
        assertTrue(chunks.size() >= 4, "chunks " + chunks.size());
    }

    /** Every chunk's lines, or its lines followed by its error. */
    private static List<String> viaReader(Path file) throws IOException {
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        List<String> out = new ArrayList<>();
        try (JfrChunkReader r = new JfrChunkReader(file, EnumSet.allOf(JfrEventKind.class))) {
            for (int i = 0; i < chunks.size(); i++) {
                int before = sink.lines.size();
                try {
                    r.readChunk(i, chunks.get(i)[0], sink);
                } catch (JfrFormatException e) {
                    sink.lines.add("error " + e.getMessage());
                }
                out.add(i + ": " + sink.lines.subList(before, sink.lines.size()));
            }
        }
        out.add("per chunk " + sink.eventsPerChunk);
        return out;
    }

    private static List<String> viaPrefetcher(Path file, long maxPrefetch) throws IOException {
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        List<String> out = new ArrayList<>();
        try (JfrChunkReader r = new JfrChunkReader(file, EnumSet.allOf(JfrEventKind.class), maxPrefetch)) {
            for (int i = 0; i < chunks.size(); i++) {
                int before = sink.lines.size();
                boolean last = i + 1 == chunks.size();
                try {
                    r.readChunk(i, chunks.get(i)[0], last ? -1 : i + 1, last ? -1 : chunks.get(i + 1)[0], sink);
                } catch (JfrFormatException e) {
                    sink.lines.add("error " + e.getMessage());
                }
                out.add(i + ": " + sink.lines.subList(before, sink.lines.size()));
            }
        }
        out.add("per chunk " + sink.eventsPerChunk);
        return out;
    }

    private static long[] thresholds() {
        long median = chunks.get(chunks.size() / 2)[1] - chunks.get(chunks.size() / 2)[0];
        return new long[] {0, median, Long.MAX_VALUE}; // none, some, all chunks ahead
    }

    @Test
    void sameCallsAsTheChunkReader() throws Exception {
        List<String> expected = viaReader(recording);
        assertTrue(expected.toString().contains("minitrace.MethodEntry"), "the recording has trace events");
        assertTrue(expected.toString().contains("minitrace.ClassDefinition|"), "and class definitions");
        assertTrue(expected.toString().contains("minitrace.MethodBuffer|"), "and buffer events");
        for (long t : thresholds()) {
            assertEquals(expected, viaPrefetcher(recording, t), "prefetch up to " + t + " bytes");
        }
    }

    @Test
    void sameEventsAndErrorsForCorruptedChunks() throws Exception {
        Random random = new Random(3);
        int errors = 0;
        for (int round = 0; round < 40; round++) {
            byte[] copy = bytes.clone();
            for (int k = 0; k < 3; k++) {
                int at = ChunkHeader.SIZE + random.nextInt(copy.length - ChunkHeader.SIZE);
                copy[at] = (byte) random.nextInt(256);
            }
            Path p = dir.resolve("flip.jfr");
            Files.write(p, copy);
            List<String> expected;
            try {
                expected = viaReader(p);
            } catch (IOException e) {
                continue; // a chunk header itself became unreadable: not this test's case
            }
            if (expected.toString().contains("error ")) {
                errors++;
            }
            for (long t : thresholds()) {
                assertEquals(expected, viaPrefetcher(p, t), "round " + round + ", prefetch up to " + t + " bytes");
            }
        }
        assertTrue(errors > 0, "some flips must break a chunk");
    }
}
