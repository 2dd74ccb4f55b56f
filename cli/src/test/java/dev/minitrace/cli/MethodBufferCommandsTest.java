package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.MethodBufferRecordings;
import dev.minitrace.converter.MtlogContent;
import dev.minitrace.converter.jfr.TraceBufferEncoder;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mt summary} of a recording with {@code minitrace.MethodBuffer} events counts their
 * records. Damaged {@code minitrace.MethodBuffer} events (reserved header bits, a wrong recordCount, a
 * varint cut short, a stamped skip, no traced thread): {@code mt convert} skips them with one
 * warning line each kind, converts everything else, and exits with status 3, with both engines.
 */
class MethodBufferCommandsTest {
    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        jfr = dir.resolve("damaged.jfr");
        CountDownLatch done = new CountDownLatch(1);
        Runnable idle = () -> {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread good = new Thread(idle, "good");
        Thread damaged = new Thread(idle, "damaged");
        good.start();
        damaged.start();
        try (Recording rec = new Recording()) {
            rec.enable(MethodBufferEvent.class);
            rec.enable(MethodDefinitionEvent.class);
            rec.start();
            MethodBufferRecordings.define(1, "demo.Outer", "run", "()V");
            MethodBufferRecordings.define(2, "demo.Inner", "work", "()V");
            String two = new TraceBufferEncoder().entry(1, 0).exit(1, 7, -1).records(); // 6 chars
            MethodBufferRecordings.commit(good, 1, 0, 1_000_000_000L, new TraceBufferEncoder().entry(1, 0).entry(2, 5));
            MethodBufferRecordings.commit(damaged, 1, 3, 0, 1_000_000_000L, two + "\u0020\u0001"); // reserved bit 5
            MethodBufferRecordings.commit(damaged, 4, 3, 0, 1_000_000_000L, two); // recordCount too high
            MethodBufferRecordings.commit(damaged, 7, 3, 0, 1_000_000_000L, two + "\u0004\u0041"); // varint cut short
            MethodBufferRecordings.commit(damaged, 10, 2, 0, 1_000_000_000L, "\u0007\u0001" + two); // stamped skip
            MethodBufferRecordings.commit(damaged, 13, 2, 0, 1_000_000_000L, "\u000b\u0002\u0003\u0004" + two); // object kind 3
            MethodBufferRecordings.commit(null, 1, 2, 0, 1_000_000_000L, two); // no traced thread
            MethodBufferRecordings.commit(good, 3, 0, 1_000_000_000L, new TraceBufferEncoder().thrown(2, 9).exit(1, 7, -1));
            rec.stop();
            rec.dump(jfr);
        } finally {
            done.countDown();
            good.join();
            damaged.join();
        }
    }

    @Test
    void summaryOfTheRecordingCountsTheBufferRecordsAsEntriesAndExits() throws Exception {
        MethodBufferRecordings.Traced t = MethodBufferRecordings.record(dir.resolve("buffers.jfr"), 2, 5);
        CommandOutcome s = CommandOutcome.mt("summary", t.file().toString());
        assertEquals(0, s.status(), s.err());
        long entries = t.expected().values().stream().flatMap(List::stream).filter(l -> l.startsWith("METHOD_ENTRY")).count();
        long exits = t.expected().values().stream().flatMap(List::stream).filter(l -> l.startsWith("METHOD_EXIT")).count();
        assertEquals(t.methodRecords(), entries + exits);
        assertTrue(s.out().contains(String.format("  %-13s %d%n", "METHOD_ENTRY", entries)), s.out());
        assertTrue(s.out().contains(String.format("  %-13s %d%n", "METHOD_EXIT", exits)), s.out());
        assertTrue(s.out().contains("  20 demo.Outer.run()V"), "top methods count buffer records: " + s.out());
    }

    @Test
    void summaryOfARecordingWithObjectRecordsCountsThemAsLocksAndAllocations() throws Exception {
        MethodBufferRecordings.Traced t = MethodBufferRecordings.record(dir.resolve("objects.jfr"), 2, 5, true);
        MethodBufferRecordings.Traced p = MethodBufferRecordings.record(dir.resolve("per-event.jfr"), 2, 5, false);
        CommandOutcome s = CommandOutcome.mt("summary", t.file().toString());
        assertEquals(0, s.status(), s.err());
        for (String type : new String[] {"LOCK_ACQUIRE", "LOCK_RELEASE", "OBJECT_ALLOC", "METHOD_ENTRY", "METHOD_EXIT"}) {
            long n = t.expected().values().stream().flatMap(List::stream).filter(l -> l.startsWith(type + " ")).count();
            assertEquals(2 * 2 * 5 * (type.startsWith("METHOD") ? 3 : 1), n, type); // per round: 3 calls, 1 alloc, 1 lock
            assertTrue(s.out().contains(String.format("  %-13s %d%n", type, n)), type + ": " + s.out());
        }
        assertTrue(s.out().contains("top allocated classes:\n  20 [I\n"), "allocations count by class name: " + s.out());
        CommandOutcome same = CommandOutcome.mt("summary", p.file().toString());
        assertEquals(0, same.status(), same.err());
        assertEquals(same.out().replaceAll("records per thread:[\\s\\S]*?top methods", ""),
                s.out().replaceAll("records per thread:[\\s\\S]*?top methods", ""),
                "the same summary as for per-event locks and allocations (thread ids aside)");
    }

    @Test
    void damagedEventsAreSkippedWithOneLineAndStatus3() throws Exception {
        String firstErr = null;
        for (String engine : new String[] {"fast", "recordingfile"}) {
            Path out = dir.resolve(engine + ".mtlog");
            CommandOutcome c = CommandOutcome.mt("convert", "--engine", engine, jfr.toString(), out.toString());
            assertEquals(ExitCodes.PARTIAL, c.status(), c.err());
            List<String> lines = c.err().lines().toList();
            assertTrue(lines.contains("convert: warning: 5 corrupt minitrace.MethodBuffer event(s) skipped with their 13"
                    + " record(s) (first: header char 0x20 at char 6 has reserved bits set)"), c.err());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("convert: warning: 2 minitrace event(s) have no thread")),
                    c.err());
            assertFalse(c.err().contains("Exception") || c.err().contains("\tat "), "no stack trace: " + c.err());
            for (String l : lines) {
                assertTrue(l.startsWith("convert: "), "one-line messages only: " + l);
            }
            MtlogContent m = MtlogContent.read(out);
            assertEquals(List.of("good"), List.copyOf(m.byThread.keySet()), "only the good thread has records");
            assertEquals(List.of("METHOD_ENTRY 1 0", "METHOD_ENTRY 2 0", "METHOD_EXIT 2 0", "METHOD_EXIT 1 7"),
                    m.withoutGc("good"));
            if (firstErr == null) {
                firstErr = c.err();
            } else {
                assertEquals(firstErr, c.err(), "both engines warn alike");
            }
        }
    }
}
