package dev.minitrace.views.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.views.DemoRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of the demo traced by the real agent, from the recording and from its {@code .mtlog}:
 * the counts its code implies in the tables and the flame graphs, and the recording's facts.
 */
class ReportIT {
    private static final String DEMO = "dev.minitrace.demo.";
    private static final int ORDERS = DemoRecording.WORKERS * DemoRecording.ORDERS;
    private static final int REJECTED = DemoRecording.WORKERS * DemoRecording.REJECTED;

    @TempDir
    Path dir;

    @Test
    void theReportOfTheRecordingHasTheDemosCountsTimesAndFacts() throws Exception {
        Path out = dir.resolve("demo.html");
        Report.Result r = Report.ofRecording(DemoRecording.get(), out, ConvertOptions.defaults(), Engines.byName(Engines.DEFAULT), null, null);
        assertFalse(r.lostData(), r.warnings().toString());
        assertEquals(Files.size(out), r.pageBytes());
        PageData d = new PageData(out);
        JsonNode facts = d.root.get("facts");
        assertTrue(facts.get("timed").asBoolean());
        assertTrue(facts.get("jvm").asText().contains(System.getProperty("java.vm.version")), "the child ran this JDK: " + facts);
        assertTrue(facts.get("collectors").asText().contains("G1"), facts.toString());
        assertTrue(facts.get("duration").asLong() > 0);
        checkCounts(d);
        JsonNode take = d.row("methods", "name", DEMO + "Warehouse.take");
        assertTrue(take.get("inclusive").asLong() >= take.get("self").asLong());
        long acquires = facts.get("records").get("LOCK_ACQUIRE").asLong();
        long holds = 0;
        for (JsonNode m : d.root.get("monitors")) {
            holds += m.get("holds").asLong();
            assertTrue(m.get("longest").asLong() <= m.get("holdTime").asLong(), m.toString());
        }
        assertEquals(acquires, holds, "the demo never reenters a monitor: a hold per acquire");
        assertTrue(d.root.get("threads").size() >= 5, "main and the four workers");
        for (JsonNode t : d.root.get("threads")) {
            long sum = 0;
            for (JsonNode b : t.get("activity")) {
                sum += b.asLong();
            }
            assertEquals(t.get("records").asLong(), sum, t.get("name").asText() + ": every record in a bin of the overview");
        }
    }

    @Test
    void theReportOfTheMtlogHasTheSameCountsAndNoTimes() throws Exception {
        Path log = dir.resolve("demo.mtlog");
        new Converter(ConvertOptions.defaults(), Engines.byName(Engines.DEFAULT)).convert(DemoRecording.get(), log, null);
        Path out = dir.resolve("demo-log.html");
        Report.Result r = Report.ofLog(log, out);
        assertFalse(r.lostData());
        PageData d = new PageData(out);
        assertFalse(d.root.get("facts").get("timed").asBoolean());
        assertTrue(d.root.get("facts").get("factsProblem").asText().contains(".mtlog"));
        checkCounts(d);
        for (JsonNode t : d.root.get("threads")) {
            assertNotNull(t.get("fragments"), "an .mtlog's overview is per fragment");
        }
    }

    /** What the demo's code fixes, whatever the interleaving of its threads. */
    private static void checkCounts(PageData d) {
        assertEquals(ORDERS, d.row("methods", "name", DEMO + "OrderWorker.process").get("calls").asLong());
        assertEquals(ORDERS, d.row("methods", "name", DEMO + "Warehouse.take").get("calls").asLong());
        JsonNode thrown = d.row("exceptions", "name", DEMO + "Warehouse.take");
        assertEquals(REJECTED, thrown.get("exits").asLong());
        assertEquals(REJECTED, thrown.get("thrown").asLong(), "take throws itself: no traced callee exits by exception before");
        assertEquals(1, d.root.get("exceptions").size(), "process catches: only take is left by an exception");
        Map<String, Long> classes = new HashMap<>();
        for (JsonNode c : d.root.get("allocationClasses")) {
            classes.put(c.get("class").asText(), c.get("count").asLong());
        }
        assertEquals(ORDERS, classes.get(DEMO + "Order"));
        assertEquals(REJECTED, classes.get(DEMO + "RejectedOrderException"));
        JsonNode site = null;
        for (JsonNode s : d.root.get("allocationSites")) {
            if (d.name(s.get("method")).equals(DEMO + "OrderWorker.makeOrder")) {
                site = s;
            }
        }
        assertNotNull(site);
        assertEquals(ORDERS, site.get("count").asLong());
        assertEquals(DEMO + "Order", site.get("class").asText());
        JsonNode warehouse = null;
        for (JsonNode m : d.root.get("monitors")) {
            if (m.get("monitor").asText().startsWith(DEMO + "Warehouse@")) {
                warehouse = m;
            }
        }
        assertNotNull(warehouse);
        assertEquals(ORDERS + 1, warehouse.get("acquisitions").asLong(), "take per order, and main's snapshot()");
        assertEquals(DemoRecording.WORKERS + 1, warehouse.get("threads").asLong());
        long monitors = 0;
        for (JsonNode m : d.root.get("monitors")) {
            monitors += m.get("acquisitions").asLong();
        }
        assertEquals(d.root.get("facts").get("records").get("LOCK_ACQUIRE").asLong(), monitors, "every acquire is in the monitors table");
        assertTrue(DemoRecording.WORKERS * DemoRecording.MONITORS <= monitors);
        JsonNode flame = d.root.get("flame");
        assertEquals(ORDERS, d.flameCalls(flame.get("merged"), DEMO + "OrderWorker.process"), "merged flame graph");
        long perThread = 0;
        for (JsonNode t : d.root.get("threads")) {
            JsonNode tree = flame.get("threads").get(t.get("id").asText());
            perThread += d.flameCalls(tree, DEMO + "OrderWorker.process");
            if (t.get("name").asText().startsWith("demo-worker-")) {
                assertEquals(DemoRecording.ORDERS, d.flameCalls(tree, DEMO + "OrderWorker.process"), t.toString());
            }
        }
        assertEquals(ORDERS, perThread);
    }
}
