package dev.minitrace.jfc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Both profiles parse, say what they cost, and give a recording exactly the events they name. */
class ProfilesTest {
    /** The JDK and MiniTrace events both profiles enable. */
    private static final Set<String> COMMON = Set.of(
            "minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodBuffer", "minitrace.MethodDefinition",
            "minitrace.ClassDefinition", "minitrace.MethodCapture",
            "jdk.GCConfiguration", "jdk.GarbageCollection", "jdk.GCPhasePause", "jdk.G1GarbageCollection",
            "jdk.ObjectAllocationSample", "jdk.ThreadStart", "jdk.ThreadEnd",
            "jdk.DataLoss", "jdk.ActiveRecording", "jdk.ActiveSetting", "jdk.JVMInformation");
    private static final Set<String> LOCKS_AND_ALLOCS = Set.of(
            "minitrace.LockAcquire", "minitrace.LockRelease", "minitrace.ObjectAlloc", "minitrace.ArrayLength");
    private static final Set<String> HEAP = Set.of(
            "minitrace.ExceptionThrow", "minitrace.ExceptionHandled", "minitrace.ReferenceStore", "minitrace.FieldDefinition",
            "minitrace.ObjectDeath", "minitrace.MethodReceiver");
    /** Events the workload of {@link ProfileRecording} always produces when they are enabled. */
    private static final Set<String> ALWAYS_SEEN = Set.of(
            "minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodBuffer", "minitrace.MethodDefinition",
            "jdk.GCConfiguration", "jdk.GarbageCollection", "jdk.GCPhasePause",
            "jdk.ThreadStart", "jdk.ThreadEnd", "jdk.ActiveRecording", "jdk.ActiveSetting", "jdk.JVMInformation");

