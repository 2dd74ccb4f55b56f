package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code capture=}: a child JVM runs fixture.capture.Calls once; every captured call gives one
 * minitrace.MethodCapture event with its receiver, arguments, result or exception and stack trace.
 */
class CaptureIT {

    @Test
    void everyCapturedCallIsRecordedWithItsValues(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("capture.jfr");
        Path settings = ChildJvm.TEST_CLASSES.resolve("capture-test.jfc");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent("include=fixture.capture.Calls::main,capture=fixture.capture.Calls"),
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + settings), "fixture.capture.Calls");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().endsWith("sum 1099511627994\n"), "the program's own result is unchanged: " + r.stdout());
        assertEquals("", r.stderr());

        List<String> calls = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals(EventNames.METHOD_CAPTURE)) {
                continue;
            }
            String method = e.getString("method");
            calls.add(method.substring(method.indexOf("::") + 2) + e.getString("descriptor") + " this=" + e.getString("receiver")
                    + " args=" + e.getString("arguments") + " -> " + e.getString("returnValue") + " ! " + e.getString("thrown"));
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            int own = 0;
            while (frames.get(own).getMethod().getType().getName().startsWith("dev.minitrace.injector.runtime.")) {
                own++;
            }
            assertEquals(2, own, "the hook's two frames on top");
            assertEquals(method.substring(method.indexOf("::") + 2), frames.get(own).getMethod().getName(), "then the captured method");
            assertTrue(e.getDuration().toNanos() >= 0);
        }
        String bigX = "x".repeat(256) + "... (1000 chars)";
        assertEquals(List.of(
                "primitives(ZBCSIJFD)J this=Calls(c1) args=true, 7, x, -3, 42, 1099511627776, 1.5, 2.25 -> 1099511627818 ! null",
                "flag(Z)Z this=null args=false -> true ! null",
                "letter(C)C this=null args=q -> q ! null",
                "half(D)D this=null args=5.0 -> 2.5 ! null",
                "third(F)F this=null args=9.0 -> 3.0 ! null",
                "nothing(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object; this=null args=null, null -> null ! null",
                "arrays([I[Ljava/lang/String;[J[[Ljava/lang/Object;)I this=null args=[1, 2, 3], [a, null], "
                        + "[9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, ... (40 elements)], [java.lang.Object[1], null] -> 47 ! null",
                "objects(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/String; this=null"
                        + " args=<fixture.capture.Calls$Throwing.toString() threw java.lang.UnsupportedOperationException>,"
                        + " <fixture.capture.Calls$Recursing.toString() threw java.lang.StackOverflowError>, " + bigX + " -> done ! null",
                // The captured flag(true) called by Reentrant.toString is not captured itself.
                "objects(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/String; this=null"
                        + " args=reentrant false, null,  -> done ! null",
                "fails(Ljava/lang/String;)V this=null args=on purpose -> null ! java.lang.IllegalStateException: on purpose",
                "main([Ljava/lang/String;)V this=null args=[] -> void ! null"), sorted(calls));
    }

    /** Events in the order the calls ended (main last); JFR's file order is not that order. */
    private static List<String> sorted(List<String> calls) {
        List<String> order = List.of("primitives", "flag", "letter", "half", "third", "nothing", "arrays", "objects", "fails", "main");
        List<String> out = new ArrayList<>(calls);
        out.sort((a, b) -> Integer.compare(order.indexOf(a.substring(0, a.indexOf('('))), order.indexOf(b.substring(0, b.indexOf('(')))));
        return out;
    }

    @Test
    void withoutARecordingThatEnablesCaptureNothingIsRenderedOrRecordedAndTheAgentSaysSoOnce(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("plain.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent("capture=fixture.capture.Calls"), ChildJvm.recording(jfr, null)),
                "fixture.capture.Calls");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().endsWith("sum 1099511627994\n"), r.stdout());
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            assertNull(e.getEventType().getName().equals(EventNames.METHOD_CAPTURE) ? e : null, "no capture event");
        }
        assertEquals(List.of("minitrace: capture= names methods, but no running recording enables minitrace.MethodCapture,"
                + " so nothing is captured: record with jfc-profiles/minitrace.jfc or add +minitrace.MethodCapture#enabled=true"),
                r.stderrLines());
    }

    /** The profiles users are told to use, as shipped (the module runs with its own folder as the working directory). */
    static Path shippedProfile(String name) {
        return Path.of("..", "jfc-profiles", name).toAbsolutePath().normalize();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"minitrace.jfc", "minitrace-light.jfc"})
    void captureWorksWithTheShippedProfilesAsTheyAre(String profile, @TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("shipped.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent("include=fixture.capture.Calls::main,capture=fixture.capture.Calls"),
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + shippedProfile(profile)), "fixture.capture.Calls");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().endsWith("sum 1099511627994\n"), r.stdout());
        assertEquals("", r.stderr(), "no warning: the profile enables the event");
        List<String> methods = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(EventNames.METHOD_CAPTURE)) {
                String method = e.getString("method");
                methods.add(method.substring(method.indexOf("::") + 2));
                assertTrue(e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty(), "with its stack trace");
            }
        }
        methods.sort(null);
        assertEquals(List.of("arrays", "fails", "flag", "half", "letter", "main", "nothing", "objects", "objects", "primitives",
                "third"), methods);
    }
}
