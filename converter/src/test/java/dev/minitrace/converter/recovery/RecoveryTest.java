package dev.minitrace.converter.recovery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.fast.ChunkHeader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import jdk.jfr.Event;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {
    @TempDir
    Path dir;

    static final class Tick extends Event {
        int n;
    }

    /** A real recording of two chunks, made by this JVM's JFR. */
    private Path recording() throws Exception {
        Path file = dir.resolve("two-chunks.jfr");
        try (Recording r = new Recording()) {
            r.enable(Tick.class);
            r.start();
            for (int i = 0; i < 100; i++) {
                Tick t = new Tick();
                t.n = i;
                t.commit();
            }
            try (Recording rotate = new Recording()) {
                rotate.start(); // a second recording starting ends the chunk
            }
            for (int i = 0; i < 100; i++) {
                new Tick().commit();
            }
            r.stop();
            r.dump(file);
        }
        return file;
    }

    @Test
    void onlyAWholeRecordingIsComplete() throws Exception {
        Path whole = recording();
        assertTrue(Recovery.complete(whole), "JFR's own dump");

        Path empty = Files.createFile(dir.resolve("empty.jfr"));
        assertFalse(Recovery.complete(empty), "what JFR leaves when the JVM dies before it dumps");
        assertFalse(Recovery.complete(dir.resolve("missing.jfr")));

        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.jfr");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 1));
        assertFalse(Recovery.complete(cut), "one byte short");

        Path longer = dir.resolve("longer.jfr");
        Files.write(longer, java.util.Arrays.copyOf(bytes, bytes.length + 10));
        assertFalse(Recovery.complete(longer), "bytes after the last chunk");

        Path unfinished = dir.resolve("unfinished.jfr");
        Files.write(unfinished, bytes);
        try (FileChannel ch = FileChannel.open(unfinished, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1}), ChunkHeader.STATE_OFFSET); // the first chunk still being written
        }
        assertFalse(Recovery.complete(unfinished));
    }
}
