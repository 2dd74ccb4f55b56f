package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParallelJfrReaderTest {
    @TempDir
    static Path dir;
    static Path recording;

    @BeforeAll
    static void record() throws Exception {
        Path multi = TestRecordings.multiChunk(dir, "m.jfr", 3, 200);
        recording = TestRecordings.concatenate(dir.resolve("both.jfr"), multi,
                TestRecordings.singleChunk(dir, "s.jfr", 2, 100), multi);
    }

    @Test
    void deliversChunksInOrderWithTheSameEventsAsTheSequentialReader() throws Exception {
        CanonicalEvents.Sink sequential = JfrReaderTest.readFast(recording);
        for (int threads : new int[] {1, 2, 3}) {
            List<String> lines = new ArrayList<>();
            List<Integer> perChunk = new ArrayList<>();
            ReadResult r = new ParallelJfrReader(threads).read(recording, CanonicalEvents.Sink::new, s -> {
                lines.addAll(s.lines);
                perChunk.addAll(s.eventsPerChunk);
            });
            assertEquals(sequential.eventsPerChunk, perChunk, threads + " threads");
            assertEquals(sequential.lines, lines, threads + " threads");
            assertEquals(lines.size(), r.events());
            assertEquals(perChunk.size(), r.chunks());
        }
        assertEquals(CanonicalEvents.fromRecordingFile(recording), sequential.lines);
    }

    @Test
    void deliversMethodBufferEventsLikeTheSequentialReaderAndRecordingFile() throws Exception {
        for (boolean objectRecords : new boolean[] {false, true}) {
            methodBuffers(objectRecords);
        }
    }

    private static void methodBuffers(boolean objectRecords) throws Exception {
        Path buffers = dev.minitrace.converter.MethodBufferRecordings.record(dir.resolve("buffers-" + objectRecords + ".jfr"), 3,
                10, objectRecords).file();
        CanonicalEvents.Sink sequential = JfrReaderTest.readFast(buffers);
        List<String> expected = CanonicalEvents.fromRecordingFile(buffers);
        assertEquals(expected, sequential.lines);
        assertTrue(expected.stream().filter(l -> l.startsWith("minitrace.MethodBuffer|")).count() >= 10, "buffer events read");
        assertEquals(objectRecords ? 4 : 0, expected.stream().filter(l -> l.startsWith("minitrace.ClassDefinition|")).count());
        List<String> lines = new ArrayList<>();
        new ParallelJfrReader(2).read(buffers, CanonicalEvents.Sink::new, s -> lines.addAll(s.lines));
        assertEquals(expected, lines);
    }

    @Test
    void reportsTruncationAndErrorsLikeTheSequentialReader() throws Exception {
        byte[] bytes = Files.readAllBytes(recording);
        List<long[]> chunks = JfrReaderTest.chunkBounds(recording);
        long cut = chunks.get(chunks.size() - 1)[0] + 1000;
        Path truncated = dir.resolve("cut.jfr");
        Files.write(truncated, Arrays.copyOf(bytes, (int) cut));
        ReadResult r = new ParallelJfrReader(2).read(truncated, CanonicalEvents.Sink::new, s -> { });
        assertEquals(chunks.size() - 1, r.chunks());
        assertEquals(1000, r.bytesLost());

        byte[] broken = bytes.clone();
        int at = (int) chunks.get(1)[0] + 20; // overwrites the pool and metadata offsets of chunk 1
        Arrays.fill(broken, at, at + 8, (byte) 0x7F);
        Path corrupt = dir.resolve("corrupt.jfr");
        Files.write(corrupt, broken);
        JfrFormatException e = assertThrows(JfrFormatException.class,
                () -> new ParallelJfrReader(2).read(corrupt, CanonicalEvents.Sink::new, s -> { }));
        assertEquals(1, e.chunkIndex());
        assertTrue(e.getMessage().contains("Metadata offset"), e.getMessage());
    }
}
