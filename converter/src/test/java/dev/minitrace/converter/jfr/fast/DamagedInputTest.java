package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Truncated, empty, foreign and corrupted files: a state or a clear error, never anything else. */
class DamagedInputTest {
    @TempDir
    static Path dir;
    static Path recording;
    static byte[] bytes;
    static List<long[]> chunks;
    static CanonicalEvents.Sink complete;

    @BeforeAll
    static void record() throws Exception {
        Path multi = TestRecordings.multiChunk(dir, "m.jfr", 2, 150);
        Path single = TestRecordings.singleChunk(dir, "s.jfr", 2, 100);
        recording = TestRecordings.concatenate(dir.resolve("both.jfr"), multi, single);
        bytes = Files.readAllBytes(recording);
        chunks = JfrReaderTest.chunkBounds(recording);
        complete = JfrReaderTest.readFast(recording);
        assertTrue(chunks.size() >= 4, "chunks " + chunks.size());
    }

    private static Path write(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    @Test
    void truncationAtManyOffsetsDeliversEveryCompleteChunkAndReportsTheLoss() throws Exception {
        TreeSet<Integer> cuts = new TreeSet<>(List.of(1, 2, 3, 4, 8, 67, 68, 69, 100));
        for (long[] c : chunks) {
            for (long d : new long[] {-1, 0, 1, 67, 68, 69}) {
                cuts.add((int) (c[1] + d));
            }
        }
        for (int i = 1; i < 40; i++) {
            cuts.add((int) ((long) bytes.length * i / 40));
        }
        cuts.removeIf(c -> c <= 0 || c >= bytes.length);
        for (int cut : cuts) {
            Path p = write("cut.jfr", Arrays.copyOf(bytes, cut));
            CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
            ReadResult r;
            try {
                r = new JfrReader().read(p, sink);
            } catch (Exception e) {
                throw new AssertionError("cut at " + cut + " threw " + e, e);
            }
            int whole = 0;
            long end = 0;
            int events = 0;
            for (int c = 0; c < chunks.size() && chunks.get(c)[1] <= cut; c++) {
                whole++;
                end = chunks.get(c)[1];
                events += complete.eventsPerChunk.get(c);
            }
            assertEquals(whole, r.chunks(), "chunks at cut " + cut);
            assertEquals(cut - end, r.bytesLost(), "bytes lost at cut " + cut);
            assertEquals(cut != end, r.truncated());
            assertEquals(complete.lines.subList(0, events), sink.lines, "events at cut " + cut);
            if (r.truncated()) {
                assertTrue(r.lostReason().contains("chunk " + whole), r.lostReason());
            }
        }
    }

    @Test
    void aSinkFailureIsRethrownUnchangedNotTakenForBadInput() {
        IllegalStateException thrown = new IllegalStateException("sink says no");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new JfrReader().read(recording, new JfrEventSink() {
                    @Override
                    public void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash,
                                              int bytecodeIndex, long sequence) {
                        throw thrown;
                    }
                }));
        assertEquals(thrown, e);
    }

    @Test
    void emptyFileIsAClearError() throws Exception {
        JfrFormatException e = assertThrows(JfrFormatException.class,
                () -> new JfrReader().read(write("empty.jfr", new byte[0]), new JfrEventSink() { }));
        assertTrue(e.getMessage().startsWith("Empty file"), e.getMessage());
    }

    @Test
    void randomGarbageIsNotAJfrFile() throws Exception {
        Random random = new Random(42);
        for (int size : new int[] {1, 3, 10, 68, 1000, 100_000}) {
            byte[] garbage = new byte[size];
            random.nextBytes(garbage);
            garbage[0] = 'X';
            JfrFormatException e = assertThrows(JfrFormatException.class,
                    () -> new JfrReader().read(write("garbage.jfr", garbage), new JfrEventSink() { }));
            assertTrue(e.getMessage().startsWith("Not a JFR file"), e.getMessage());
            assertTrue(e.getMessage().contains("offset 0"), e.getMessage());
        }
    }

    @Test
    void garbageAfterCompleteChunksNamesTheChunkAndOffset() throws Exception {
        byte[] withTail = Arrays.copyOf(bytes, bytes.length + 200);
        Arrays.fill(withTail, bytes.length, withTail.length, (byte) 0x5A);
        JfrFormatException e = assertThrows(JfrFormatException.class,
                () -> new JfrReader().read(write("tail.jfr", withTail), new JfrEventSink() { }));
        assertEquals(chunks.size(), e.chunkIndex());
        assertEquals(bytes.length, e.fileOffset());
        assertTrue(e.getMessage().contains("chunk " + chunks.size() + ", file offset " + bytes.length), e.getMessage());
    }

    /**
     * Flips bytes at seeded random places (in events, pools and metadata): every read either
     * succeeds or fails with a JfrFormatException that says where; none escapes as an unchecked
     * exception, none hangs, and none needs the generic safety net for an unchecked failure.
     */
    @Test
    void corruptedBytesGiveAnErrorThatSaysWhere() throws Exception {
        Random random = new Random(7);
        int failures = 0;
        List<String> safetyNet = new ArrayList<>();
        int flips = Integer.getInteger("minitrace.fuzz.flips", 600); // raise it to search harder
        for (int i = 0; i < flips; i++) {
            byte[] copy = bytes.clone();
            // Half of the flips land in a metadata event, where one byte changes the type system.
            long[] chunk = chunks.get(random.nextInt(chunks.size()));
            int metadataStart = (int) (chunk[0] + ChunkHeader.i8(bytes, (int) chunk[0] + 24));
            int at = i % 2 == 0
                    ? metadataStart + random.nextInt((int) chunk[1] - metadataStart)
                    : ChunkHeader.SIZE + random.nextInt(copy.length - ChunkHeader.SIZE);
            copy[at] = (byte) (i % 3 == 0 ? 0xFF : i % 3 == 1 ? 0x00 : random.nextInt(256));
            Path p = write("flip.jfr", copy);
            try {
                new JfrReader().read(p, new CanonicalEvents.Sink());
            } catch (JfrFormatException e) {
                failures++;
                assertTrue(e.getMessage().matches("(?s).*\\(chunk \\d+, file offset \\d+\\).*"), e.getMessage());
                if (e.getMessage().startsWith("Corrupt chunk: java.lang.")) {
                    safetyNet.add("flip at " + at + ": " + e.getMessage());
                }
            } catch (RuntimeException e) {
                fail("flip at " + at + " escaped as " + e, e);
            }
        }
        assertTrue(failures > 0, "some flips must be detected");
        assertEquals(List.of(), safetyNet);
    }
}
