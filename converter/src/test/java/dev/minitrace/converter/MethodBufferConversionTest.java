package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.TraceBufferEncoder;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.events.EventNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings with {@code minitrace.MethodBuffer} events (made without the agent) convert to the
 * exact per-thread traces in both layouts, merged by sequence with the lock and allocation events,
 * with both engines byte for byte (every conversion goes through {@link BothEngines}).
 */
class MethodBufferConversionTest {
    @TempDir
    static Path dir;
    static MethodBufferRecordings.Traced traced;

    @BeforeAll
    static void record() throws Exception {
        traced = MethodBufferRecordings.record(dir.resolve("buffers.jfr"), 3, 20);
    }

    @Test
    void theFixtureHasSeveralChunksAndBufferEventsCommittedByAnotherThread() throws Exception {
        assertTrue(dev.minitrace.converter.jfr.JfrChunks.scan(traced.file()).chunks().size() >= 2);
        long byOther = 0;
        long buffers = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(traced.file())) {
            if (e.getEventType().getName().equals(EventNames.METHOD_BUFFER)) {
                buffers++;
                if (e.getThread().getJavaThreadId() != e.<jdk.jfr.consumer.RecordedThread>getValue("tracedThread").getJavaThreadId()) {
                    byOther++;
                }
            }
        }
        assertEquals(traced.bufferEvents(), buffers);
        assertTrue(byOther >= 6, byOther + " buffer events committed by main for a worker");
    }

    /**
     * The agent's periodic thread commits a thread's buffer at the end of a chunk, but the thread
     * keeps running until the chunk is actually closed: lock and allocation events it commits
     * meanwhile land in that chunk, the method records before them in the next one. The converter
     * must put them back in order, without calling anything lost.
     */
    @Test
    void bufferedRecordsOneChunkLateKeepTheirPlace() throws Exception {
        Path file = dir.resolve("late.jfr");
        long[] clock = MethodBufferRecordings.probeTicks(dir.resolve("late.probe.jfr"));
        Thread[] late = new Thread[1];
        try (jdk.jfr.Recording rec = new jdk.jfr.Recording()) {
            rec.enable(dev.minitrace.events.MethodBufferEvent.class);
            rec.enable(dev.minitrace.events.LockAcquireEvent.class);
            rec.enable(dev.minitrace.events.LockReleaseEvent.class);
            rec.enable(dev.minitrace.events.MethodDefinitionEvent.class);
            rec.start();
            MethodBufferRecordings.define(1, "demo.Outer", "run", "()V");
            java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch rotated = new java.util.concurrent.CountDownLatch(1);
            late[0] = new Thread(() -> {
                // sequences 1-2: an entry and exit still in the buffer; 3-4: a lock pair, committed now
                for (int s = 3; s <= 4; s++) {
                    jdk.jfr.Event e = s == 3 ? new dev.minitrace.events.LockAcquireEvent() : new dev.minitrace.events.LockReleaseEvent();
                    if (e instanceof dev.minitrace.events.LockAcquireEvent a) {
                        a.monitorClass = Object.class;
                        a.identityHash = 0x51;
                        a.bytecodeIndex = 7;
                        a.sequence = s;
                    } else if (e instanceof dev.minitrace.events.LockReleaseEvent r) {
                        r.monitorClass = Object.class;
                        r.identityHash = 0x51;
                        r.bytecodeIndex = 9;
                        r.sequence = s;
                    }
                    e.commit();
                }
                locked.countDown();
                try {
                    rotated.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                // next chunk: the buffer, with a skip over the lock pair and two more records
                MethodBufferRecordings.commit(Thread.currentThread(), 1, clock[0], clock[1], new TraceBufferEncoder()
                        .entry(1, clock[0]).exit(1, 5, clock[0] + 10).skip(2).entry(1, clock[0] + 20).exit(1, 6, clock[0] + 30));
            }, "late");
            // Starting and stopping another recording each rotate the chunk: the lock pair goes in
            // the chunk between, the buffer in the one after (one chunk late, as the agent's can be).
            try (jdk.jfr.Recording other = new jdk.jfr.Recording()) {
                other.start();
                late[0].start();
                locked.await();
                other.stop();
            }
            rotated.countDown();
            late[0].join();
            rec.stop();
            rec.dump(file);
        }
        assertTrue(dev.minitrace.converter.jfr.JfrChunks.scan(file).chunks().size() >= 2, "the fixture spans chunks");
        for (String layout : List.of("thread", "global")) {
            Path out = dir.resolve("late-" + layout + ".mtlog");
            boolean global = layout.equals("global");
            ConvertOptions options = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            ConversionReport report = BothEngines.convert(options, file, out);
            assertEquals(List.of(), report.warnings(), layout);
            List<String> expected = List.of("METHOD_ENTRY 1 0", "METHOD_EXIT 1 5", "LOCK_ACQUIRE java.lang.Object@51 7",
                    "LOCK_RELEASE java.lang.Object@51 9", "METHOD_ENTRY 1 0", "METHOD_EXIT 1 6");
            if (global) { // the global layout's aux is the thread, so bytecode indexes are not in it
                expected = List.of("METHOD_ENTRY 1 0", "METHOD_EXIT 1 ?", "LOCK_ACQUIRE java.lang.Object@51 ?",
                        "LOCK_RELEASE java.lang.Object@51 ?", "METHOD_ENTRY 1 0", "METHOD_EXIT 1 ?");
            }
            assertEquals(expected, MtlogContent.read(out).withoutGc("late"), layout);
        }
    }

    @Test
    void threadLayoutIsTheExactTraceOfEveryThread() throws Exception {
        Path out = dir.resolve("thread.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), traced.file(), out);
        MtlogContent c = MtlogContent.read(out);
        assertEquals(traced.expected().keySet(), c.byThread.keySet());
        for (Map.Entry<String, List<String>> e : traced.expected().entrySet()) {
            assertEquals(e.getValue(), c.withoutGc(e.getKey()), "trace of " + e.getKey());
        }
        assertFalse(report.lostData(), report.warnings().toString());
        assertEquals(List.of(), report.warnings());
        assertEquals(c.records, c.headerCount);
        assertEquals("demo.Inner", c.info.methods().get(5000L).className());
        assertEquals("work", c.info.methods().get(5000L).methodName());
    }

    @Test
    void globalLayoutKeepsEveryThreadsOrder() throws Exception {
        Path out = dir.resolve("global.mtlog");
        ConvertOptions global = new ConvertOptions(true, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
        ConversionReport report = BothEngines.convert(global, traced.file(), out);
        MtlogContent c = MtlogContent.read(out);
        for (Map.Entry<String, List<String>> e : traced.expected().entrySet()) {
            List<String> want = new ArrayList<>();
            for (String line : e.getValue()) {
                // the global layout's aux is the thread: no bci but for entries (0)
                want.add(line.startsWith("METHOD_ENTRY") ? line : line.substring(0, line.lastIndexOf(' ')) + " ?");
            }
            assertEquals(want, c.withoutGc(e.getKey()), "trace of " + e.getKey());
        }
        assertFalse(report.lostData(), report.warnings().toString());
    }

    @Test
    void globalLayoutOrdersThreadsByTheRecordTimes() throws Exception {
        Path in = dir.resolve("interleaved.jfr");
        List<String> order = MethodBufferRecordings.recordInterleaved(in);
        Path out = dir.resolve("interleaved.mtlog");
        ConvertOptions global = new ConvertOptions(true, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
        ConversionReport report = BothEngines.convert(global, in, out);
        assertEquals(order, MtlogContent.read(out).global);
        assertFalse(report.lostData(), report.warnings().toString());
    }

    @Test
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+
    void aBufferWithoutTracedThreadJoinsTheThreadOfItsJavaIdOrGetsAStreamOfItsName() throws Exception {
        // JDK 17 writes tracedThread as null once the thread has ended; the id and the name remain
        Path in = dir.resolve("ended.jfr");
        Thread[] ended = new Thread[1];
        try (jdk.jfr.Recording rec = new jdk.jfr.Recording()) {
            rec.enable(dev.minitrace.events.MethodBufferEvent.class);
            rec.enable(dev.minitrace.events.ObjectAllocEvent.class);
            rec.enable(dev.minitrace.events.MethodDefinitionEvent.class);
            rec.start();
            MethodBufferRecordings.define(1, "demo.Outer", "run", "()V");
            ended[0] = new Thread(() -> {
                dev.minitrace.events.ObjectAllocEvent a = new dev.minitrace.events.ObjectAllocEvent();
                a.objectClass = int[].class;
                a.identityHash = 0x2a;
                a.bytecodeIndex = 4;
                a.sequence = 2;
                a.commit();
            }, "ended");
            ended[0].start();
            ended[0].join();
            dev.minitrace.converter.jfr.TraceBufferEncoder records =
                    new dev.minitrace.converter.jfr.TraceBufferEncoder().entry(1, 0).skip(1).exit(1, 31, -1);
            MethodBufferRecordings.commit(null, ended[0].getId(), "ended", 1, 2, 0, 1_000_000_000L, records.records());
            MethodBufferRecordings.commit(null, 987_654, "never-seen", 1, 2, 0, 1_000_000_000L,
                    new dev.minitrace.converter.jfr.TraceBufferEncoder().entry(1, 0).exit(1, 31, -1).records());
            rec.stop();
            rec.dump(in);
        }
        Path out = dir.resolve("ended.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), in, out);
        MtlogContent c = MtlogContent.read(out);
        assertEquals(List.of("ended", "never-seen"), List.copyOf(c.byThread.keySet()));
        assertEquals(List.of("METHOD_ENTRY 1 0", "OBJECT_ALLOC [I@2a 4", "METHOD_EXIT 1 31"), c.withoutGc("ended"));
        assertEquals(List.of("METHOD_ENTRY 1 0", "METHOD_EXIT 1 31"), c.withoutGc("never-seen"));
        assertFalse(report.lostData(), report.warnings().toString());
    }

    @Test
    void recordsMatchTheSumOfRecordCountReadWithRecordingFile() throws Exception {
        long recordCounts = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(traced.file())) {
            if (e.getEventType().getName().equals(EventNames.METHOD_BUFFER)) {
                recordCounts += e.getInt("recordCount");
            }
        }
        assertEquals(traced.methodRecords(), recordCounts);
        Path out = dir.resolve("count.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), traced.file(), out);
        long[] byType = report.countByType();
        assertEquals(recordCounts, byType[MtlogFormat.METHOD_ENTRY] + byType[MtlogFormat.METHOD_EXIT]);
        Map<String, Long> objects = Oracles.recordingFile(traced.file()); // lock and allocation events, by RecordingFile
        MtlogContent c = MtlogContent.read(out);
        for (String type : List.of("LOCK_ACQUIRE", "LOCK_RELEASE", "OBJECT_ALLOC")) {
            assertEquals(objects.get(type), c.counts.get(type), type);
        }
        assertEquals(recordCounts + objects.get("LOCK_ACQUIRE") + objects.get("LOCK_RELEASE") + objects.get("OBJECT_ALLOC"),
                report.minitraceEvents());
    }
}
