package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every collector of the running JDK: a child JVM records the known trace under that collector;
 * the fragments written under {@code moving} and {@code all} follow the documented table and the
 * fragment rule, {@code *gcs} lists every GC, and the trace itself is exact.
 */
class CollectorsIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "-XX:+UseSerialGC;DefNew,SerialOld",
        "-XX:+UseParallelGC;ParallelScavenge,ParallelOld",
        "-XX:+UseG1GC;G1New,G1Old,G1Full",
        "-XX:+UseZGC;Z,ZGC Minor,ZGC Major",
        "-XX:+UseShenandoahGC;Shenandoah",
    })
    void fragmentsFollowTheTable(String gcOption, String names) throws Exception {
        Assumptions.assumeTrue(ChildJvm.supports(gcOption), "this JDK has no " + gcOption);
        Path jfr = dir.resolve("gc.jfr");
        List<String> args = new ArrayList<>(List.of(gcOption, "-Xmx64m", "-cp", ChildJvm.classpath()));
        if (gcOption.contains("G1")) {
            args.add("-XX:InitiatingHeapOccupancyPercent=1"); // so that a concurrent cycle (not moving) happens too
        }
        args.addAll(List.of(GcWorkload.class.getName(), jfr.toString()));
        ChildJvm.Result r = ChildJvm.run(args);
        assertEquals(0, r.status(), r.output());

        Set<String> seen = new TreeSet<>();
        int gcEvents = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                seen.add(e.getString("name"));
                gcEvents++;
            }
        }
        assertTrue(Set.of(names.split(",")).containsAll(seen), gcOption + " collector names " + seen + " not in the table");
        assertTrue(seen.size() >= 2 || gcOption.contains("Shenandoah") || gcOption.contains("ZGC") && seen.contains("Z"),
                gcOption + ": the workload makes the collector run more than one kind of GC: " + seen);
        for (FragmentPolicy policy : FragmentPolicy.values()) {
            Path out = dir.resolve(policy + ".mtlog");
            ConvertOptions o = new ConvertOptions(false, policy, null, null, null, ConvertOptions.ALL_TYPES);
            ConversionReport report = BothEngines.convert(o, jfr, out);
            MtlogContent c = MtlogContent.read(out);
            assertEquals(gcEvents, c.info.gcs().size(), "*gcs lists every GC");
            assertEquals(Oracles.recordingFile(jfr), c.traceCounts());
            if (policy == FragmentPolicy.MOVING) {
                assertEquals(Oracles.jmc(jfr), c.traceCounts());
            }
            for (String worker : List.of("worker-0", "worker-1")) {
                assertEquals(TestRecordings.expectedTrace(worker, 3000), c.withoutGc(worker), worker);
            }
            if (policy != FragmentPolicy.NONE) {
                assertEquals(ConverterTest.independentFragments(jfr, policy), ConverterTest.gcPositions(c), gcOption + " " + policy);
            }
            checkPolicy(policy, c, gcOption);
            assertFalse(report.lostData(), report.warnings().toString());
        }
    }

    private static void checkPolicy(FragmentPolicy policy, MtlogContent c, String gcOption) {
        MtlogInfo info = c.info;
        Set<String> fragmentNames = new TreeSet<>();
        for (List<String> lines : c.byThread.values()) {
            for (String s : lines) {
                if (s.startsWith("GC ")) {
                    fragmentNames.add(info.gcs().get(Long.parseLong(s.substring(3))).name());
                }
            }
        }
        switch (policy) {
            case NONE -> assertTrue(fragmentNames.isEmpty());
            case MOVING -> {
                assertFalse(fragmentNames.contains("G1Old"), "G1's concurrent cycle does not move objects");
                assertFalse(fragmentNames.isEmpty(), gcOption + ": moving GCs start fragments");
                // the System.gc() between the phases cuts every worker; a concurrent collector may
                // fold the request into a cycle already running (then no GC has cause System.gc())
                boolean systemGc = info.gcs().values().stream().anyMatch(g -> g.cause().equals("System.gc()"));
                assertTrue(systemGc || gcOption.contains("Shenandoah") || gcOption.contains("ZGC"),
                        gcOption + ": a stop-the-world collector runs a GC for System.gc()");
                if (systemGc) {
                    long id = ConverterTest.systemGcId(info);
                    for (String w : List.of("worker-0", "worker-1")) {
                        assertTrue(c.byThread.get(w).contains("GC " + id), gcOption + ": " + w + " is cut by the System.gc()");
                    }
                }
            }
            case ALL -> {
                Map<Long, MtlogInfo.GcInfo> gcs = info.gcs();
                assertTrue(gcs.values().stream().map(MtlogInfo.GcInfo::name).anyMatch(fragmentNames::contains));
            }
        }
    }
}
