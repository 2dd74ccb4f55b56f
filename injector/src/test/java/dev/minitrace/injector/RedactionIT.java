package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code redact=}: a child JVM hands fixture.capture.Secrets' secrets to captured methods, with
 * the shipped profile; no secret's text is anywhere in the raw recording, in any of the encodings
 * JFR uses for strings, and the fields read {@code <redacted>}. The same run without rules finds
 * every secret with the same search, so the search itself is shown to work.
 */
class RedactionIT {
    /** The secrets fixture.capture.Secrets builds, each caught by another rule. */
    private static final Map<String, String> SECRETS = Map.of(
            "password (default rule name:*password*)", "hunter2PwSecret",
            "pin (position rule Secrets::pin#2)", "987654",
            "card (type rule, also as a receiver)", "4111 2222 3333",
            "note (value rule with an escaped comma)", "5555-0199",
            // As a capture renders a char[]; its plain text is checked in the redacted run too.
            "char[] (default type rule)", "o, p, e, n, S, e, s, a, m, e, 7, 7",
            "returned token (value rule)", "tok-ALICEVISIBLEQZX42");
    /** A value no rule hides: the search must find it. */
    private static final String VISIBLE = "aliceVisible";

    private static final String RULES = "redact=fixture.capture.Secrets::pin#2;type:fixture.capture.Secrets$Card;"
            + "value:\\d{4\\,}-\\d{4};value:tok-[A-Z]+QZX";

    private static Path record(Path dir, String redact) throws Exception {
        Path jfr = dir.resolve("secrets.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(
                ChildJvm.agent("include=fixture.capture.Secrets::main,capture=fixture.capture.Secrets" + (redact.isEmpty() ? "" : "," + redact)),
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + CaptureIT.shippedProfile("minitrace.jfc")),
                "fixture.capture.Secrets");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("", r.stderr());
        assertTrue(r.stdout().endsWith("sum 41\n"), "the program's own result is unchanged: " + r.stdout());
        return jfr;
    }

    @Test
    void noRedactedValueReachesTheRecording(@TempDir Path dir) throws Exception {
        Path jfr = record(dir, RULES);
        byte[] raw = Files.readAllBytes(jfr);
        assertTrue(contains(raw, VISIBLE), "the search finds an unredacted argument");
        for (Map.Entry<String, String> s : SECRETS.entrySet()) {
            assertFalse(contains(raw, s.getValue()), s.getKey() + ": '" + s.getValue() + "' is in the raw recording");
        }
        assertFalse(contains(raw, "openSesame77"));

        Map<String, String> calls = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(EventNames.METHOD_CAPTURE)) {
                String method = e.getString("method");
                calls.put(method.substring(method.lastIndexOf('.') + 1), "this=" + e.getString("receiver")
                        + " args=" + e.getString("arguments") + " -> " + e.getString("returnValue"));
            }
        }
        assertEquals("this=null args=aliceVisible, <redacted> -> true", calls.get("Secrets::login"));
        assertEquals("this=null args=aliceVisible, <redacted> -> " + (987654 % 7), calls.get("Secrets::pin"));
        assertEquals("this=<redacted> args=1 -> 1", calls.get("Secrets$Card::charge"));
        assertEquals("this=null args=<redacted>, <redacted> -> 18 1", calls.get("Secrets::pay"));
        assertEquals("this=null args=<redacted> -> 12", calls.get("Secrets::unlock"));
        assertEquals("this=null args=aliceVisible -> <redacted>", calls.get("Secrets::issue"));
    }

    @Test
    void withoutRulesTheSameSearchFindsEverySecret(@TempDir Path dir) throws Exception {
        byte[] raw = Files.readAllBytes(record(dir, "redact=nodefaults"));
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, String> s : SECRETS.entrySet()) {
            if (!contains(raw, s.getValue())) {
                missing.add(s.getKey());
            }
        }
        assertEquals(List.of(), missing, "secrets an unredacted capture writes");
    }

    /**
     * Whether {@code text} occurs in {@code raw} as JFR may store a string: UTF-8 or Latin-1
     * bytes, or UTF-16 chars in either byte order (JFR's char arrays write each char as a varint,
     * which for these ASCII texts is the Latin-1 byte).
     */
    static boolean contains(byte[] raw, String text) {
        for (byte[] form : new byte[][] {text.getBytes(StandardCharsets.UTF_8), text.getBytes(StandardCharsets.ISO_8859_1),
                text.getBytes(StandardCharsets.UTF_16BE), text.getBytes(StandardCharsets.UTF_16LE)}) {
            if (indexOf(raw, form) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] raw, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= raw.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (raw[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
