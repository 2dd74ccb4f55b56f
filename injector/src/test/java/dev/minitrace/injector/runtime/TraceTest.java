package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hooks against a real in-process recording: enablement, sequence numbers, constructor bookkeeping. */
class TraceTest {

    static Recording allMiniTrace() {
        Recording r = new Recording();
        for (String name : List.of(EventNames.METHOD_ENTRY, EventNames.METHOD_EXIT, EventNames.LOCK_ACQUIRE,
                EventNames.LOCK_RELEASE, EventNames.OBJECT_ALLOC, EventNames.ARRAY_LENGTH)) {
            r.enable(name);
        }
        return r;
    }

    static List<RecordedEvent> eventsOf(Path file, String thread) throws Exception {
        List<RecordedEvent> out = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            // the trace events; a definition committed on the thread has no sequence
            if (e.getEventType().getName().startsWith("minitrace.") && e.hasField("sequence") && e.getThread() != null
                    && thread.equals(e.getThread().getJavaName())) {
                out.add(e);
            }
        }
        out.sort((a, b) -> Long.compare(a.getLong("sequence"), b.getLong("sequence")));
        return out;
    }

    static void runIn(String name, Runnable body) throws InterruptedException {
        Thread t = new Thread(body, name);
        t.start();
        t.join();
    }

    @Test
    void flagsFollowRecordingsAndEventsCarryAGaplessSequence(@TempDir Path dir) throws Exception {
        Enablement.install();
        runIn("before-recording", () -> Trace.enter(1));
        assertFalse(TraceSettings.methodEnabled(), "no recording: method events off");
        Path file = dir.resolve("t.jfr");
        Object monitor = new Object();
        try (Recording r = allMiniTrace()) {
            r.start();
            assertTrue(TraceSettings.methodEnabled() && TraceSettings.lockEnabled() && TraceSettings.allocEnabled(), "flags on once a recording runs");
            runIn("hooks", () -> {
                Trace.enter(7);
                Trace.lockAcquire(monitor, 3);
                Trace.allocArray(new int[2], 5);
                Trace.alloc(new StringBuilder(), 6);
                Trace.lockRelease(monitor, 9);
                Trace.exit(7, 12);
                Trace.enter(8);
                Trace.exitByException(8);
            });
            r.stop();
            r.dump(file);
        }
        assertFalse(TraceSettings.methodEnabled(), "flags off once the recording stopped");
        List<RecordedEvent> events = eventsOf(file, "hooks");
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            RecordedEvent e = events.get(i);
            assertEquals(i + 1, e.getLong("sequence"));
            String type = e.getEventType().getName().substring("minitrace.".length());
            String detail = switch (type) {
                case "MethodEntry" -> "" + e.getInt("methodId");
                case "MethodExit" -> e.getInt("methodId") + "@" + e.getInt("bytecodeIndex") + (e.getBoolean("exceptional") ? "!" : "");
                case "LockAcquire", "LockRelease" -> e.getClass("monitorClass").getName() + "@" + e.getInt("bytecodeIndex")
                        + (e.getInt("identityHash") == System.identityHashCode(monitor) ? "" : "?");
                case "ArrayLength" -> "" + e.getInt("length");
                default -> e.getClass("objectClass").getName() + "@" + e.getInt("bytecodeIndex");
            };
            seen.add(type + " " + detail);
        }
        assertEquals(List.of("MethodEntry 7", "LockAcquire java.lang.Object@3", "ObjectAlloc [I@5", "ArrayLength 2",
                "ObjectAlloc java.lang.StringBuilder@6", "LockRelease java.lang.Object@9", "MethodExit 7@12", "MethodEntry 8", "MethodExit 8@0!"), seen);
        assertTrue(eventsOf(file, "before-recording").isEmpty());
    }

    @Test
    void constructorUnwoundFromSuperGetsItsExitWhenTheCallerCatches(@TempDir Path dir) throws Exception {
        Enablement.install();
        Path file = dir.resolve("c.jfr");
        try (Recording r = allMiniTrace()) {
            r.start();
            runIn("ctor", () -> {
                Trace.enter(1); // caller
                Trace.enter(2); // Sub.<init>
                Trace.superCall(2);
                Trace.enter(3); // Base.<init>
                Trace.superCall(3);
                Trace.superReturned(3);
                Trace.exitByException(3); // Base throws after its own super()
                // the exception leaves Sub.<init> through its super() call: no hook runs there
                Trace.caught(); // the caller catches
                Trace.enter(4);
                Trace.exit(4, 1);
                Trace.exit(1, 2);
            });
            r.stop();
            r.dump(file);
        }
        List<String> seen = new ArrayList<>();
        for (RecordedEvent e : eventsOf(file, "ctor")) {
            boolean entry = e.getEventType().getName().equals(EventNames.METHOD_ENTRY);
            seen.add((entry ? "+" : "-") + e.getInt("methodId") + (!entry && e.getBoolean("exceptional") ? "!" : ""));
        }
        assertEquals(List.of("+1", "+2", "+3", "-3!", "-2!", "+4", "-4", "-1"), seen);
    }
}
