package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.IMCThread;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/** The fast reader against the two independent oracles, RecordingFile and JMC's parser. */
class JfrReaderTest {
    @TempDir
    static Path dir;
    static Path multiChunk;
    static Path singleChunk;
    static Path concatenated;

    @BeforeAll
    static void record() throws Exception {
        multiChunk = TestRecordings.multiChunk(dir, "multi.jfr", 4, 600);
        singleChunk = TestRecordings.singleChunk(dir, "single.jfr", 3, 300);
        concatenated = TestRecordings.concatenate(dir.resolve("concat.jfr"), multiChunk, singleChunk);
    }

    static CanonicalEvents.Sink readFast(Path file) throws IOException {
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        ReadResult result = new JfrReader().read(file, sink);
        assertEquals(0, result.bytesLost(), "nothing lost in " + file);
        assertFalse(result.truncated());
        assertEquals(sink.lines.size(), result.events());
        return sink;
    }

    static void assertSameLines(List<String> expected, List<String> actual) {
        assertEquals(expected.size(), actual.size(), "event count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "event " + i);
        }
    }

    @Test
    void eachDecoderDecodesAsRecordingFile() throws Exception {
        for (Path file : List.of(multiChunk, concatenated)) {
            CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
            JfrReader reader = new JfrReader();
            reader.read(file, sink);
            for (JfrEventKind k : List.of(JfrEventKind.METHOD_ENTRY, JfrEventKind.METHOD_EXIT, JfrEventKind.LOCK_ACQUIRE,
                    JfrEventKind.LOCK_RELEASE, JfrEventKind.OBJECT_ALLOC)) {
                assertEquals(ChunkParser.Decoder.TRACE_LAYOUT, reader.parser().decoderOf(k), k.name());
            }
            assertEquals(ChunkParser.Decoder.PLAN, reader.parser().decoderOf(JfrEventKind.METHOD_BUFFER), "strings: the op plan");
            // the JDK's thread events are constant-pool keys only: the flat loop, checked against RecordingFile too
            assertEquals(ChunkParser.Decoder.FLAT, reader.parser().decoderOf(JfrEventKind.THREAD_START));
            assertSameLines(CanonicalEvents.fromRecordingFile(file), sink.lines);
        }
    }

    @Test
    void multiChunkRecordingDecodesExactlyAsRecordingFile() throws Exception {
        CanonicalEvents.Sink sink = readFast(multiChunk);
        assertSameLines(CanonicalEvents.fromRecordingFile(multiChunk), sink.lines);
        assertTrue(sink.eventsPerChunk.size() >= 3, "chunks: " + sink.eventsPerChunk);
        Map<String, Integer> perType = countByType(sink.lines);
        // The recording holds every kind the test made: the comparison above is not vacuous.
        for (String type : List.of("minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.LockAcquire",
                "minitrace.LockRelease", "minitrace.ObjectAlloc", "minitrace.MethodDefinition",
                "jdk.GarbageCollection", "jdk.GCPhasePause", "jdk.ThreadStart", "jdk.ThreadEnd")) {
            assertTrue(perType.getOrDefault(type, 0) > 0, type + " in " + perType);
        }
        assertTrue(perType.get("minitrace.MethodEntry") >= 4 * 600 * 3, perType.toString());
        if (Runtime.version().feature() >= 21) {
            // Events committed on a virtual thread carry its own thread, flagged virtual.
            assertTrue(sink.lines.stream().anyMatch(l -> l.startsWith("minitrace.MethodEntry|") && l.contains("/virtual|")),
                    "a virtual thread's events");
        }
    }

    @Test
    void concatenatedRecordingsDecodeExactlyAsRecordingFile() throws Exception {
        CanonicalEvents.Sink sink = readFast(concatenated);
        assertSameLines(CanonicalEvents.fromRecordingFile(concatenated), sink.lines);
        assertEquals(readFast(multiChunk).eventsPerChunk.size() + readFast(singleChunk).eventsPerChunk.size(),
                sink.eventsPerChunk.size());
    }

