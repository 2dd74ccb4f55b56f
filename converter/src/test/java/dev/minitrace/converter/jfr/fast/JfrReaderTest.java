package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrReaderTest {
    @TempDir
    static Path dir;
    static Path multiChunk;

    @BeforeAll
    static void record() throws Exception {
        multiChunk = TestRecordings.multiChunk(dir, "multi.jfr", 4, 600);
    }

    @Test
    void everyDecodedEventEqualsRecordingFile() throws Exception {
        List<String> expected = CanonicalEvents.fromRecordingFile(multiChunk);
        CanonicalEvents.Sink sink = new CanonicalEvents.Sink();
        ReadResult result = new JfrReader().read(multiChunk, sink);
        assertEquals(expected.size(), sink.lines.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), sink.lines.get(i), "event " + i);
        }
        assertTrue(result.chunks() >= 3, "chunks: " + result.chunks());
        assertEquals(0, result.bytesLost());
    }
}
