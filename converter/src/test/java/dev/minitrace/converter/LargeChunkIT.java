package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real agent and JFR, in a child JVM: three threads trace a workload whose trace is known
 * record for record, once in JFR's default chunks and once in one chunk of up to 200 MB
 * ({@code maxchunksize=200m}), the shape in which the converter used to write early and scramble
 * the workers' traces. Converted under a bound far below a chunk's records (so records wait on
 * disk and merge back), both engines, both layouts: every worker's trace is exact, nothing is
 * called lost, no temporary file is left. In the large chunk the thread layout keeps everything in
 * memory: the buffer events JFR writes out of order are put back in order before decoding.
 */
class LargeChunkIT {
    private static final Path AGENT = Paths.get(System.getProperty("minitrace.agent.jar", "../injector/target/minitrace-agent.jar"));
    private static final Path PROFILE = Paths.get("../jfc-profiles/minitrace.jfc");
    private static final int THREADS = 3;
    private static final int ITERATIONS = 200_000;

    @TempDir
    static Path dir;

    @BeforeAll
    static void agent() {
        Assumptions.assumeTrue(Files.exists(AGENT), "no agent jar at " + AGENT + " (build the injector first)");
    }

    private static Path record(String name, List<String> extra) throws Exception {
        Path jfr = dir.resolve(name + ".jfr");
        List<String> cmd = new ArrayList<>(extra);
        cmd.addAll(List.of("-javaagent:" + AGENT.toAbsolutePath() + "=include=" + ScaleWorkload.class.getName(),
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + PROFILE.toAbsolutePath() + ",maxsize=0",
                "-cp", ChildJvm.classpath(), ScaleWorkload.class.getName(), Integer.toString(THREADS), Integer.toString(ITERATIONS)));
        ChildJvm.Result r = ChildJvm.run(cmd);
        assertEquals(0, r.status(), r.output());
        return jfr;
    }

    @ParameterizedTest(name = "{0}, bound {2}")
    @CsvSource({"default-chunks, '', 20000", "one-large-chunk, -XX:FlightRecorderOptions:maxchunksize=200m, 1000000"})
    void everyWorkerTraceIsExact(String name, String option, String bound) throws Exception {
        Path jfr = record(name, option.isEmpty() ? List.of() : List.of(option));
        int chunks = JfrChunks.scan(jfr).chunks().size();
        if (name.equals("one-large-chunk")) {
            assertEquals(1, chunks, "the workload fits one chunk of 200 MB");
        }
        SystemProperties.with("minitrace.maxPendingEvents", bound, () -> {
            for (boolean global : new boolean[] {false, true}) {
                Path out = dir.resolve(name + "-" + global + ".mtlog");
                ConvertOptions o = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
                ConversionReport report = BothEngines.convert(o, jfr, out);
                assertEquals(List.of(), report.warnings(), name + ", global " + global);
                assertFalse(report.lostData());
                if (!global && name.equals("one-large-chunk")) {
                    // JFR writes the workers' buffer events out of order within the chunk (4.1 M of
                    // 4.8 M records came ahead of an earlier event of their thread, JDK 17); put back
                    // in order before decoding, they are written as they come instead of waiting on
                    // disk (without it: 2.0 M records on disk)
                    assertEquals(0, report.spilledRecords(), report.reorderedRecords() + " records put back in order");
                }
                if (global) {
                    // written at chunk ends only: most of a chunk waits on disk under this bound
                    assertTrue(report.spilledRecords() > 0, "a bound of " + bound + " must make records wait on disk");
                }
                MtlogContent c = MtlogContent.read(out);
                for (int t = 0; t < THREADS; t++) {
                    checkWorker(c.withoutGc("scale-" + t), c.info, "scale-" + t + " (" + name + ", global " + global + ")");
                }
                Files.delete(out);
            }
        });
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spill") || n.endsWith(".ahead") || n.endsWith(".tmp")).toList());
        }
    }

    /** lambda entry, work entry, ITERATIONS times the eight records of step, work exit, lambda exit. */
    private static void checkWorker(List<String> lines, MtlogInfo info, String what) {
        assertEquals(4 + 8L * ITERATIONS, lines.size(), what + ": records");
        List<String> named = new ArrayList<>(lines.size());
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f[0].equals("ARRAY_LENGTH")) {
                named.add(f[0] + " " + f[1]);
            } else if (f[0].startsWith("METHOD_")) {
                MtlogInfo.MethodInfo m = info.methods().get(Long.parseLong(f[1]));
                named.add(f[0] + " " + m.methodName());
            } else {
                named.add(f[0] + " " + f[1].substring(0, f[1].indexOf('@')));
            }
        }
        assertEquals("METHOD_ENTRY lambda$main$0", named.get(0), what);
        assertEquals("METHOD_ENTRY work", named.get(1), what);
        List<String> step = List.of("METHOD_ENTRY step", "METHOD_ENTRY leaf", "METHOD_EXIT leaf", "LOCK_ACQUIRE java.lang.Object",
                "LOCK_RELEASE java.lang.Object", "OBJECT_ALLOC [I", "ARRAY_LENGTH 1", "METHOD_EXIT step");
        for (int i = 0; i < ITERATIONS; i++) {
            for (int k = 0; k < step.size(); k++) {
                int at = 2 + step.size() * i + k;
                if (!step.get(k).equals(named.get(at))) {
                    assertEquals(step.get(k), named.get(at), what + ": record " + at + " (iteration " + i + ")");
                }
                // the same instruction every iteration: the raw line repeats a step later
                if (i > 0 && !lines.get(at).equals(lines.get(at - step.size())) && !lines.get(at).startsWith("OBJECT_ALLOC")) {
                    assertEquals(lines.get(at - step.size()), lines.get(at), what + ": record " + at);
                }
            }
        }
        assertEquals("METHOD_EXIT work", named.get(named.size() - 2), what);
        assertEquals("METHOD_EXIT lambda$main$0", named.get(named.size() - 1), what);
    }
}
