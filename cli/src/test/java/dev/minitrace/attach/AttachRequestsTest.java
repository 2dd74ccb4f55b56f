package dev.minitrace.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The requests mt sends to the agent, durations, and the target's Java version check. */
class AttachRequestsTest {
    @Test
    void startRequestCarriesOneKeyPerLine() {
        String r = AttachRequests.start("include=a.*", Path.of("/p/x.jfc"), Path.of("/o/t.jfr"), Duration.ofSeconds(3));
        assertEquals("cmd=start\noptions=include=a.*\njfc=/p/x.jfc\nout=/o/t.jfr\nduration=3000\n", r);
        assertEquals("cmd=stop\n", AttachRequests.stop());
    }

    @Test
    void agentOptionsJoinFiltersAndKinds() {
        assertEquals("include=a.*;b.C,events=method+lock,capture=b.C::m",
                AttachRequests.agentOptions(List.of("a.*", "b.C"), List.of(), List.of("method", "lock"), List.of("b.C::m")));
        assertEquals("", AttachRequests.agentOptions(List.of(), List.of(), List.of(), List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AttachRequests.agentOptions(List.of("a.B,c.D"), List.of(), List.of(), List.of()));
        assertTrue(e.getMessage().contains("use ';'"), e.getMessage());
    }

    @Test
    void redactRulesKeepTheirOwnCommasAndSemicolons() {
        assertEquals("capture=b.C::m,redact=b.C::m#2;value:\\d{13\\,16}\\;x;type:a\\,b",
                AttachRequests.agentOptions(List.of(), List.of(), List.of(), List.of("b.C::m"),
                        List.of("b.C::m#2", "value:\\d{13,16};x", "type:a\\,b")));
        assertEquals("redact=nodefaults", AttachRequests.agentOptions(List.of(), List.of(), List.of(), List.of(), List.of("nodefaults")));
        assertThrows(IllegalArgumentException.class,
                () -> AttachRequests.agentOptions(List.of(), List.of(), List.of(), List.of(), List.of(" ")));
    }

    @Test
    void durations() {
        assertEquals(Duration.ofMillis(500), AttachRequests.parseDuration("500ms"));
        assertEquals(Duration.ofSeconds(30), AttachRequests.parseDuration("30s"));
        assertEquals(Duration.ofMinutes(5), AttachRequests.parseDuration("5m"));
        assertEquals(Duration.ofHours(1), AttachRequests.parseDuration("1h"));
        for (String bad : new String[] {"", "s", "30", "0s", "-1s", "1.5s", "1d"}) {
            assertThrows(IllegalArgumentException.class, () -> AttachRequests.parseDuration(bad), bad);
        }
    }

    @Test
    void javaFeatureVersions() {
        assertEquals(8, TargetJvm.javaFeature("1.8"));
        assertEquals(11, TargetJvm.javaFeature("11"));
        assertEquals(17, TargetJvm.javaFeature("17"));
        assertEquals(25, TargetJvm.javaFeature("25"));
        assertEquals(0, TargetJvm.javaFeature("x"));
        assertTrue(TargetJvm.javaFeature("11") < TargetJvm.MIN_JAVA);
    }
}