    @Test
    void perChunkTimeBaseEqualsRecordingFileOnEachChunkAlone() throws Exception {
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        new JfrReader().timeBase(TimeBase.PER_CHUNK).read(concatenated, sink);
        List<long[]> chunks = chunkBounds(concatenated);
        byte[] all = Files.readAllBytes(concatenated);
        int from = 0;
        for (int i = 0; i < chunks.size(); i++) {
            Path alone = dir.resolve("chunk" + i + ".jfr");
            Files.write(alone, java.util.Arrays.copyOfRange(all, (int) chunks.get(i)[0], (int) chunks.get(i)[1]));
            int n = sink.eventsPerChunk.get(i);
            assertSameLines(CanonicalEvents.fromRecordingFile(alone), sink.lines.subList(from, from + n));
            from += n;
        }
        assertEquals(sink.lines.size(), from);
    }

    @Test
    void tinyEventWindowsGiveTheSameEvents() throws Exception {
        List<String> expected = readFast(multiChunk).lines;
        for (int window : new int[] {1, 17, 100, 4096}) {
            CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
            new JfrReader().windowSize(window).read(multiChunk, sink);
            assertSameLines(expected, sink.lines);
        }
    }

    @Test
    void selectedKindsOnlyAreDelivered() throws Exception {
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        new JfrReader(EnumSet.of(JfrEventKind.METHOD_EXIT, JfrEventKind.OBJECT_ALLOC)).read(multiChunk, sink);
        List<String> expected = new ArrayList<>();
        for (String line : CanonicalEvents.fromRecordingFile(multiChunk)) {
            if (line.startsWith("minitrace.MethodExit|") || line.startsWith("minitrace.ObjectAlloc|")) {
                expected.add(line);
            }
        }
        assertSameLines(expected, sink.lines);
    }

    @Test
    void countsPerTypeAndThreadEqualJmc() throws Exception {
        for (Path file : List.of(multiChunk, concatenated)) {
            Map<String, Long> fast = new TreeMap<>();
            for (String line : readFast(file).lines) {
                String[] parts = line.split("\\|");
                String thread = parts[0].equals("jdk.DataLoss") || parts[1].equals("none")
                        ? "none" : parts[1].split("/")[0];
                fast.merge(parts[0] + " @" + thread, 1L, Long::sum);
            }
            IItemCollection items = JfrLoaderToolkit.loadEvents(file.toFile());
            Map<String, Long> jmc = new TreeMap<>();
            for (IItemIterable iterable : items) {
                String type = iterable.getType().getIdentifier();
                if (!CanonicalEvents.TYPES.contains(type)) {
                    continue;
                }
                IMemberAccessor<IMCThread, IItem> threadAccessor =
                        JfrAttributes.EVENT_THREAD.getAccessor(iterable.getType());
                for (IItem item : iterable) {
                    IMCThread t = threadAccessor == null ? null : threadAccessor.getMember(item);
                    String thread = t == null ? "none"
                            : t.getThreadId() == null || t.getThreadId() == 0 ? "-1" : t.getThreadId().toString();
                    jmc.merge(type + " @" + thread, 1L, Long::sum);
                }
            }
            assertEquals(jmc, fast, "counts per type and thread in " + file.getFileName());
        }
    }

    @Test
    void threadTableResolvesEveryEventThread() throws Exception {
        List<String> unresolved = new ArrayList<>();
        new JfrReader().read(multiChunk, new JfrEventSink() {
            ChunkConstants constants;

            @Override
            public void onChunkStart(ChunkHeader header, ChunkConstants c) {
                constants = c;
                assertTrue(c.threadCount() > 0);
                for (int i = 0; i < c.threadCount(); i++) {
                    assertTrue(c.hasThread(c.threadRefAt(i)));
                }
            }

            @Override
            public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
                String name = constants.threadJavaName(threadRef);
                if (name == null || !name.startsWith("mt-test-") && !constants.threadVirtual(threadRef)) {
                    unresolved.add(threadRef + "=" + name);
                }
            }
        });
        assertEquals(List.of(), unresolved);
    }

    static Map<String, Integer> countByType(List<String> lines) {
        Map<String, Integer> m = new TreeMap<>();
        for (String line : lines) {
            m.merge(line.substring(0, line.indexOf('|')), 1, Integer::sum);
        }
        return m;
    }

    /** [start, end) of every chunk, from the chunk headers. */
    static List<long[]> chunkBounds(Path file) throws IOException {
        List<long[]> out = new ArrayList<>();
        new JfrReader(EnumSet.noneOf(JfrEventKind.class)).read(file, new JfrEventSink() {
            @Override
            public void onChunkStart(ChunkHeader header, ChunkConstants constants) {
                assertNotNull(constants);
                out.add(new long[] {header.fileOffset(), header.fileOffset() + header.size()});
            }
        });
        return out;
    }
}
