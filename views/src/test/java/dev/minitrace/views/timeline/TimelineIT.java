package dev.minitrace.views.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.views.DemoRecording;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo traced by the real agent, exported as a timeline: per worker exactly the calls, monitor
 * holds and allocations its code makes, every track's slices balanced and nested, and the GC
 * slices and fragment points those JFR's own reader finds in the recording.
 */
class TimelineIT {
    private static final String DEMO = "dev.minitrace.demo.";

    @TempDir
    Path dir;

    @Test
    void theDemosTimelineHasItsExactSlicesGcsAndFragmentPoints() throws Exception {
        Path jfr = DemoRecording.get();
        Path out = dir.resolve("demo.json");
        Timeline.Result r = Timeline.export(jfr, out, ConvertOptions.defaults(), new TimelineOptions(null, null, Long.MAX_VALUE, null),
                Engines.byName(Engines.DEFAULT), null, null);
        assertFalse(r.conversion().lostData(), r.conversion().warnings().toString());
        assertFalse(r.timeline().cut());
        TimelineFile f = new TimelineFile(out); // every track balanced and nested, or it fails
        int accepted = DemoRecording.ORDERS - DemoRecording.REJECTED;
        for (int w = 0; w < DemoRecording.WORKERS; w++) {
            String t = "demo-worker-" + w;
            assertTrue(f.threadNames.containsValue(t), t);
            assertEquals(1, f.slices(t, DEMO + "OrderWorker.run").size(), t);
            assertEquals(DemoRecording.ORDERS, f.slices(t, DEMO + "OrderWorker.process").size(), t);
            List<TimelineFile.Slice> take = f.slices(t, DEMO + "Warehouse.take");
            assertEquals(DemoRecording.ORDERS, take.size(), t);
            assertEquals(DemoRecording.REJECTED, take.stream().filter(s -> s.endArgs() != null
                    && "exception".equals(s.endArgs().path("exit").asText())).count(), t + ": rejected orders leave take by exception");
            long locks = f.slices.stream().filter(s -> t.equals(f.threadNames.get(s.tid())) && s.name().startsWith("lock ")).count();
            assertEquals(DemoRecording.MONITORS, locks, t + ": a slice per monitor acquire/release pair");
            // run > process > price > discount x 5 (quantity up to 5: discount recurses once per unit)
            long tid = f.threadNames.entrySet().stream().filter(e -> e.getValue().equals(t)).findFirst().orElseThrow().getKey();
            assertEquals(8, f.maxDepth.get(tid), t + ": deepest nesting");
            Map<String, Integer> allocs = new HashMap<>();
            for (JsonNode i : f.instants(t)) {
                allocs.merge(i.get("args").get("class").asText(), 1, Integer::sum);
            }
            assertEquals(DemoRecording.ORDERS, allocs.get(DEMO + "Order"), t);
            assertEquals(accepted, allocs.get("[J"), t + ": one long[] per accepted order");
            assertEquals(DemoRecording.REJECTED, allocs.get(DEMO + "RejectedOrderException"), t);
        }

        // The GCs and their first pauses as JFR's own reader sees them.
        long start = JfrChunks.scan(jfr).startNanos();
        Map<Long, RecordedEvent> gcs = new TreeMap<>();
        Map<Long, Long> firstPause = new TreeMap<>();
        try (RecordingFile rf = new RecordingFile(jfr)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                    gcs.put(e.getLong("gcId"), e);
                } else if (e.getEventType().getName().equals("jdk.GCPhasePause")) {
                    firstPause.merge(e.getLong("gcId"), nanos(e.getStartTime()), Math::min);
                }
            }
        }
        assertTrue(gcs.size() >= 1, "System.gc() made a GC");
        assertEquals(gcs.size(), f.complete.size());
        for (JsonNode x : f.complete) {
            RecordedEvent e = gcs.get(x.get("args").get("gcId").asLong());
            assertEquals("GC " + e.getString("name"), x.get("name").asText());
            assertEquals(e.getString("cause"), x.get("args").get("cause").asText());
            assertEquals((nanos(e.getStartTime()) - start) / 1000.0, x.get("ts").asDouble(), 0.0011);
            assertEquals(e.getDuration().toNanos() / 1000.0, x.get("dur").asDouble(), 0.0011);
        }
        List<JsonNode> points = f.instants.stream().filter(i -> "g".equals(i.path("s").asText())).toList();
        assertFalse(points.isEmpty(), "the GCs of G1 move objects: fragment points");
        for (JsonNode p : points) {
            long gc = p.get("args").get("gcId").asLong();
            assertEquals((firstPause.get(gc) - start) / 1000.0, p.get("ts").asDouble(), 0.0011, "at the GC's first pause");
        }
    }

    private static long nanos(java.time.Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
