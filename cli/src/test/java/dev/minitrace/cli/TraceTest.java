package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.MethodBufferRecordings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end tests' reader ({@link Trace}) sees the same locks and allocations, with the same
 * class names, whether the recording has them as per-event events or as object records in
 * buffers (classes by {@code minitrace.ClassDefinition}, committed after the records).
 */
class TraceTest {
    @TempDir
    Path dir;

    @Test
    void objectRecordsCountLikePerEventLocksAndAllocations() throws Exception {
        Trace perEvent = Trace.read(MethodBufferRecordings.record(dir.resolve("per-event.jfr"), 2, 4, false).file());
        Trace buffered = Trace.read(MethodBufferRecordings.record(dir.resolve("objects.jfr"), 2, 4, true).file());
        assertEquals(null, buffered.counts.get("minitrace.ObjectAlloc"), "no per-event allocations in the buffered recording");
        assertEquals(List.of(), buffered.unresolvedClasses);
        for (String thread : List.of("buffered-0", "buffered-1")) {
            for (Trace t : List.of(perEvent, buffered)) {
                assertEquals(8, t.countWithClass(thread, "minitrace.ObjectAlloc", "objectClass", "[I"), thread);
                assertEquals(0, t.countWithClass(thread, "minitrace.ObjectAlloc", "objectClass", "java.lang.Object"), thread);
                assertEquals(8, t.countWithClass(thread, "minitrace.LockAcquire", "monitorClass", "java.lang.Object"), thread);
                assertEquals(8, t.countWithClass(thread, "minitrace.LockRelease", "monitorClass", "java.lang.Object"), thread);
                assertEquals(8, t.count(thread, "minitrace.LockAcquire"), thread);
                assertEquals(24, t.count(thread, "minitrace.MethodEntry"), thread);
                assertTrue(t.sequenceIsContiguous(thread), thread);
            }
            List<String> a = perEvent.byThread.get(thread).stream().map(e -> e.type() + " " + e.sequence()).toList();
            List<String> b = buffered.byThread.get(thread).stream().map(e -> e.type() + " " + e.sequence()).toList();
            assertEquals(a, b, thread);
        }
    }
}