    static Stream<Arguments> profiles() {
        return Stream.of(
                Arguments.of("minitrace.jfc", "MiniTrace", union(COMMON, LOCKS_AND_ALLOCS)),
                Arguments.of("minitrace-light.jfc", "MiniTrace (light)", COMMON),
                Arguments.of("minitrace-heap.jfc", "MiniTrace (heap)", union(union(COMMON, LOCKS_AND_ALLOCS), HEAP)));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new TreeSet<>(a);
        s.addAll(b);
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void parsesWithLabelAndPerEventOverhead(String file, String label, Set<String> enabled) throws Exception {
        Configuration c = ProfileRecording.configuration(file);
        assertEquals(label, c.getLabel());
        assertEquals("MiniTrace", c.getProvider());
        String description = c.getDescription();
        for (String event : new String[] {"minitrace.MethodBuffer", "minitrace.MethodEntry", "minitrace.LockAcquire", "minitrace.ObjectAlloc",
                "minitrace.MethodDefinition", "minitrace.MethodCapture", "jdk.ObjectAllocationSample"}) {
            assertTrue(description.contains(event), () -> file + " description does not mention " + event + ": " + description);
        }
        assertTrue(description.contains(" ns"), "the description gives the measured cost per traced call");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void enablesExactlyTheIntendedEvents(String file, String label, Set<String> enabled) throws Exception {
        Map<String, String> settings = ProfileRecording.configuration(file).getSettings();
        Set<String> on = new TreeSet<>();
        for (Map.Entry<String, String> s : settings.entrySet()) {
            if (s.getKey().endsWith("#enabled") && s.getValue().equals("true")) {
                on.add(s.getKey().substring(0, s.getKey().length() - "#enabled".length()));
            }
        }
        assertEquals(new TreeSet<>(enabled), on);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void settingsKeepTheTraceCompleteAndCheap(String file, String label, Set<String> enabled) throws Exception {
        Map<String, String> s = ProfileRecording.configuration(file).getSettings();
        for (String event : enabled) {
            if (event.equals("minitrace.MethodCapture")) {
                // Only the methods of capture= commit it; their stack trace is part of the capture.
                assertEquals("true", s.get(event + "#stackTrace"), event);
                assertEquals("0 ns", s.get(event + "#threshold"), event);
            } else if (event.startsWith("minitrace.") || event.equals("jdk.ObjectAllocationSample") || event.equals("jdk.ThreadStart")) {
                assertEquals("false", s.get(event + "#stackTrace"), event + " must not record stack traces");
            }
        }
        for (String event : new String[] {"minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodBuffer"}) {
            assertEquals("0 ns", s.get(event + "#threshold"), event);
        }
        assertEquals("everyChunk", s.get("minitrace.MethodDefinition#period"));
        assertEquals("everyChunk", s.get("minitrace.ClassDefinition#period"));
        if (enabled.contains("minitrace.FieldDefinition")) {
            assertEquals("everyChunk", s.get("minitrace.FieldDefinition#period"));
            assertEquals("0 ns", s.get("minitrace.ReferenceStore#threshold"));
        }
        assertEquals("everyChunk", s.get("jdk.GCConfiguration#period"));
        assertEquals("beginChunk", s.get("jdk.JVMInformation#period"));
        assertEquals("0 ms", s.get("jdk.GarbageCollection#threshold"));
        assertEquals("0 ms", s.get("jdk.GCPhasePause#threshold"));
        assertEquals("false", s.get("jdk.GCPhasePauseLevel1#enabled"));
        assertEquals("150/s", s.get("jdk.ObjectAllocationSample#throttle"));
    }

    @Test
    void fullProfileRecordsEveryAllocationWithoutThreshold() throws Exception {
        Map<String, String> s = ProfileRecording.configuration("minitrace.jfc").getSettings();
        assertEquals("0 ns", s.get("minitrace.ObjectAlloc#threshold"));
        assertEquals("0 ns", s.get("minitrace.LockAcquire#threshold"));
        assertEquals("0 ns", s.get("minitrace.LockRelease#threshold"));
    }

    @Test
    void lightProfileNamesLocksAndAllocationsAsOff() throws Exception {
        Map<String, String> s = ProfileRecording.configuration("minitrace-light.jfc").getSettings();
        for (String event : LOCKS_AND_ALLOCS) {
            assertEquals("false", s.get(event + "#enabled"), event);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void recordingHoldsOnlyTheIntendedEvents(String file, String label, Set<String> enabled, @TempDir Path dir)
            throws Exception {
        ProfileRecording r = ProfileRecording.record(file, dir.resolve("profile.jfr"));

        Set<String> unexpected = new TreeSet<>(r.counts.keySet());
        unexpected.removeAll(enabled);
        assertTrue(unexpected.isEmpty(), () -> "events the profile must leave off: " + unexpected + " in " + r.counts);
        Set<String> unexpectedEnabled = new TreeSet<>(r.enabledWhileRunning);
        unexpectedEnabled.removeAll(enabled);
        assertTrue(unexpectedEnabled.isEmpty(), () -> "enabled while recording: " + unexpectedEnabled);

        for (String event : ALWAYS_SEEN) {
            assertTrue(r.counts.containsKey(event), () -> event + " missing from " + r.counts);
        }
        for (String event : new String[] {"minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodBuffer",
                "minitrace.MethodDefinition"}) {
            assertEquals(1, r.counts.get(event), event);
        }
        for (String event : LOCKS_AND_ALLOCS) {
            assertEquals(enabled.contains(event) ? Integer.valueOf(1) : null, r.counts.get(event), event);
        }
        assertTrue(r.counts.getOrDefault("jdk.ThreadStart", 0) >= 1);
        boolean workerSeen = false;
        for (RecordedEvent e : r.events) {
            String name = e.getEventType().getName();
            if (name.startsWith("minitrace.") || name.equals("jdk.ObjectAllocationSample")) {
                assertNull(e.getStackTrace(), name + " must carry no stack trace");
            }
            if (name.equals("jdk.ThreadStart") && "profile-test-worker".equals(e.getThread("thread").getJavaName())) {
                workerSeen = true;
            }
        }
        assertTrue(workerSeen, "jdk.ThreadStart of the test's worker thread");
    }
}
