package dev.minitrace.converter.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.MethodCaptureEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureSummaryTest {
    @TempDir
    Path dir;

    /** Commits {@code calls} captures of {@code method}, every third one thrown. */
    private static void capture(String method, int calls) throws InterruptedException {
        for (int i = 0; i < calls; i++) {
            MethodCaptureEvent e = new MethodCaptureEvent();
            e.begin();
            Thread.sleep(1);
            e.methodId = 1;
            e.method = method;
            e.descriptor = "(I)I";
            e.arguments = "[" + i + "]";
            if (i % 3 == 2) {
                e.thrown = "java.lang.IllegalStateException: no";
            } else {
                e.returnValue = Integer.toString(i);
            }
            e.commit();
        }
    }

    @Test
    void countsCallsThrowsAndTheLongestCallPerMethod() throws Exception {
        Path jfr = dir.resolve("captures.jfr");
        try (Recording r = new Recording()) {
            r.enable(MethodCaptureEvent.class).withoutStackTrace();
            r.start();
            capture("com.acme.Shop::buy", 6);
            capture("com.acme.Shop::sell", 2);
            r.stop();
            r.dump(jfr);
        }
        CaptureSummary s = CaptureSummary.of(jfr);
        assertNull(s.problem());
        assertEquals(8, s.captures());
        StringWriter out = new StringWriter();
        s.print(new PrintWriter(out, true), 10);
        String[] lines = out.toString().split("\\R");
        assertTrue(lines[0].startsWith("method captures"), out.toString());
        // Most calls first; 2 of the 6 buy calls threw; the longest call per method as RecordingFile sees it.
        assertTrue(lines[1].startsWith("  6 2 ") && lines[1].endsWith(" com.acme.Shop::buy " + longest(jfr, "com.acme.Shop::buy")), lines[1]);
        assertTrue(lines[2].startsWith("  2 0 ") && lines[2].endsWith(" com.acme.Shop::sell " + longest(jfr, "com.acme.Shop::sell")), lines[2]);
        assertEquals(3, lines.length);
    }

    /** The arguments of the longest capture of {@code method}, read with RecordingFile (the oracle). */
    private static String longest(Path jfr, String method) throws Exception {
        String args = null;
        long max = -1;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(MethodCaptureEvent.NAME) && method.equals(e.getString("method"))
                    && e.getDuration().toNanos() > max) {
                max = e.getDuration().toNanos();
                args = e.getString("arguments");
            }
        }
        return args;
    }

    @Test
    void aRecordingWithoutCapturesPrintsNothing() throws Exception {
        Path jfr = dir.resolve("none.jfr");
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
            r.dump(jfr);
        }
        CaptureSummary s = CaptureSummary.of(jfr);
        assertEquals(0, s.captures());
        StringWriter out = new StringWriter();
        s.print(new PrintWriter(out, true), 10);
        assertEquals("", out.toString());
    }

    @Test
    void aRecordingCutInItsOnlyChunkGivesNoCapturesAndAProblem() throws Exception {
        Path jfr = dir.resolve("whole.jfr");
        try (Recording r = new Recording()) {
            r.enable(MethodCaptureEvent.class).withoutStackTrace();
            r.start();
            capture("com.acme.Shop::buy", 3);
            r.stop();
            r.dump(jfr);
        }
        byte[] bytes = Files.readAllBytes(jfr);
        Path cut = dir.resolve("cut.jfr");
        // EventStream itself ends quietly at most cut points (which ones depends on the JVM's
        // registered event types): several points, each must be noted.
        for (int quarter = 1; quarter <= 3; quarter++) {
            Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * quarter / 4));
            CaptureSummary s = CaptureSummary.of(cut);
            // The only chunk is cut, so nothing is complete: no captures, and the reason is kept, not thrown.
            assertEquals(0, s.captures());
            assertTrue(s.problem() != null, "a cut recording is noted as a problem (cut at " + quarter + "/4)");
        }
    }
}
