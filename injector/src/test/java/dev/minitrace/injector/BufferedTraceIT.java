package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's default form of method records, {@code minitrace.MethodBuffer}, end to end: the real
 * agent in a child JVM with a real recording, read back with RecordingFile and the tests' own
 * decoder of {@code docs/trace-buffer.md} ({@link BufferedRecords}).
 */
class BufferedTraceIT {
    static final Path SETTINGS = ChildJvm.TEST_CLASSES.resolve("minitrace-buffer-test.jfc");

    private static String recording(Path file) {
        return "-XX:StartFlightRecording:filename=" + file + ",settings=" + SETTINGS;
    }

    @Test
    void theWorkloadsTraceIsExactlyTheSameAsWithOneEventPerRecord(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("buffered.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(null), recording(jfr)), "fixture.workload.Workload");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("total 51"), r.stdout());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        long perEvent = 0;
        long buffers = 0;
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            perEvent += type.equals(EventNames.METHOD_ENTRY) || type.equals(EventNames.METHOD_EXIT)
                    || type.equals(EventNames.LOCK_ACQUIRE) || type.equals(EventNames.LOCK_RELEASE)
                    || type.equals(EventNames.OBJECT_ALLOC) ? 1 : 0;
            buffers += type.equals(EventNames.METHOD_BUFFER) ? 1 : 0;
        }
        assertEquals(0, perEvent, "no per-record events when MethodBuffer is enabled: locks and allocations are buffered too");
        assertTrue(buffers > 0, "MethodBuffer events");
        Map<String, List<BufferedRecords.Item>> threads = BufferedRecords.byThread(events, Recordings.methodNames(events));
        assertEquals(List.of("main", "worker-0", "worker-1", "worker-2"), new ArrayList<>(new TreeMap<>(threads).keySet()));
        assertEquals(TraceWorkloadIT.mainTrace(), BufferedRecords.tokens(threads.get("main")));
        for (int i = 0; i < 3; i++) {
            assertEquals(TraceWorkloadIT.workerTrace(i), BufferedRecords.tokens(threads.get("worker-" + i)), "worker-" + i);
        }
        for (Map.Entry<String, List<BufferedRecords.Item>> t : threads.entrySet()) {
            List<BufferedRecords.Item> items = t.getValue();
            Instant previous = Instant.MIN;
            for (int i = 0; i < items.size(); i++) {
                BufferedRecords.Item item = items.get(i);
                assertEquals(i + 1, item.sequence(), "sequences with lock and alloc events interleaved, thread " + t.getKey());
                if (item.event() == null) {
                    assertFalse(item.time().isBefore(previous), "buffered record times never go back, thread " + t.getKey());
                    previous = item.time();
                }
            }
        }
    }

