package dev.minitrace.query.parquet;

import static dev.minitrace.query.parquet.ParquetFile.NULL_INT;
import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;
import static dev.minitrace.query.parquet.TableSchema.Kind.BOOLEAN;
import static dev.minitrace.query.parquet.TableSchema.Kind.INT;
import static dev.minitrace.query.parquet.TableSchema.Kind.LONG;
import static dev.minitrace.query.parquet.TableSchema.Kind.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table of every column kind, nullable and not, written across several slices, row groups and
 * two parts encoded on two threads, and read back by DuckDB value for value.
 */
class TableWriterTest {
    private static final TableSchema T = new TableSchema("t", List.of(
            TableSchema.required("id", LONG),
            TableSchema.optional("maybe", LONG),
            TableSchema.optionalRandom("random", LONG),
            TableSchema.optional("small", INT),
            TableSchema.optional("flag", BOOLEAN),
            TableSchema.required("kind", STRING),
            TableSchema.optional("text", STRING)));

    @TempDir
    Path dir;

    private static long random(long i) {
        return (i * 0x9E3779B97F4A7C15L) >>> 1;
    }

    @Test
    void everyValueAndEveryNullComesBack() throws Exception {
        int rows = 3 * TableWriter.SLICE + 123;
        Path file = dir.resolve("*.parquet");
        try (TableWriter w = new TableWriter(T, dir, 2, 3000, 1L << 20, Map.of("k", "v"))) {
            w.codes(T.index("kind"), "zero", "one", "two");
            for (long i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = i;
                w.longs[1][r] = i % 3 == 0 ? NULL_LONG : -i;
                w.longs[2][r] = i % 5 == 0 ? NULL_LONG : random(i);
                w.ints[3][r] = i % 7 == 0 ? NULL_INT : (int) (i % 100);
                w.bytes[4][r] = (byte) (i % 4 == 3 ? -1 : i % 2);
                w.bytes[5][r] = (byte) (i % 3);
                w.string(r, 6, i % 2 == 0 ? null : "row " + i);
            }
            assertEquals(rows, w.rows());
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String scan = "read_parquet('" + file + "')";
            List<String> bad = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + scan + " ORDER BY id")) {
                long i = 0;
                while (rs.next()) {
                    String expected = i + "|" + (i % 3 == 0 ? null : -i) + "|" + (i % 5 == 0 ? null : random(i)) + "|"
                            + (i % 7 == 0 ? null : i % 100) + "|" + (i % 4 == 3 ? null : i % 2 == 1) + "|"
                            + List.of("zero", "one", "two").get((int) (i % 3)) + "|" + (i % 2 == 0 ? null : "row " + i);
                    String actual = rs.getObject(1) + "|" + rs.getObject(2) + "|" + rs.getObject(3) + "|" + rs.getObject(4) + "|"
                            + rs.getObject(5) + "|" + rs.getObject(6) + "|" + rs.getObject(7);
                    if (!expected.equals(actual) && bad.size() < 5) {
                        bad.add(expected + " != " + actual);
                    }
                    i++;
                }
                assertEquals(rows, i);
            }
            assertEquals(List.of(), bad);
            try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT (file_name, row_group_id)), min(compression), max(compression) FROM parquet_metadata('"
                    + file + "')")) {
                rs.next();
                assertEquals(4, rs.getInt(1), "slices go to the two parts in turn; a row group ends with the slice that passes 3000 rows");
                assertEquals("ZSTD", rs.getString(2));
                assertEquals("ZSTD", rs.getString(3));
            }
            try (ResultSet rs = s.executeQuery("SELECT encodings FROM parquet_metadata('" + file + "') WHERE path_in_schema = 'random'")) {
                while (rs.next()) {
                    assertEquals("PLAIN", rs.getString(1), "random values are stored plain");
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT value FROM parquet_kv_metadata('" + file + "') WHERE key = 'k'")) {
                assertTrue(rs.next());
                assertEquals("v", new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void anAbandonedFileIsNotAParquetFile() throws Exception {
        TableWriter w = new TableWriter(T, dir, 1, 5000, 1L << 20, Map.of()).background("test-encoder");
        Path file = dir.resolve(TableWriter.partFile(0));
        for (int i = 0; i < 2 * TableWriter.SLICE; i++) {
            int r = w.next();
            w.longs[0][r] = i;
            w.bytes[5][r] = 0;
        }
        w.codes(T.index("kind"), "zero");
        w.abandon();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            assertThrows(java.sql.SQLException.class, () -> s.executeQuery("SELECT count(*) FROM read_parquet('" + file + "')"),
                    "no footer: readers reject it");
        }
    }
}
