package dev.minitrace.spark;

import dev.minitrace.query.TableViews;
import dev.minitrace.query.TraceDatabase;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The two engines the fleet tests compare: Spark in local mode with the job's views, and DuckDB
 * reading the same folders; answers as text rows ({@code a|b|c}) so the two compare exactly.
 */
final class FleetEngines {
    private FleetEngines() {
    }

    /** A Spark session in {@code local[2]} on the loopback address, without its web UI. */
    static SparkSession spark(String name) {
        return SparkSession.builder().master("local[2]").appName(name)
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
    }

    /** An in-memory DuckDB with a view per table over every export under {@code root}, at any depth. */
    static Connection duckDb(Path root) throws Exception {
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement s = duck.createStatement()) {
            for (TableSchema t : TraceTables.ALL) {
                s.execute("CREATE VIEW " + t.name() + " AS " + TableViews.select(t, name -> "read_parquet("
                        + TraceDatabase.literal(root + "/**/" + name + "/*/*.parquet") + ", hive_partitioning = true, "
                        + "hive_types = {'recording': VARCHAR})"));
            }
        }
        return duck;
    }

    /** Stops the session and closes the database, either of which may be null (set-up failed). */
    static void close(SparkSession spark, Connection duck) throws Exception {
        if (spark != null) {
            spark.stop();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** Spark's answer, as the job computes it. */
    static List<String> rows(Dataset<Row> answer) {
        List<String> rows = new ArrayList<>();
        for (Row r : answer.collectAsList()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                b.append(i == 0 ? "" : "|").append(r.isNullAt(i) ? "null" : String.valueOf(r.get(i)));
            }
            rows.add(b.toString());
        }
        return rows;
    }

    /** DuckDB's answer to {@code sql}. */
    static List<String> inDuckDb(Connection duck, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
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
}