    @Test
    void virtualThreadsCommitTheirBufferWhenTheirTracedFramesReturn(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
        Path jfr = dir.resolve("virtual.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(null), recording(jfr)), "fixture.workload.VirtualWorkload");
        assertEquals(0, r.exitCode(), r.stderr());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<String, List<BufferedRecords.Item>> threads = BufferedRecords.byThread(events, Recordings.methodNames(events));
        int committedByOwner = 0;
        int virtualBuffers = 0;
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_BUFFER) && e.getThread("tracedThread") != null
                    && e.getThread("tracedThread").getJavaName().startsWith("vt-")) {
                virtualBuffers++;
                if (e.getThread() != null && e.getThread().getJavaThreadId() == e.getLong("tracedThreadId")) {
                    committedByOwner++;
                }
            }
        }
        for (int i = 0; i < 3; i++) {
            List<BufferedRecords.Item> items = threads.get("vt-" + i);
            for (int k = 0; k < items.size(); k++) {
                assertEquals(k + 1, items.get(k).sequence(), "vt-" + i + " item " + k);
            }
            assertEquals(TraceWorkloadIT.workerTrace(i), BufferedRecords.tokens(items), "vt-" + i);
        }
        // Each virtual thread commits its own buffers, the last when Worker.run returned: none is
        // left for the periodic thread at the next chunk boundary.
        assertTrue(virtualBuffers >= 3, "buffer events of the virtual threads: " + virtualBuffers);
        assertEquals(virtualBuffers, committedByOwner, "buffers committed by their own virtual thread");
    }

    @Test
    void recordsCarryTheSameBytecodeIndexesAsTheEventForm(@TempDir Path dir) throws Exception {
        Path buffered = dir.resolve("b.jfr");
        Path perEvent = dir.resolve("e.jfr");
        assertEquals(0, ChildJvm.run(dir, List.of(ChildJvm.agent(null), recording(buffered)), "fixture.workload.Workload").exitCode());
        assertEquals(0, ChildJvm.run(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(perEvent, null)), "fixture.workload.Workload").exitCode());
        List<RecordedEvent> b = RecordingFile.readAllEvents(buffered);
        List<RecordedEvent> e = RecordingFile.readAllEvents(perEvent);
        List<String> fromBuffers = new ArrayList<>();
        int defined = 0;
        for (BufferedRecords.Item i : BufferedRecords.byThread(b, Recordings.methodNames(b)).get("worker-0")) {
            if (i.event() == null) {
                fromBuffers.add(i.token() + "@" + i.bci());
                defined += i.defined() ? 1 : 0;
            }
        }
        assertTrue(defined > 0, "exits whose bytecode index only the method's definition gives");
        List<String> fromEvents = new ArrayList<>();
        Map<Integer, String> names = Recordings.methodNames(e);
        for (RecordedEvent x : Recordings.byThread(e).get("worker-0")) {
            String type = x.getEventType().getName();
            if (type.equals(EventNames.METHOD_ENTRY)) {
                fromEvents.add(Recordings.token(x, names) + "@0");
            } else if (type.equals(EventNames.ARRAY_LENGTH)) {
                fromEvents.add(Recordings.token(x, names) + "@-1"); // a length has no instruction of its own
            } else {
                // exits, and lock and allocation events: with the class of the object
                fromEvents.add(Recordings.token(x, names) + "@" + x.getInt("bytecodeIndex"));
            }
        }
        assertEquals(fromEvents, fromBuffers);
        assertTrue(fromBuffers.stream().anyMatch(t -> t.startsWith("acq ")) && fromBuffers.stream().anyMatch(t -> t.startsWith("new ")));
    }

    @Test
    void aDumpHoldsTheEntriesOfMethodsStillRunning(@TempDir Path dir) throws Exception {
        Path ready = dir.resolve("ready");
        Path stop = dir.resolve("stop");
        ChildJvm.Running child = ChildJvm.start(dir, List.of(ChildJvm.agent("include=fixture.workload.*"),
                "-XX:StartFlightRecording:name=mt,settings=" + SETTINGS), List.of(ChildJvm.TEST_CLASSES),
                "fixture.workload.Hold", ready.toString(), stop.toString());
        try {
            for (int i = 0; i < 6000 && !Files.exists(ready); i++) {
                assertTrue(child.process.isAlive(), "child exited early");
                Thread.sleep(50);
            }
            Path dump = dir.resolve("dump.jfr");
            Process jcmd = new ProcessBuilder(ChildJvm.jcmd(), Long.toString(child.process.pid()), "JFR.dump", "name=mt",
                    "filename=" + dump).redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes());
            assertTrue(jcmd.waitFor(2, TimeUnit.MINUTES), "jcmd hung");
            assertEquals(0, jcmd.exitValue(), out);
            List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
            List<String> main = new ArrayList<>();
            for (BufferedRecords.Item i : BufferedRecords.byThread(events, Recordings.methodNames(events)).getOrDefault("main", List.of())) {
                if (i.event() == null && (i.token().startsWith("+") || i.token().startsWith("-"))) {
                    main.add(i.token());
                }
            }
            // Hold.main and Hold.hold are running: their entries were in main's buffer, which is
            // far from full, when the dump was taken; Worker.depth ran and returned before.
            assertFalse(main.isEmpty(), "main's records reached the dump");
            assertEquals("+Hold.main", main.get(0));
            assertTrue(main.contains("+Worker.depth") && main.contains("-Worker.depth"), main.toString());
            List<String> open = new ArrayList<>();
            for (String token : main) {
                if (token.startsWith("+")) {
                    open.add(token.substring(1));
                } else {
                    assertEquals(open.remove(open.size() - 1), token.substring(token.startsWith("-!") ? 2 : 1), main.toString());
                }
            }
            assertEquals(List.of("Hold.main", "Hold.hold"), open, "the calls still running at the dump");
        } finally {
            Files.writeString(stop, "stop");
            ChildJvm.Result r = child.await();
            assertEquals(0, r.exitCode(), r.stderr());
        }
    }

    @Test
    void recordsLeftInABufferWhenTracingStopsDoNotReachTheNextRecording(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("first.jfr");
        Path second = dir.resolve("second.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent("include=fixture.workload.Worker")),
                "fixture.workload.TwoRecordings", SETTINGS.toString(), first.toString(), second.toString());
        assertEquals(0, r.exitCode(), r.stderr());
        String line = r.stdout().lines().filter(l -> l.startsWith("second-start ")).findFirst().orElseThrow();
        Instant secondStart = Instant.ofEpochMilli(Long.parseLong(line.substring("second-start ".length())));
        for (Path file : List.of(first, second)) {
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            List<BufferedRecords.Item> busy = BufferedRecords.byThread(events, Recordings.methodNames(events)).get("busy");
            assertTrue(busy != null && busy.size() > 100, file + ": the busy thread was traced");
            if (file.equals(second)) {
                for (BufferedRecords.Item i : busy) {
                    // 300 ms passed with tracing off before the second recording: a record from
                    // the first one would be that much older (20 ms of slack for the clocks)
                    assertTrue(i.time().isAfter(secondStart.minusMillis(20)), "a record from before the second recording: " + i);
                }
            }
        }
    }

    @Test
    void withoutPerformanceDataEveryRecordIsStamped(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("noperf.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of("-XX:-UsePerfData", "-Dminitrace.tick.ms=600000",
                ChildJvm.agent("include=fixture.gcside.Marks"), recording(jfr)), "fixture.gcside.GcSides", "3");
        assertEquals(0, r.exitCode(), r.stderr());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        List<BufferedRecords.Item> main = BufferedRecords.byThread(events, Recordings.methodNames(events)).get("main");
        assertEquals(12, main.size(), "3 rounds of two marks");
        for (BufferedRecords.Item i : main) {
            assertTrue(i.stamped(), "no collection counters to read: every record takes the clock, " + i);
        }
    }

    /**
     * With the ticker made too slow to matter, only the JVM's collection counters can make a record
     * after a pause take a new timestamp: the mark after each collection must be timed after a pause that
     * started after the mark before it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseShenandoahGC"})
    void recordsAfterACollectionAreTimedAfterItsPause(String collector, @TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("gc.jfr");
        int rounds = 12;
        ChildJvm.Result r = ChildJvm.run(dir, List.of(collector, "-Xmx64m", "-Dminitrace.tick.ms=600000",
                ChildJvm.agent("include=fixture.gcside.Marks"), recording(jfr)), "fixture.gcside.GcSides", Integer.toString(rounds));
        if (r.exitCode() != 0 && r.stderr().contains("Unrecognized VM option")) {
            org.junit.jupiter.api.Assumptions.abort(collector + " is not in this JDK");
        }
        assertEquals(0, r.exitCode(), r.stderr());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<Long, String> gcNames = new HashMap<>();
        List<RecordedEvent> pauses = new ArrayList<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                gcNames.put(e.getLong("gcId"), e.getString("name"));
            } else if (e.getEventType().getName().equals("jdk.GCPhasePause")) {
                pauses.add(e);
            }
        }
        List<BufferedRecords.Item> main = BufferedRecords.byThread(events, Recordings.methodNames(events)).get("main");
        Map<String, Instant> times = new HashMap<>();
        int round = -1;
        for (BufferedRecords.Item i : main) {
            // Tokens alternate +before -before +after -after per round.
            if (i.token().equals("+Marks.before")) {
                round++;
            }
            times.put(i.token() + round, i.time());
        }
        assertEquals(rounds - 1, round, "rounds traced");
        long unstamped = main.stream().filter(i -> !i.stamped()).count();
        if (collector.contains("ZGC") || collector.contains("Shenandoah")) {
            // These move objects outside their pauses (and their pause counters need not match the
            // pause events the recording holds): the agent stamps every record, so times are true.
            assertEquals(0, unstamped, "these collectors move objects outside pauses: every record is stamped");
            return;
        } else {
            // The exits of before() and the entries of before() after the first share a stamp:
            // the counters, not a clock read per record, are what placed the marks.
            assertTrue(unstamped >= rounds, "unstamped records: " + unstamped);
        }
        for (int k = 0; k < rounds; k++) {
            Instant before = times.get("-Marks.before" + k);
            Instant after = times.get("+Marks.after" + k);
            boolean between = false;
            for (RecordedEvent p : pauses) {
                String gc = gcNames.get(p.getLong("gcId"));
                boolean moving = gc == null || !gc.equals("G1Old");
                between |= moving && p.getStartTime().isAfter(before) && !p.getStartTime().isAfter(after);
            }
            assertTrue(between, collector + " round " + k + ": no pause between the marks' times " + before + " and " + after);
        }
    }
}
