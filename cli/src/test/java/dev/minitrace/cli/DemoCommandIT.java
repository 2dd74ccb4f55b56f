package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/mt demo} end to end, as the README's first command: the demo traced by the real
 * agent, the exact per-thread counts its code implies, then the conversion: the log holds, per
 * worker thread, as many entries and lock acquires as the recording.
 */
class DemoCommandIT {
    private static final String DEMO = "dev.minitrace.demo.";
    /** Orders per worker (DemoMain.ORDERS_PER_WORKER) and rejected ones among them (every 50th). */
    private static final int ORDERS = 2000;
    private static final int REJECTED = 40;

    @TempDir
    Path dir;

    @Test
    void tracesTheDemoWithExactPerThreadCountsThenConverts() throws Exception {
        ChildProcess.Outcome o = ChildProcess.bin(dir, "mt", "demo");

        assertTrue(o.out().contains("minitrace demo: 4 workers, 7840 orders accepted, 160 rejected"), o::toString);
        Path recording = dir.resolve("minitrace-demo.jfr");
        assertTrue(Files.isRegularFile(recording), o::toString);

        Trace t = Trace.read(recording);
        assertEquals(List.of(), t.unresolved, "every method id resolves");
        assertTrue(t.counts.getOrDefault("jdk.GarbageCollection", 0) >= 1, "System.gc() gives a GC");
        assertTrue(t.counts.getOrDefault("jdk.GCPhasePause", 0) >= 1);
        // The agent's default: method records packed in MethodBuffer events, no event per record.
        assertTrue(t.counts.getOrDefault("minitrace.MethodBuffer", 0) >= 4, t.counts::toString);
        assertEquals(null, t.counts.get("minitrace.MethodEntry"), "no per-record method events");
        int accepted = ORDERS - REJECTED;
        // take (synchronized method) + countReservation (static synchronized) + two nested blocks
        // in Ledger.accept + one block in Ledger.reject.
        int monitors = ORDERS + accepted + 2 * accepted + REJECTED;
        for (int w = 0; w < 4; w++) {
            String thread = "demo-worker-" + w;
            assertEquals(ORDERS, t.count(thread, "minitrace.MethodEntry", DEMO + "OrderWorker::process"), thread);
            assertEquals(ORDERS, t.count(thread, "minitrace.MethodExit", DEMO + "OrderWorker::process"), thread);
            assertEquals(ORDERS, t.count(thread, "minitrace.MethodEntry", DEMO + "Warehouse::take"), thread);
            assertEquals(REJECTED, t.exceptionalExits(thread, DEMO + "Warehouse::take"), thread);
            assertEquals(t.count(thread, "minitrace.MethodEntry"), t.count(thread, "minitrace.MethodExit"), thread);
            assertEquals(monitors, t.count(thread, "minitrace.LockAcquire"), thread);
            assertEquals(monitors, t.count(thread, "minitrace.LockRelease"), thread);
            assertEquals(ORDERS, t.countWithClass(thread, "minitrace.ObjectAlloc", "objectClass", DEMO + "Order"), thread);
            assertEquals(accepted, t.countWithClass(thread, "minitrace.ObjectAlloc", "objectClass", "[J"), thread);
            assertTrue(t.sequenceIsContiguous(thread), thread + ": sequence numbers 1..n, nothing lost");
        }

        Path log = dir.resolve("minitrace-demo.mtlog");
        assertEquals(0, o.status(), o::toString);
        // the demo ends with the two views and says where they are
        Path page = dir.resolve("minitrace-demo.html").toAbsolutePath();
        Path timeline = dir.resolve("minitrace-demo.json").toAbsolutePath();
        assertTrue(o.err().contains("demo: report written to " + page), o::err);
        assertTrue(o.err().contains("demo: timeline written to " + timeline), o::err);
        assertTrue(Files.readString(page).contains("id=\"minitrace-data\""));
        assertTrue(Files.readString(timeline).contains("\"thread_name\""));
        assertTrue(o.err().contains("demo: log written to " + log), o::err);
        assertTrue(o.out().contains("records per thread"), "the summary is printed");
        try (MtlogReader r = MtlogReader.open(log)) {
            assertFalse(r.truncated());
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> e : r.info().threads().entrySet()) {
                String thread = e.getValue().name();
                if (!thread.startsWith("demo-worker-")) {
                    continue;
                }
                int[] perType = new int[MtlogFormat.MAX_TYPE + 1];
                r.forEachRecord((int) (long) e.getKey(), (stream, type, value, aux) -> perType[type]++);
                assertEquals(t.count(thread, "minitrace.MethodEntry"), perType[MtlogFormat.METHOD_ENTRY], thread);
                assertEquals(t.count(thread, "minitrace.MethodExit"), perType[MtlogFormat.METHOD_EXIT], thread);
                assertEquals(monitors, perType[MtlogFormat.LOCK_ACQUIRE], thread);
                assertEquals(monitors, perType[MtlogFormat.LOCK_RELEASE], thread);
                assertEquals(t.count(thread, "minitrace.ObjectAlloc"), perType[MtlogFormat.OBJECT_ALLOC], thread);
                assertEquals(t.count(thread, "minitrace.ArrayLength"), perType[MtlogFormat.ARRAY_LENGTH], thread);
                assertTrue(perType[MtlogFormat.ARRAY_LENGTH] > 0, "the demo allocates arrays: each has its length");
            }
        }
    }
}
