package dev.minitrace.views.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.minitrace.converter.TimeBound;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exact events of the timeline writer for known records, including the records a viewer cannot nest by itself. */
class ChromeTraceWriterTest {
    private static final long ORIGIN = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long WORKER = 10;
    private static final long OTHER = 11;

    @TempDir
    Path dir;

    private static MtlogInfo info() {
        MtlogInfo info = new MtlogInfo();
        info.putThread(WORKER, 21, "worker");
        info.putThread(OTHER, 22, "other");
        info.putMethod(1, "a.A", "run", "()V");
        info.putMethod(2, "a.A", "work", "(I)V");
        info.putMethod(3, "a.A", "fail", "()V");
        info.putMethod(4, "a.A", "x", "()V");
        info.putClass(1, "java.lang.Object");
        info.putClass(2, "[I");
        info.putGc(7, "G1New", "G1 Evacuation Pause", ORIGIN + 2_500_000L, 400_000L);
        return info;
    }

    private static void record(ChromeTraceWriter w, long thread, int type, double ms, long value, int aux) throws Exception {
        w.records(thread, new byte[] {(byte) type}, new long[] {ORIGIN + (long) (ms * MS)}, new long[] {value}, new int[] {aux}, 0, 1);
    }

    private static long object(long classId, int hash) {
        return classId << 32 | hash;
    }

    private static double us(double ms) {
        return ms * 1000;
    }

