package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The com.sun namespace is not the JDK's alone: JavaMail (from Maven Central) has its code in
 * com.sun.mail, traced like any other; the JDK's own com.sun code that the application loader
 * defines (javac, from the run-time image) is not.
 */
class ComSunIT {
    @Test
    void thirdPartyComSunCodeIsTracedAndTheJdksIsNot(@TempDir Path dir) throws Exception {
        List<Path> cp = new ArrayList<>(List.of(ChildJvm.TEST_CLASSES));
        cp.add(Path.of(com.sun.mail.util.BASE64EncoderStream.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        ChildJvm.Result plain = ChildJvm.start(dir, List.of(), cp, "fixture.mail.MailCodec").await();
        Path jfr = dir.resolve("mail.jfr");
        ChildJvm.Result traced = ChildJvm.start(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(jfr, null)), cp,
                "fixture.mail.MailCodec").await();
        assertEquals(0, plain.exitCode(), plain.stderr());
        assertEquals(0, traced.exitCode(), traced.stderr());
        assertEquals("TWluaVRyYWNl\nMiniTrace\njavac\n", plain.stdout());
        assertEquals(plain.stdout(), AgentSafetyIT.withoutJfrLog(traced.stdout()));
        assertFalse(traced.stderr().contains("minitrace:"), traced.stderr());

        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<Integer, String> names = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_DEFINITION)) {
                names.put(e.getInt("methodId"), e.getString("className") + "::" + e.getString("methodName"));
            }
        }
        assertFalse(names.values().stream().anyMatch(n -> n.startsWith("com.sun.tools.")), "javac is the JDK's: " + names.values());
        Map<String, Integer> entries = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_ENTRY)) {
                entries.merge(names.getOrDefault(e.getInt("methodId"), "?"), 1, Integer::sum);
            }
        }
        // encode(byte[]) calls an overload of the same name: two entries.
        assertEquals(2, entries.getOrDefault("com.sun.mail.util.BASE64EncoderStream::encode", 0), entries.toString());
        assertEquals(1, entries.getOrDefault("com.sun.mail.util.BASE64DecoderStream::decode", 0), entries.toString());
    }
}
