package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jcmd JFR.dump} of a running traced program (whole, with begin/end, and after chunk
 * rotation and a maxsize cut) gives recordings whose every chunk resolves its own method ids.
 */
class JfrDumpIT {

    private static ChildJvm.Running startLinger(Path dir, String recordingOptions, String burst, String... jvmArgs)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(jvmArgs));
        args.add(ChildJvm.agent("include=fixture.workload.*"));
        args.add("-XX:StartFlightRecording:name=mt,settings=" + ChildJvm.SETTINGS + recordingOptions);
        return ChildJvm.start(dir, args, List.of(ChildJvm.TEST_CLASSES), "fixture.workload.Linger",
                dir.resolve("ready").toString(), dir.resolve("stop").toString(), burst);
    }

    private static void awaitReady(Path dir, ChildJvm.Running child) throws Exception {
        Path ready = dir.resolve("ready");
        // Waits for a condition, not for a duration: the bound only stops a hung child.
        for (int i = 0; i < 6000 && !Files.exists(ready); i++) {
            if (!child.process.isAlive()) {
                throw new IllegalStateException("child exited early: " + Files.readString(child.err));
            }
            Thread.sleep(50);
        }
        assertTrue(Files.exists(ready), "child never got ready");
    }

    private static void jcmd(long pid, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.jcmd(), Long.toString(pid)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "jcmd hung");
        assertEquals(0, p.exitValue(), "jcmd " + cmd + ": " + out);
    }

    private static long depthEntries(Path jfr) throws Exception {
        long n = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(EventNames.METHOD_ENTRY)) {
                n++;
            }
        }
        return n;
    }

    private static void stop(Path dir, ChildJvm.Running child) throws Exception {
        Files.writeString(dir.resolve("stop"), "stop");
        ChildJvm.Result r = child.await();
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @Test
    void dumpsOfARunningProgramResolveTheirIds(@TempDir Path dir) throws Exception {
        ChildJvm.Running child = startLinger(dir, "", "1");
        try {
            awaitReady(dir, child);
            long pid = child.process.pid();
            Path whole = dir.resolve("whole.jfr");
            Path window = dir.resolve("window.jfr");
            Path again = dir.resolve("again.jfr");
            jcmd(pid, "JFR.dump", "name=mt", "filename=" + whole);
            // begin/end select whole chunks (JDK 17 and 25 alike); the window covers the whole run.
            jcmd(pid, "JFR.dump", "name=mt", "filename=" + window, "begin=-1h",
                    "end=" + java.time.Instant.now().plusSeconds(3600));
            jcmd(pid, "JFR.dump", "name=mt", "filename=" + again);
            for (Path p : List.of(whole, window, again)) {
                assertTrue(depthEntries(p) > 0, "no method events in " + p.getFileName());
                assertTrue(Recordings.assertIdsResolvePerChunk(p, dir) > 0);
            }
            assertTrue(Recordings.chunks(again, dir).size() >= 2, "each dump rotates a chunk");
        } finally {
            stop(dir, child);
        }
    }

    @Test
    void everyChunkOfARotatedRecordingResolvesItsIdsOnItsOwn(@TempDir Path dir) throws Exception {
        // Each JFR.dump rotates the chunk; a busy child fills each one. Every chunk is then checked
        // as a recording of its own, which is what is left when maxsize or maxage drop older chunks.
        // Chunks are rotated by the dumps alone: at the default 12 MB the busy child's chunks also
        // rotate by size, and a size rotation just before a dump's leaves a chunk of a few
        // milliseconds that may hold none of the child's events (seen in CI: it was descheduled).
        // The four chunks hold 190-210 MB on this child; past the 250 MB a recording keeps when
        // it sets neither maxsize nor maxage, the oldest would be dropped (seen in CI on JDK 25).
        ChildJvm.Running child = startLinger(dir, ",maxsize=4g", "200000", "-XX:FlightRecorderOptions:maxchunksize=1g");
        try {
            awaitReady(dir, child);
            long pid = child.process.pid();
            for (int i = 0; i < 3; i++) {
                jcmd(pid, "JFR.dump", "name=mt", "filename=" + dir.resolve("rotate" + i + ".jfr"));
            }
            Path cut = dir.resolve("cut.jfr");
            jcmd(pid, "JFR.dump", "name=mt", "filename=" + cut);
            List<Path> chunks = Recordings.chunks(cut, dir);
            List<Long> sizes = new ArrayList<>();
            for (Path chunk : chunks) {
                sizes.add(Files.size(chunk));
            }
            assertTrue(chunks.size() >= 4, "expected a chunk per rotation, got " + chunks.size() + " of " + sizes + " bytes");
            assertTrue(Recordings.assertIdsResolvePerChunk(cut, dir) > 0);
            for (Path chunk : chunks.subList(1, chunks.size())) {
                assertTrue(depthEntries(chunk) > 0, "a later chunk without method events: " + chunk.getFileName());
            }
        } finally {
            stop(dir, child);
        }
    }

    @Test
    void aRecordingStartedLaterWithJcmdTurnsTracingOn(@TempDir Path dir) throws Exception {
        List<String> args = List.of(ChildJvm.agent("include=fixture.workload.*"));
        ChildJvm.Running child = ChildJvm.start(dir, args, List.of(ChildJvm.TEST_CLASSES), "fixture.workload.Linger",
                dir.resolve("ready").toString(), dir.resolve("stop").toString(), "1");
        try {
            awaitReady(dir, child);
            long pid = child.process.pid();
            jcmd(pid, "JFR.start", "name=late", "settings=" + ChildJvm.SETTINGS);
            Path first = dir.resolve("late1.jfr");
            jcmd(pid, "JFR.dump", "name=late", "filename=" + first);
            Path late = dir.resolve("late.jfr");
            // Dump until the running program has produced traced calls under the new recording.
            for (int i = 0; i < 600 && (!Files.exists(late) || depthEntries(late) == 0); i++) {
                Thread.sleep(100);
                jcmd(pid, "JFR.dump", "name=late", "filename=" + late);
            }
            assertTrue(depthEntries(late) > 0, "no method events after JFR.start");
            assertTrue(Recordings.assertIdsResolvePerChunk(late, dir) > 0);
        } finally {
            stop(dir, child);
        }
    }
}
