package dev.minitrace.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.TestRecordings;
import dev.minitrace.query.TraceDatabase;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.export.TraceExporter;
import dev.minitrace.query.parquet.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet job's questions in Spark ({@code local[2]}, one session for every case) over three
 * JVMs' worth of exported traces in a folder tree (one export alone, two sharing a folder two
 * levels down), checked against the known content of the traces and against DuckDB's answer to
 * the same SQL on the same files. Spark 4.0.1 runs on JDK 17 and 21: its Hadoop calls
 * {@code Subject.getSubject}, which JDK 24 and later no longer support, so on those the test is
 * skipped, saying so.
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
        Assumptions.assumeTrue(Runtime.version().feature() < 24, "Spark 4.0.1 needs JDK 17 or 21 (its Hadoop calls "
                + "Subject.getSubject, unsupported from JDK 24 on): the Spark test runs on JDK 17 in CI");
        root = dir.resolve("fleet");
        for (int j = 0; j < JVMS.length; j++) {
            TestRecordings.Traced t = TestRecordings.record(dir.resolve("jvm" + j + ".jfr"), JVMS[j][0], JVMS[j][1]);
            Path folder = j == 0 ? root.resolve("a") : root.resolve("x").resolve("shared");
            TraceExporter.Result r = TraceExporter.export(t.file(), folder, ConvertOptions.defaults(), HOSTS[j], null, null);
            assertFalse(r.lostData(), r.warnings()::toString);
            calls += 2L * JVMS[j][0] * JVMS[j][1];
        }
        spark = SparkSession.builder().master("local[2]").appName("fleet-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
        FleetTables.register(spark, root.toUri().toString());
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            for (TableSchema t : TraceTables.ALL) {
                s.execute("CREATE VIEW " + t.name() + " AS SELECT * FROM read_parquet("
                        + TraceDatabase.literal(root + "/**/" + t.name() + "/*/*.parquet") + ", hive_partitioning = true, "
                        + "hive_types = {'recording': VARCHAR})");
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.stop();
        }
        if (duck != null) {
            duck.close();
        }
    }

    private static List<String> inSpark(FleetQuestion q) {
        List<String> rows = new ArrayList<>();
        for (Row r : FleetJob.answer(spark, q).collectAsList()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                b.append(i == 0 ? "" : "|").append(r.isNullAt(i) ? "null" : String.valueOf(r.get(i)));
            }
            rows.add(b.toString());
        }
        return rows;
    }

    private static List<String> inDuckDb(FleetQuestion q) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(q.sql())) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i == 1 ? "" : "|").append(String.valueOf(rs.getObject(i)));
                }
                rows.add(b.toString());
            }
        }
        return rows;
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
