package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import dev.minitrace.injector.BufferedRecords;
import dev.minitrace.wire.TraceBufferFormat;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link TraceBuffer} folds an exit into the entry before it without taking the flag the
 * periodic thread commits under: whatever the periodic thread commits in between, the events
 * decode (with the tests' reader written from docs/trace-buffer.md) to exactly the records made.
 */
class TraceBufferTest {
    /** A method id written wide, so that a fold keeps the wide-id bit. */
    private static final int WIDE = 5000;
    private static final int NARROW = 7;

    @BeforeAll
    static void collectionCounters() {
        // The agent maps them through its Instrumentation; here the module is exported on the command line (pom.xml).
        Instrumentation exportsDone = (Instrumentation) Proxy.newProxyInstance(TraceBufferTest.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    if (method.getName().equals("redefineModule")) {
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        assertTrue(GcCounters.open(exportsDone), "the collection counters of this JVM");
    }

    @Test
    void anExitFoldedAfterItsEntryWasCommittedIsCommittedAsAnExitRecord(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        try (Recording r = bufferRecording()) {
            r.start();
            runOrFail("late-fold", () -> {
                TraceBuffer b = TraceBuffers.create(1);
                b.record(TraceBufferFormat.ENTRY, WIDE, 0, 1);
                b.flushPublished(); // a chunk boundary: the entry is committed, the owner does not know
                b.record(TraceBufferFormat.EXIT, WIDE, 9, 2); // folded into the committed entry
                b.record(TraceBufferFormat.ENTRY, NARROW, 0, 3);
                b.record(TraceBufferFormat.EXIT, NARROW, 4, 4); // folded into an entry not committed
                b.recordLeaf(TraceBufferFormat.EXIT_BY_EXCEPTION, NARROW + 1, 0, 5); // a leaf without bytecode index, last
                b.flushPublished();
                TraceBuffers.retire(b);
            });
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> items = items(file, "late-fold");
        assertEquals(List.of("+" + WIDE, "-" + WIDE, "+" + NARROW, "-" + NARROW, "+" + (NARROW + 1), "-!" + (NARROW + 1)),
                items.stream().map(BufferedRecords.Item::token).toList());
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i + 1, items.get(i).sequence(), "gapless sequence: " + items);
        }
        assertEquals(9, items.get(1).bci());
        assertEquals(4, items.get(3).bci());
        assertTrue(items.get(3).leaf(), "the second call is one leaf record: " + items);
    }

    @Test
    void foldsRacingThePeriodicThreadLoseAndScrambleNothing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        int calls = 100_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<TraceBuffer> buffer = new AtomicReference<>();
        try (Recording r = bufferRecording()) {
            r.start();
            Thread flusher = new Thread(() -> {
                while (!done.get()) {
                    TraceBuffer b = buffer.get();
                    if (b != null) {
                        b.flushPublished();
                    }
                    Thread.onSpinWait();
                }
            });
            flusher.start();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            TraceTest.runIn("racing-folds", () -> {
                try {
                    TraceBuffer b = TraceBuffers.create(1);
                    buffer.set(b);
                    long sequence = 1;
                    for (int i = 0; i < calls; i++) {
                        int id = i % 3 == 0 ? WIDE : NARROW + i % 5;
                        b.record(TraceBufferFormat.ENTRY, id, 0, sequence++);
                        b.record(TraceBufferFormat.EXIT, id, i % 100, sequence++);
                    }
                    done.set(true);
                    TraceBuffers.retire(b);
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    done.set(true);
                }
            });
            flusher.join();
            if (failure.get() != null) {
                throw new AssertionError("the owner failed", failure.get());
            }
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> items = items(file, "racing-folds");
        assertEquals(2 * calls, items.size(), "every record, once");
        long leaves = 0;
        for (int i = 0; i < calls; i++) {
            int id = i % 3 == 0 ? WIDE : NARROW + i % 5;
            BufferedRecords.Item entry = items.get(2 * i);
            BufferedRecords.Item exit = items.get(2 * i + 1);
            assertEquals("+" + id, entry.token(), "record " + entry.sequence());
            assertEquals("-" + id, exit.token(), "record " + exit.sequence());
            assertEquals(2L * i + 1, entry.sequence());
            assertEquals(2L * i + 2, exit.sequence());
            assertEquals(i % 100, exit.bci(), "record " + exit.sequence());
            leaves += exit.leaf() ? 1 : 0;
        }
        assertTrue(leaves > calls / 2, leaves + " of " + calls + " calls folded");
    }

    /** Runs {@code body} on a thread of that name; what it throws fails the test. */
    private static void runOrFail(String name, Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        TraceTest.runIn(name, () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        if (failure.get() != null) {
            throw new AssertionError(name + " failed", failure.get());
        }
    }

    private static Recording bufferRecording() {
        Recording r = new Recording();
        r.enable(EventNames.METHOD_BUFFER);
        return r;
    }

    /** The thread's decoded records; method names are their ids. */
    private static List<BufferedRecords.Item> items(Path file, String thread) throws Exception {
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Map<Integer, String> names = new java.util.HashMap<>();
        for (int id : new int[] {WIDE, NARROW, NARROW + 1, NARROW + 2, NARROW + 3, NARROW + 4}) {
            names.put(id, Integer.toString(id));
        }
        return BufferedRecords.byThread(events, names).get(thread);
    }
}
