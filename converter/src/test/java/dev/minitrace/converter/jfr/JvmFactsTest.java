package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmFactsTest {
    @TempDir
    Path dir;

    @Test
    void theRecordingJvmsFactsComeFromItsOwnEvents() throws Exception {
        Path jfr = record(true);
        JvmFacts f = JvmFacts.read(jfr);
        assertNull(f.problem(), f.toString());
        assertEquals(ProcessHandle.current().pid(), f.pid());
        assertTrue(f.jvmVersion().contains(System.getProperty("java.vm.version")), f.jvmVersion());
        assertNotNull(f.jvmName());
        assertTrue(f.jvmStartNanos() > 0 && f.jvmStartNanos() <= System.currentTimeMillis() * 1_000_000L);
        assertNotNull(f.youngCollector());
        assertNotNull(f.oldCollector());
        assertEquals(f.youngCollector() + " / " + f.oldCollector(), f.collectors());
    }

    @Test
    void whatIsMissingIsSaid() throws Exception {
        JvmFacts none = JvmFacts.read(record(false));
        assertEquals("the recording has no jdk.JVMInformation or jdk.GCConfiguration events", none.problem());
        assertEquals(-1, none.pid());
        assertNull(none.collectors());

        JvmFacts unreadable = JvmFacts.read(Files.writeString(dir.resolve("text.jfr"), "not a recording"));
        assertNotNull(unreadable.problem(), "never throws, says why the facts are missing");
        assertNull(unreadable.jvmVersion());
        assertEquals(-1, unreadable.jvmStartNanos());
    }

    private Path record(boolean facts) throws Exception {
        Path out = dir.resolve("r" + facts + ".jfr");
        try (Recording r = new Recording()) {
            if (facts) {
                r.setSettings(Map.of("jdk.JVMInformation#enabled", "true", "jdk.JVMInformation#period", "beginChunk",
                        "jdk.GCConfiguration#enabled", "true", "jdk.GCConfiguration#period", "beginChunk"));
            } else {
                r.setSettings(Map.of());
            }
            r.start();
            r.stop();
            r.dump(out);
        }
        return out;
    }
}
