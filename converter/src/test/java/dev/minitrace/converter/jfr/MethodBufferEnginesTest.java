package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.MethodBufferRecordings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both engines deliver every record of every {@code minitrace.MethodBuffer} event as a method event
 * of its traced thread, with the sequence and the time to the nanosecond that docs/trace-buffer.md
 * gives, in the same order; also with the chunk prefetcher on. Object records likewise, as object
 * events with the agent's class keys, and {@code minitrace.ClassDefinition} as class declarations.
 */
class MethodBufferEnginesTest {
    @TempDir
    static Path dir;
    static MethodBufferRecordings.Traced traced;
    static MethodBufferRecordings.Traced objects;

    @BeforeAll
    static void record() throws Exception {
        traced = MethodBufferRecordings.record(dir.resolve("buffers.jfr"), 3, 12);
        objects = MethodBufferRecordings.record(dir.resolve("objects.jfr"), 3, 12, true);
    }

    private static CapturingSink read(RecordingSource engine) throws Exception {
        return read(engine, traced);
    }

    private static CapturingSink read(RecordingSource engine, MethodBufferRecordings.Traced t) throws Exception {
        CapturingSink sink = new CapturingSink();
        List<RecordingSource.ChunkFailure> failures = engine.read(JfrChunks.scan(t.file()), sink);
        assertEquals(List.of(), failures);
        assertEquals(List.of(), sink.corrupt);
        return sink;
    }

    private static List<String> sorted(List<String> lines) {
        List<String> s = new ArrayList<>(lines);
        Collections.sort(s);
        return s;
    }

    @Test
    void bothEnginesDeliverTheExactRecordsWithTheirTimes() throws Exception {
        CapturingSink oracle = read(new RecordingFileSource());
        CapturingSink fast = read(new FastRecordingSource());
        assertEquals(sorted(traced.methodEvents()), sorted(oracle.methodEvents));
        assertEquals(oracle.methodEvents, fast.methodEvents);
        assertEquals(traced.methodRecords(), fast.methodEvents.size());
    }

    @Test
    void bothEnginesDeliverObjectRecordsAndClassDefinitionsAlike() throws Exception {
        CapturingSink oracle = read(new RecordingFileSource(), objects);
        CapturingSink fast = read(new FastRecordingSource(), objects);
        assertEquals(sorted(objects.methodEvents()), sorted(oracle.methodEvents));
        assertEquals(oracle.methodEvents, fast.methodEvents);
        assertEquals(oracle.objectEvents, fast.objectEvents);
        assertEquals(oracle.classes, fast.classes);
        assertEquals(3 * 2 * 12 * 3, fast.objectEvents.size(), "an allocation and a lock pair per round");
        String intArray = Long.toHexString(RecordingSink.agentClassKey(1));
        String object = Long.toHexString(RecordingSink.agentClassKey(4097));
        assertEquals(List.of(intArray + " [I", object + " java.lang.Object", intArray + " [I", object + " java.lang.Object"),
                fast.classes, "each chunk's definitions, in the agent's key space");
        for (String e : fast.objectEvents) {
            String key = e.split(" ")[4];
            assertTrue(key.equals(intArray) || key.equals(object), e);
        }
    }

    @Test
    void thePrefetcherDeliversTheSame() throws Exception {
        CapturingSink direct = read(new FastRecordingSource());
        CapturingSink directObjects = read(new FastRecordingSource(), objects);
        String old = System.getProperty("minitrace.prefetchChunkBytes");
        System.setProperty("minitrace.prefetchChunkBytes", Long.toString(1L << 30));
        try {
            CapturingSink prefetched = read(new FastRecordingSource());
            assertEquals(direct.methodEvents, prefetched.methodEvents);
            CapturingSink prefetchedObjects = read(new FastRecordingSource(), objects);
            assertEquals(directObjects.methodEvents, prefetchedObjects.methodEvents);
            assertEquals(directObjects.objectEvents, prefetchedObjects.objectEvents);
            assertEquals(directObjects.classes, prefetchedObjects.classes);
            assertTrue(directObjects.objectEvents.size() > 0);
            assertTrue(JfrChunks.scan(traced.file()).chunks().size() >= 2, "a chunk was parsed ahead");
        } finally {
            if (old == null) {
                System.clearProperty("minitrace.prefetchChunkBytes");
            } else {
                System.setProperty("minitrace.prefetchChunkBytes", old);
            }
        }
    }
}
