package dev.minitrace.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.TestRecordings;
import dev.minitrace.query.export.TraceExporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet job's questions in Spark ({@code local[2]}, one session for every case) over three
 * JVMs' worth of exported traces in a folder tree (one export alone, two sharing a folder two
 * levels down), checked against the known content of the traces and against DuckDB's answer to
 * the same SQL on the same files.
 */
class FleetJobTest {
    /** Threads and rounds of each traced JVM; every worker runs 2 phases of ROUNDS rounds. */
    private static final int[][] JVMS = {{2, 10}, {3, 5}, {1, 20}};
    private static final String[] HOSTS = {"alpha", "beta", "gamma"};

    @TempDir
    static Path dir;
    static Path root;
    static SparkSession spark;
    static Connection duck;
    static long calls;

    @BeforeAll
    static void exportAndStart() throws Exception {
        root = dir.resolve("fleet");
        for (int j = 0; j < JVMS.length; j++) {
            TestRecordings.Traced t = TestRecordings.record(dir.resolve("jvm" + j + ".jfr"), JVMS[j][0], JVMS[j][1]);
            Path folder = j == 0 ? root.resolve("a") : root.resolve("x").resolve("shared");
            TraceExporter.Result r = TraceExporter.export(t.file(), folder, ConvertOptions.defaults(), HOSTS[j], null, null);
            assertFalse(r.lostData(), r.warnings()::toString);
            calls += 2L * JVMS[j][0] * JVMS[j][1];
        }
        spark = FleetEngines.spark("fleet-test");
        FleetTables.register(spark, root.toUri().toString());
        duck = FleetEngines.duckDb(root);
    }

    @AfterAll
    static void stop() throws Exception {
        FleetEngines.close(spark, duck);
    }

    private static List<String> inSpark(FleetQuestion q) {
        return FleetEngines.rows(FleetJob.answer(spark, q));
    }

    private static List<String> inDuckDb(FleetQuestion q) throws Exception {
        return FleetEngines.inDuckDb(duck, q.sql());
    }

    @Test
    void everyExportInTheTreeIsRead() {
        assertEquals(3L, spark.sql("SELECT count(*) FROM recording").first().getLong(0));
        assertEquals(List.of("alpha", "beta", "gamma"), spark.sql("SELECT host FROM recording ORDER BY host").collectAsList().stream()
                .map(r -> r.getString(0)).toList());
    }

    @Test
    void callsAndTimePerMethodAcrossJvms() throws Exception {
        List<String> spark = inSpark(FleetQuestion.METHODS);
        assertEquals(inDuckDb(FleetQuestion.METHODS), spark);
        // each round: run() { <init>; work() }, in every JVM
        for (String method : List.of("demo.Outer|run|3|" + calls + "|", "demo.Inner|<init>|3|" + calls + "|",
                "demo.Inner|work|3|" + calls + "|")) {
            assertTrue(spark.stream().anyMatch(r -> r.startsWith(method)), method + " in " + spark);
        }
        assertEquals(3, spark.size());
    }

    @Test
    void slowestCallsPerMethodWithTheirJvm() throws Exception {
        List<String> spark = inSpark(FleetQuestion.SLOWEST_CALLS);
        assertEquals(inDuckDb(FleetQuestion.SLOWEST_CALLS), spark);
        assertEquals(9, spark.size(), "3 per method");
        for (String r : spark) {
            assertTrue(r.matches("demo\\.\\w+\\|[^|]+\\|[123]\\|\\d+\\|(alpha|beta|gamma)\\|(\\d+|null)\\|[^|]+\\|worker-\\d\\|\\d+"), r);
        }
    }

    @Test
    void lockHoldsPerMonitorClass() throws Exception {
        List<String> spark = inSpark(FleetQuestion.LOCK_HOLDS);
        assertEquals(inDuckDb(FleetQuestion.LOCK_HOLDS), spark);
        assertEquals(1, spark.size(), spark::toString);
        assertTrue(spark.get(0).startsWith("java.lang.Object|3|" + calls + "|"), spark::toString);
    }

    @Test
    void allocationsPerSite() throws Exception {
        List<String> spark = inSpark(FleetQuestion.ALLOCATIONS);
        assertEquals(inDuckDb(FleetQuestion.ALLOCATIONS), spark);
        assertEquals(List.of("demo.Outer|run|4|[I|3|" + calls), spark);
    }

    @Test
    void theJobWritesEachAnswer() throws Exception {
        Path out = dir.resolve("answers");
        for (FleetQuestion q : FleetQuestion.values()) {
            FleetJob.answer(spark, q).write().parquet(out.resolve(q.fileName()).toUri().toString());
            assertTrue(Files.isDirectory(out.resolve(q.fileName())), q.fileName());
        }
        assertEquals(inSpark(FleetQuestion.ALLOCATIONS).size(),
                spark.read().parquet(out.resolve("allocations").toUri().toString()).count());
    }
}
