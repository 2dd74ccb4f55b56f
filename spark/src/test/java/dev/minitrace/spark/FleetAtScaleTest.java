package dev.minitrace.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.ScaleWorkload;
import dev.minitrace.query.export.TraceExporter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet job over {@value #HOSTS} hosts' exports of {@value #JVMS} real JVMs each: 50
 * recordings. Each JVM is a child process running the converter's {@link ScaleWorkload} under the
 * real agent and MiniTrace's recording profile, with its own thread and iteration counts. Every host folder holds
 * an export of every recording, made by the exporter with that host's name: the {@code recording}
 * table's host is the one the exporter is given (JFR records none) and its pid the one JFR
 * recorded, so the 50 rows have 50 ids, {@value #HOSTS} hosts and {@value #JVMS} pids, each
 * checked against the child processes. Each fleet question's answer in Spark must equal DuckDB's
 * on the same folders, and the counts must follow from the workloads.
 */
class FleetAtScaleTest {
    private static final int JVMS = 10;
    private static final int HOSTS = 5;
    private static final Path AGENT = Paths.get(System.getProperty("minitrace.agent.jar", "../injector/target/minitrace-agent.jar"));
    private static final Path PROFILE = Paths.get("../jfc-profiles/minitrace.jfc");

    @TempDir
    static Path dir;
    static Path root;
    static SparkSession spark;
    static Connection duck;
    /** The child JVMs' pids. */
    static final Set<Long> pids = new TreeSet<>();
    /** Calls of ScaleWorkload.step over the whole fleet: every host holds every JVM's recording. */
    static long steps;

    @BeforeAll
    static void traceExportAndStart() throws Exception {
        List<Path> recordings = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Long>> children = new ArrayList<>();
            for (int j = 0; j < JVMS; j++) {
                int threads = 1 + j % 3;
                int rounds = 20 + 7 * j; // iterations of each thread
                Path jfr = dir.resolve("jvm" + j + ".jfr");
                recordings.add(jfr);
                steps += (long) HOSTS * threads * rounds;
                children.add(pool.submit(() -> trace(jfr, threads, rounds)));
            }
            for (Future<Long> c : children) {
                pids.add(c.get(5, TimeUnit.MINUTES));
            }
            root = dir.resolve("fleet");
            List<Future<?>> exports = new ArrayList<>();
            for (int h = 0; h < HOSTS; h++) {
                String host = "node-" + h;
                // hosts' folders at different depths, as a shared store collects them
                Path folder = h % 2 == 0 ? root.resolve(host) : root.resolve("rack-" + h % 3).resolve(host);
                exports.add(pool.submit(() -> {
                    for (Path jfr : recordings) {
                        TraceExporter.Result r = TraceExporter.export(jfr, folder, ConvertOptions.defaults(), host, null, null);
                        assertFalse(r.lostData(), r.warnings()::toString);
                    }
                    return null;
                }));
            }
            for (Future<?> e : exports) {
                e.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(JVMS, pids.size(), "every child JVM has a pid of its own");
        spark = FleetEngines.spark("fleet-at-scale");
        FleetTables.register(spark, root.toUri().toString());
        duck = FleetEngines.duckDb(root);
    }

    /** Runs the workload in a child JVM under the agent; returns the child's pid. */
    private static long trace(Path jfr, int threads, int rounds) throws IOException, InterruptedException {
        String classes = Paths.get(ScaleWorkload.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString();
        List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-javaagent:" + AGENT.toAbsolutePath() + "=include=" + ScaleWorkload.class.getName(),
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + PROFILE.toAbsolutePath() + ",dumponexit=true,maxsize=0",
                "-cp", classes, ScaleWorkload.class.getName(), Integer.toString(threads), Integer.toString(rounds));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child JVM finished");
        assertEquals(0, p.exitValue(), out);
        assertTrue(Files.size(jfr) > 0, out);
        return p.pid();
    }

    @AfterAll
    static void stop() throws Exception {
        FleetEngines.close(spark, duck);
    }

    private static List<String> answer(FleetQuestion q) throws Exception {
        List<String> inSpark = FleetEngines.rows(FleetJob.answer(spark, q));
        assertEquals(FleetEngines.inDuckDb(duck, q.sql()), inSpark, q.fileName());
        return inSpark;
    }

    @Test
    void fiftyRecordingsOfTenJvmsOnFiveHosts() throws Exception {
        String sql = "SELECT count(*), count(DISTINCT recording), count(DISTINCT host), count(DISTINCT pid) FROM recording";
        assertEquals(List.of("50|50|5|10"), FleetEngines.rows(spark.sql(sql)));
        assertEquals(FleetEngines.inDuckDb(duck, sql), FleetEngines.rows(spark.sql(sql)));
        Set<Long> recorded = new TreeSet<>();
        spark.sql("SELECT DISTINCT pid FROM recording").collectAsList().forEach(r -> recorded.add(r.getLong(0)));
        assertEquals(pids, recorded, "the pids JFR recorded are the child JVMs'");
        assertEquals(List.of("node-0|10", "node-1|10", "node-2|10", "node-3|10", "node-4|10"),
                FleetEngines.rows(spark.sql("SELECT host, count(*) FROM recording GROUP BY host ORDER BY host")));
    }

    @Test
    void methodsAcrossTheFleet() throws Exception {
        List<String> rows = answer(FleetQuestion.METHODS);
        String step = ScaleWorkload.class.getName() + "|step|50|" + steps + "|";
        assertTrue(rows.stream().anyMatch(r -> r.startsWith(step)), step + " in " + rows);
    }

    @Test
    void slowestCallsNameTheirJvm() throws Exception {
        List<String> rows = answer(FleetQuestion.SLOWEST_CALLS);
        List<String> steps = rows.stream().filter(r -> r.startsWith(ScaleWorkload.class.getName() + "|step|")).toList();
        assertEquals(3, steps.size(), rows::toString);
        for (String r : steps) {
            String[] f = r.split("\\|");
            assertTrue(f[4].matches("node-[0-4]") && pids.contains(Long.parseLong(f[5])) && f[7].startsWith("scale-"), r);
        }
    }

    @Test
    void lockHoldsAcrossTheFleet() throws Exception {
        assertEquals("java.lang.Object|50|" + steps, prefix(answer(FleetQuestion.LOCK_HOLDS), "java.lang.Object|", 3));
    }

    @Test
    void allocationsAcrossTheFleet() throws Exception {
        List<String> rows = answer(FleetQuestion.ALLOCATIONS);
        List<String> ints = rows.stream().filter(r -> r.startsWith(ScaleWorkload.class.getName() + "|step|") && r.contains("|[I|"))
                .toList();
        assertEquals(1, ints.size(), rows::toString);
        assertTrue(ints.get(0).endsWith("|[I|50|" + steps), ints::toString);
    }

    /** The first {@code fields} fields of the one row starting with {@code start}. */
    private static String prefix(List<String> rows, String start, int fields) {
        List<String> match = rows.stream().filter(r -> r.startsWith(start)).toList();
        assertEquals(1, match.size(), rows::toString);
        return String.join("|", List.of(match.get(0).split("\\|")).subList(0, fields));
    }
}
