package dev.minitrace.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real child JVM records as the benchmarks have it record; the recording is found, measured, kept and removed. */
class RecordingPlaceTest {
    @TempDir
    Path dir;

    @Test
    void theRecordingOfThisJdksChildIsFoundKeptAsOneFileAndRemoved() throws Exception {
        int feature = Runtime.version().feature();
        RecordingPlace place = RecordingPlace.of(feature);
        checkPlace(place, feature >= 21);
    }

    @Test
    void aFileAtExitOnEveryJdk() throws Exception {
        checkPlace(RecordingPlace.file(Runtime.version().feature()), false);
    }

    private void checkPlace(RecordingPlace place, boolean inRepository) throws Exception {
        Path stem = dir.resolve("run.jfr");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // small chunks, so that the repository holds several chunk files to put together
        cmd.addAll(place.options("t", "default", stem).stream()
                .map(o -> o.startsWith("-XX:FlightRecorderOptions") ? o.replace("maxchunksize=64m", "maxchunksize=1m") : o)
                .toList());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Busy.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child finished");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("child.log")));

        Path recording = place.recording(stem);
        assertNotNull(recording, "recording found");
        assertEquals(inRepository, Files.isDirectory(recording), recording.toString());
        long bytes = RecordingPlace.bytes(recording);
        assertTrue(bytes > 0);
        Path kept = dir.resolve("kept.jfr");
        RecordingPlace.keep(recording, kept);
        assertEquals(bytes, Files.size(kept));
        long events = countEvents(kept);
        assertTrue(events > 0, "the kept file reads as a recording");
        if (inRepository) {
            long inChunks = 0;
            for (Path chunk : dev.minitrace.converter.recovery.RecordingRepository.chunkFiles(recording)) {
                inChunks += countEvents(chunk);
            }
            assertEquals(inChunks, events, "the kept file holds every chunk file's events");
        }
        RecordingPlace.delete(stem);
        assertFalse(Files.exists(stem));
    }

    private static long countEvents(Path file) throws IOException {
        long n = 0;
        try (RecordingFile f = new RecordingFile(file)) {
            while (f.hasMoreEvents()) {
                f.readEvent();
                n++;
            }
        }
        return n;
    }

    /** The child: a little work, so that JFR writes some events. */
    public static final class Busy {
        public static void main(String[] args) throws Exception {
            long x = 0;
            for (int i = 0; i < 2_000; i++) {
                x += new StringBuilder().append(i).toString().hashCode();
                new Thread(() -> { }).start();
            }
            System.out.println(x);
        }
    }
}
