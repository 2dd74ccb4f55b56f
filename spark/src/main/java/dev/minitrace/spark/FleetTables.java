package dev.minitrace.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Makes every exported table under a root folder a temporary view: the table folders
 * ({@code <export>/<table>/recording=<id>/}) are found through Hadoop's file system API, so the
 * root can be local, HDFS or an object store alike, at the root or up to {@value #MAX_DEPTH}
 * folders below it; Spark reads them all as one table whose {@code recording} column comes from
 * the partition folders. Each table is then the view that {@code mt query} makes of the files
 * ({@code views/<table>.sql}, the SQL of the query module's {@code TableViews}, which a test holds
 * equal): the files hold no column or row that others give (docs/query.md, "Stored and derived
 * columns").
 */
public final class FleetTables {
    /** How deep below the root an export folder may lie. */
    static final int MAX_DEPTH = 4;

    /** The tables of an export (docs/query.md). */
    static final List<String> TABLES = List.of("records", "calls", "stacks", "locks", "threads", "classes", "methods", "gcs", "fields", "recording");

    private FleetTables() {
    }

    /** Registers a view per table over every export under {@code root}; returns the folders of {@code records} found. */
    public static List<String> register(SparkSession spark, String root) throws IOException {
        // The partition values are recording ids: text, never numbers or dates.
        spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        List<String> exports = null;
        for (String table : TABLES) {
            List<String> dirs = find(root, table, conf);
            if (dirs.isEmpty()) {
                throw new IOException("no exported table '" + table + "' under " + root
                        + " (export traces with: mt export --format parquet TRACE FOLDER)");
            }
            // Spark infers partitions under one root per read: each export folder is read alone
            Dataset<Row> data = null;
            for (String d : dirs) {
                Dataset<Row> one = spark.read().parquet(d);
                data = data == null ? one : data.unionByName(one);
            }
            data.createOrReplaceTempView(FILES + table);
            if (exports == null) {
                exports = dirs;
            }
        }
        for (String table : TABLES) {
            spark.sql("CREATE OR REPLACE TEMPORARY VIEW " + table + " AS " + view(table));
        }
        return exports;
    }

    /** The prefix of the views of the tables' files, over which each table's view is made. */
    static final String FILES = "files_";

    /** The SQL of table {@code table}'s view over the views of the files ({@link #FILES}). */
    static String view(String table) {
        try (InputStream in = FleetTables.class.getResourceAsStream("views/" + table + ".sql")) {
            if (in == null) {
                throw new IllegalStateException("no views/" + table + ".sql in the job's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folders named {@code table} at {@code root} and up to {@link #MAX_DEPTH} levels below it. */
    static List<String> find(String root, String table, Configuration conf) throws IOException {
        Path base = new Path(root);
        FileSystem fs = base.getFileSystem(conf);
        List<String> found = new ArrayList<>();
        StringBuilder pattern = new StringBuilder();
        for (int depth = 0; depth <= MAX_DEPTH; depth++) {
            FileStatus[] matches = fs.globStatus(new Path(base, pattern + table));
            if (matches != null) {
                for (FileStatus s : matches) {
                    if (s.isDirectory()) {
                        found.add(s.getPath().toString());
                    }
                }
            }
            pattern.append("*/");
        }
        return found;
    }
}