    @Test
    void callsMonitorsAllocationsAndGcsBecomeNestedSlicesAndInstants() throws Exception {
        Path out = dir.resolve("t.json");
        TimelineSummary summary;
        try (ChromeTraceWriter w = new ChromeTraceWriter(out, new TimelineOptions(null, null, 1000, null), ORIGIN, ORIGIN + 10 * MS)) {
            assertEquals(ChromeTraceWriter.Order.TIME, w.order());
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 1, 1, 0);
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 1, 2, 0);
            record(w, WORKER, MtlogFormat.OBJECT_ALLOC, 1, object(2, 5), 4);
            record(w, OTHER, MtlogFormat.METHOD_EXIT, 1.5, 2, 9);
            record(w, OTHER, MtlogFormat.METHOD_ENTRY, 1.5, 1, 0);
            record(w, OTHER, MtlogFormat.METHOD_ENTRY, 1.5, 2, 0);
            record(w, OTHER, MtlogFormat.METHOD_EXIT, 1.5, 1, 30);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 2, 2, 9);
            record(w, WORKER, MtlogFormat.LOCK_ACQUIRE, 2, object(1, 7), 12);
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 2, 3, 0);
            w.fragment(-1, 7, ORIGIN + 2_500_000L);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 3, 3, 0);
            record(w, WORKER, MtlogFormat.LOCK_RELEASE, 3, object(1, 7), 20);
            w.finish(info());
            summary = w.summary();
        }
        TimelineFile f = new TimelineFile(out);
        assertEquals("worker", f.threadNames.get(WORKER));
        assertEquals("other", f.threadNames.get(OTHER));
        assertEquals("GC", f.threadNames.get(TraceEventJson.GC_TID));

        // worker: the records of a stamp are spread over the tick, up to the next stamp or the GC point
        TimelineFile.Slice run = f.slices("worker", "a.A.run").get(0);
        assertEquals(us(1), run.begin(), 1e-9);
        assertEquals(us(10), run.end(), 1e-9, "still running at the end: ends at the recording's end");
        assertEquals("still running when the recording ended", run.endArgs().get("unfinished").asText());
        TimelineFile.Slice work = f.slices("worker", "a.A.work").get(0);
        assertEquals(1333.333, work.begin(), 1e-9);
        assertEquals(us(2), work.end(), 1e-9);
        assertNull(work.endArgs(), "a return says nothing");
        assertEquals(1, work.depth());
        TimelineFile.Slice lock = f.slices("worker", "lock java.lang.Object").get(0);
        assertEquals(2166.666, lock.begin(), 1e-9, "three records share the 2 ms stamp and end before the GC point at 2.5 ms");
        assertEquals(us(3.5), lock.end(), 1e-9);
        assertEquals("java.lang.Object@7", lock.beginArgs().get("monitor").asText());
        assertEquals(12, lock.beginArgs().get("bci").asInt());
        assertEquals(lock.beginArgs(), lock.endArgs(), "the end repeats the begin's arguments (speedscope matches them)");
        TimelineFile.Slice fail = f.slices("worker", "a.A.fail").get(0);
        assertEquals(2333.333, fail.begin(), 1e-9);
        assertEquals(2, fail.depth(), "inside run and the monitor");
        assertEquals("exception", fail.endArgs().get("exit").asText());
        List<JsonNode> allocs = f.instants("worker");
        assertEquals(1, allocs.size());
        assertEquals("new [I", allocs.get(0).get("name").asText());
        assertEquals("[I", allocs.get(0).get("args").get("class").asText());
        assertEquals(4, allocs.get(0).get("args").get("bci").asInt());
        assertEquals(1666.666, allocs.get(0).get("ts").asDouble(), 1e-9);

        // other: an exit without its entry begins at the start; a missing exit ends with the enclosing call
        List<TimelineFile.Slice> otherWork = f.slices("other", "a.A.work");
        assertEquals(2, otherWork.size());
        TimelineFile.Slice early = otherWork.stream().filter(s -> s.begin() == 0).findFirst().orElseThrow();
        assertTrue(early.beginArgs().get("begin").asText().contains("no entry record"));
        assertEquals(us(1.5), early.end(), 1e-9);
        TimelineFile.Slice unended = otherWork.stream().filter(s -> s.begin() > 0).findFirst().orElseThrow();
        TimelineFile.Slice otherRun = f.slices("other", "a.A.run").get(0);
        assertEquals(otherRun.end(), unended.end(), 1e-9);
        assertTrue(unended.endArgs().get("unfinished").asText().contains("no exit record"));

        // GC track: the GC as a slice with collector and cause, the fragment point as a global instant
        assertEquals(1, f.complete.size());
        JsonNode gc = f.complete.get(0);
        assertEquals("GC G1New", gc.get("name").asText());
        assertEquals(us(2.5), gc.get("ts").asDouble(), 1e-9);
        assertEquals(400.0, gc.get("dur").asDouble(), 1e-9);
        assertEquals("G1 Evacuation Pause", gc.get("args").get("cause").asText());
        assertEquals("G1New", gc.get("args").get("collector").asText());
        JsonNode point = f.instants.stream().filter(i -> i.get("name").asText().startsWith("fragment")).findFirst().orElseThrow();
        assertEquals("g", point.get("s").asText());
        assertEquals(7, point.get("args").get("gcId").asInt());
        assertEquals(us(2.5), point.get("ts").asDouble(), 1e-9);

        assertEquals("ns", f.root.get("displayTimeUnit").asText());
        assertTrue(f.root.get("otherData").get("timeResolution").asText().contains("stamp=every"));
        assertFalse(summary.cut());
        assertEquals(2, summary.threads());
        assertEquals(1, summary.earlyBegins());
        // worker: run, work, the monitor, fail; other: work begun early, run, work without exit
        assertEquals(7, f.slices.size());
        assertEquals(2 * 7 + 1 + 1 + 1, summary.events(), "begins and ends, the allocation, the GC and the fragment point");
    }

    @Test
    void theCapStopsNewSlicesButKeepsTheOpenCallsWhole() throws Exception {
        Path out = dir.resolve("cut.json");
        TimelineSummary summary;
        try (ChromeTraceWriter w = new ChromeTraceWriter(out, new TimelineOptions(null, null, 3, null), ORIGIN, ORIGIN + 10 * MS)) {
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 1, 1, 0);
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 2, 2, 0);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 3, 2, 9);
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 4, 4, 0);
            record(w, WORKER, MtlogFormat.OBJECT_ALLOC, 4.5, object(2, 1), 3);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 5, 4, 7);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 6, 1, 30);
            w.finish(info());
            summary = w.summary();
        }
        TimelineFile f = new TimelineFile(out);
        assertEquals(List.of("a.A.work", "a.A.run"), f.slices.stream().map(TimelineFile.Slice::name).toList());
        TimelineFile.Slice run = f.slices("worker", "a.A.run").get(0);
        assertEquals(us(6), run.end(), 1e-9, "the call open at the cut ends at its real end");
        assertNull(run.endArgs());
        assertTrue(summary.cut());
        assertEquals(3 * MS, summary.cutAtNanos());
        assertEquals(3, summary.cutRecords(), "the entry and exit of x and the allocation");
        assertTrue(f.root.get("otherData").get("cut").asText().contains("3 records after it are not shown"));
        assertTrue(f.instants.isEmpty());
    }

    @Test
    void inATimeWindowCallsBeginAndEndAtItsBounds() throws Exception {
        Path out = dir.resolve("window.json");
        TimelineOptions window = new TimelineOptions(TimeBound.parse("2ms"), TimeBound.parse("5ms"), 1000, null);
        try (ChromeTraceWriter w = new ChromeTraceWriter(out, window, ORIGIN, ORIGIN + 10 * MS)) {
            // what the converter passes for [2 ms, 5 ms): run was entered before, work is left after
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 3, 2, 0);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 3.5, 2, 9);
            record(w, WORKER, MtlogFormat.METHOD_EXIT, 4, 1, 30);
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 4.5, 2, 0);
            w.finish(info());
        }
        TimelineFile f = new TimelineFile(out);
        TimelineFile.Slice run = f.slices("worker", "a.A.run").get(0);
        assertEquals(us(2), run.begin(), 1e-9, "begun before the window: shown from its start");
        assertEquals(us(4), run.end(), 1e-9);
        List<TimelineFile.Slice> work = f.slices("worker", "a.A.work");
        assertEquals(us(3), work.get(0).begin(), 1e-9);
        assertEquals(1, work.get(0).depth(), "inside run, which began before the window");
        TimelineFile.Slice last = work.get(1);
        assertEquals(us(5), last.end(), 1e-9);
        assertEquals("still running at the end of the time window", last.endArgs().get("unfinished").asText());
    }

    @Test
    void aWriterClosedWithoutFinishLeavesNoFile() throws Exception {
        Path out = dir.resolve("none.json");
        try (ChromeTraceWriter w = new ChromeTraceWriter(out, new TimelineOptions(null, null, 10, null), ORIGIN, ORIGIN + MS)) {
            record(w, WORKER, MtlogFormat.METHOD_ENTRY, 0.1, 1, 0);
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "neither OUT nor a spool or temporary file");
        }
    }
}
