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
 * gives, in the same order; also with the chunk prefetcher on.
 */
class MethodBufferEnginesTest {
    @TempDir
    static Path dir;
    static MethodBufferRecordings.Traced traced;

    @BeforeAll
    static void record() throws Exception {
        traced = MethodBufferRecordings.record(dir.resolve("buffers.jfr"), 3, 12);
    }

    private static CapturingSink read(RecordingSource engine) throws Exception {
        CapturingSink sink = new CapturingSink();
        List<RecordingSource.ChunkFailure> failures = engine.read(JfrChunks.scan(traced.file()), sink);
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
    void thePrefetcherDeliversTheSame() throws Exception {
        CapturingSink direct = read(new FastRecordingSource());
        String old = System.getProperty("minitrace.prefetchChunkBytes");
        System.setProperty("minitrace.prefetchChunkBytes", Long.toString(1L << 30));
        try {
            CapturingSink prefetched = read(new FastRecordingSource());
            assertEquals(direct.methodEvents, prefetched.methodEvents);
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
