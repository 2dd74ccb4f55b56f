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
import java.util.Arrays;
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
            TableSchema.optional("random", LONG, TableSchema.Encoding.PLAIN),
            TableSchema.optional("small", INT),
            TableSchema.optional("flag", BOOLEAN),
            TableSchema.required("kind", STRING),
            TableSchema.optional("text", STRING)));

    @TempDir
    Path dir;

    private static long random(long i) {
        return (i * 0x9E3779B97F4A7C15L) >>> 1;
    }

    /** Fills row {@code i} of {@link #T}: every column kind, with nulls in their own patterns. */
    private static void fill(TableWriter w, long i) throws java.io.IOException {
        int r = w.next();
        w.longs[0][r] = i;
        w.longs[1][r] = i % 3 == 0 ? NULL_LONG : -i;
        w.longs[2][r] = i % 5 == 0 ? NULL_LONG : random(i);
        w.ints[3][r] = i % 7 == 0 ? NULL_INT : (int) (i % 100);
        w.bytes[4][r] = (byte) (i % 4 == 3 ? -1 : i % 2);
        w.bytes[5][r] = (byte) (i % 3);
        w.string(r, 6, i % 2 == 0 ? null : "row " + i);
    }

    /** Reads {@code scan} back in the order it gives and checks row {@code i} is what {@link #fill} wrote for id {@code i}. */
    private static void assertRows(Statement s, String scan, long rows) throws Exception {
        List<String> bad = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + scan)) {
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
    }

    @Test
    void everyValueAndEveryNullComesBack() throws Exception {
        int rows = 3 * TableWriter.SLICE + 123;
        Path file = dir.resolve("*.parquet");
        try (TableWriter w = new TableWriter(T, dir, 2, 3000, 1L << 20, Map.of("k", "v"))) {
            w.codes(T.index("kind"), "zero", "one", "two");
            for (long i = 0; i < rows; i++) {
                fill(w, i);
            }
            assertEquals(rows, w.rows());
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            assertRows(s, "read_parquet('" + file + "') ORDER BY id", rows);
            try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT (file_name, row_group_id)), min(compression), max(compression) FROM parquet_metadata('"
                    + file + "')")) {
                rs.next();
                assertEquals(4, rs.getInt(1), "slices go to the two parts in turn; a row group ends with the slice that passes 3000 rows");
                assertEquals("ZSTD", rs.getString(2));
                assertEquals("ZSTD", rs.getString(3));
            }
            try (ResultSet rs = s.executeQuery("SELECT encodings FROM parquet_metadata('" + file + "') WHERE path_in_schema = 'random'")) {
                while (rs.next()) {
                    assertEquals("PLAIN", valueEncodings(rs.getString(1)), "random values are stored plain");
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT value FROM parquet_kv_metadata('" + file + "') WHERE key = 'k'")) {
                assertTrue(rs.next());
                assertEquals("v", new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Rows filled through the small slice of a staged writer come back in order and whole, across
     * full slices, a flush in the middle of a small slice, and the end; the files are numbered from
     * the first part given.
     */
    @Test
    void aStagedWriterKeepsEveryRowInOrder() throws Exception {
        int rows = 3 * TableWriter.SLICE + 123;
        try (TableWriter w = new TableWriter(T, dir, 3, 1, 5000, 1L << 20, Map.of()).background("test-encoder").staged()) {
            w.codes(T.index("kind"), "zero", "one", "two");
            for (long i = 0; i < rows; i++) {
                fill(w, i);
                if (i == TableWriter.SLICE + 100) {
                    w.flush();
                }
                assertEquals(i + 1, w.rows());
            }
        }
        Path file = dir.resolve(TableWriter.partFile(3));
        assertTrue(java.nio.file.Files.isRegularFile(file), "part-3, the only file");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET threads = 1");
            assertRows(s, "read_parquet('" + dir.resolve("*.parquet") + "')", rows);
        }
    }

    private static final TableSchema ENCODINGS = new TableSchema("e", List.of(
            TableSchema.required("id", LONG, TableSchema.Encoding.DELTA),
            TableSchema.optional("wide", LONG),
            TableSchema.optional("narrow", INT),
            TableSchema.optional("sparse", LONG)));

    /**
     * A dictionary column with a new value in every row overflows its dictionary in the first row
     * group and stays delta-encoded for the rest of the file; one of ten values keeps its
     * dictionary; a column null after its first rows has pages and whole row groups of nulls only.
     * Every value and every row group's min and max come back as written.
     */
    @Test
    void eachColumnKeepsTheEncodingItsValuesCallFor() throws Exception {
        int rows = 300_000;
        Path file = dir.resolve(TableWriter.partFile(0));
        try (TableWriter w = new TableWriter(ENCODINGS, dir, 1, 100_000, 1L << 30, Map.of())) {
            for (int i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = i;
                w.longs[1][r] = i % 3 == 0 ? NULL_LONG : 7L * i - 1_000_000;
                w.ints[2][r] = i % 4 == 0 ? NULL_INT : i % 10 - 5;
                w.longs[3][r] = i < 100 ? i : NULL_LONG;
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String scan = "read_parquet('" + file + "')";
            try (ResultSet rs = s.executeQuery("SELECT count(*), "
                    + "count(*) FILTER (WHERE wide IS DISTINCT FROM CASE WHEN id % 3 = 0 THEN NULL ELSE 7 * id - 1000000 END), "
                    + "count(*) FILTER (WHERE narrow IS DISTINCT FROM CASE WHEN id % 4 = 0 THEN NULL ELSE id % 10 - 5 END), "
                    + "count(*) FILTER (WHERE sparse IS DISTINCT FROM CASE WHEN id < 100 THEN id END) FROM " + scan)) {
                rs.next();
                assertEquals(rows, rs.getLong(1));
                assertEquals(0, rs.getLong(2), "wide values");
                assertEquals(0, rs.getLong(3), "narrow values");
                assertEquals(0, rs.getLong(4), "sparse values");
            }
            List<String> wide = new ArrayList<>();
            List<String> narrow = new ArrayList<>();
            long first = 0;
            try (ResultSet rs = s.executeQuery("SELECT row_group_id, row_group_num_rows, path_in_schema, encodings, stats_min_value, stats_max_value, stats_null_count"
                    + " FROM parquet_metadata('" + file + "') ORDER BY row_group_id, column_id")) {
                while (rs.next()) {
                    long n = rs.getLong(2);
                    String column = rs.getString(3);
                    String encodings = valueEncodings(rs.getString(4));
                    if (column.equals("wide")) {
                        wide.add(encodings);
                        long min = Long.MAX_VALUE;
                        long max = Long.MIN_VALUE;
                        long nulls = 0;
                        for (long i = first; i < first + n; i++) {
                            if (i % 3 == 0) {
                                nulls++;
                            } else {
                                min = Math.min(min, 7 * i - 1_000_000);
                                max = Math.max(max, 7 * i - 1_000_000);
                            }
                        }
                        assertEquals(min + "|" + max + "|" + nulls, rs.getString(5) + "|" + rs.getString(6) + "|" + rs.getLong(7),
                                "row group " + rs.getInt(1) + " statistics");
                    } else if (column.equals("narrow")) {
                        narrow.add(encodings);
                        assertEquals("-5|4", rs.getString(5) + "|" + rs.getString(6));
                    } else if (column.equals("sparse") && rs.getInt(1) > 0) {
                        assertEquals(n, rs.getLong(7), "a row group of nulls only");
                    } else if (column.equals("id")) {
                        assertEquals("DELTA_BINARY_PACKED", encodings);
                    }
                    if (column.equals("sparse")) {
                        first += n;
                    }
                }
            }
            assertEquals(rows, first);
            assertTrue(wide.size() >= 3, "several row groups: " + wide);
            assertTrue(wide.get(0).contains("RLE_DICTIONARY") && wide.get(0).contains("DELTA_BINARY_PACKED"),
                    "the first row group's dictionary overflows into delta: " + wide.get(0));
            for (String e : wide.subList(1, wide.size())) {
                assertEquals("DELTA_BINARY_PACKED", e, "after the overflow, delta only");
            }
            for (String e : narrow) {
                assertTrue(e.contains("RLE_DICTIONARY") && !e.contains("DELTA"), "ten values keep their dictionary: " + e);
            }
        }
    }

    private static final TableSchema UNIFORM = new TableSchema("u", List.of(
            TableSchema.required("id", LONG, TableSchema.Encoding.DELTA),
            TableSchema.required("thread", LONG),
            TableSchema.optional("fragment", LONG),
            TableSchema.optional("time", LONG, TableSchema.Encoding.DELTA),
            TableSchema.optional("depth", INT),
            TableSchema.required("bci", INT, TableSchema.Encoding.REPEATS)));

    /** What {@link #uniformSlices} writes in row {@code i} (slice {@code i / SLICE}) of column {@code c}, null as null. */
    private static Long uniform(long i, int c) {
        long slice = i / TableWriter.SLICE;
        // slices of one value, of nulls only, and of values that vary, in turn per column
        int shape = (int) ((slice + c) % 3);
        return switch (shape) {
            case 0 -> c == 1 ? 40 + slice : c == 4 ? (long) (int) (slice % 5) : 1000 * slice;
            case 1 -> c == 1 || c == 5 ? 3L : null;
            default -> c == 4 || c == 5 ? i % 9 - 4 : 1_000_000 + 3 * i + (i & 7);
        };
    }

    /**
     * Slices whose column holds one value, or nulls only, between slices that vary, in every kind
     * of column: each value and null comes back, and each row group's min, max and null count are
     * those of its rows.
     */
    @Test
    void slicesOfOneValueComeBackAsWritten() throws Exception {
        int rows = 9 * TableWriter.SLICE + 17;
        Path file = dir.resolve(TableWriter.partFile(0));
        try (TableWriter w = new TableWriter(UNIFORM, dir, 1, 2 * TableWriter.SLICE, 1L << 30, Map.of())) {
            for (long i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = i;
                for (int c = 1; c < 6; c++) {
                    Long v = uniform(i, c);
                    if (c < 4) {
                        w.longs[c][r] = v == null ? NULL_LONG : v;
                    } else {
                        w.ints[c][r] = v == null ? NULL_INT : (int) (long) v;
                    }
                }
            }
        }
        String[] names = {"id", "thread", "fragment", "time", "depth", "bci"};
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            List<String> bad = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT * FROM read_parquet('" + file + "') ORDER BY id")) {
                long i = 0;
                while (rs.next()) {
                    for (int k = 1; k < 6; k++) {
                        Object v = rs.getObject(k + 1);
                        Long expected = uniform(i, k);
                        if (!String.valueOf(expected).equals(String.valueOf(v)) && bad.size() < 5) {
                            bad.add(names[k] + " of row " + i + ": " + v + " instead of " + expected);
                        }
                    }
                    i++;
                }
                assertEquals(rows, i);
            }
            assertEquals(List.of(), bad);
            long first = 0;
            try (ResultSet rs = s.executeQuery("SELECT row_group_num_rows, column_id, stats_min_value, stats_max_value, stats_null_count"
                    + " FROM parquet_metadata('" + file + "') ORDER BY row_group_id, column_id")) {
                while (rs.next()) {
                    int k = rs.getInt(2);
                    long n = rs.getLong(1);
                    if (k >= 1 && k <= 4) {
                        long min = Long.MAX_VALUE;
                        long max = Long.MIN_VALUE;
                        long nulls = 0;
                        for (long i = first; i < first + n; i++) {
                            Long v = uniform(i, k);
                            if (v == null) {
                                nulls++;
                            } else {
                                min = Math.min(min, v);
                                max = Math.max(max, v);
                            }
                        }
                        String expected = nulls == n ? "null|null|" + n : min + "|" + max + "|" + nulls;
                        assertEquals(expected, rs.getString(3) + "|" + rs.getString(4) + "|" + rs.getLong(5),
                                names[k] + " in the row group from row " + first);
                    }
                    if (k == 5) {
                        first += n;
                    }
                }
            }
            assertEquals(rows, first);
        }
    }

    private static final TableSchema REPEATS = new TableSchema("h", List.of(
            TableSchema.required("id", LONG, TableSchema.Encoding.DELTA),
            TableSchema.required("stack", LONG, TableSchema.Encoding.REPEATS),
            TableSchema.required("same", LONG, TableSchema.Encoding.PLAIN),
            TableSchema.optional("distinct_hash", LONG, TableSchema.Encoding.REPEATS)));

    /**
     * Call paths' hashes repeat in the order a loop calls them: 50,000 distinct ones (400 KB) again
     * and again. A {@code REPEATS} column's pages hold several such rounds, so zstd finds the repeats;
     * the same values in a {@code PLAIN} column's pages of 16 Ki rows never show one. No dictionary,
     * no min and max; every value comes back, nulls too.
     */
    @Test
    void repeatColumnsFindRepeatsWithinALargePage() throws Exception {
        int rows = 600_000;
        int distinct = 50_000;
        long[] stacks = new long[rows];
        for (int i = 0; i < rows; i++) {
            stacks[i] = random(i % distinct);
        }
        Path file = dir.resolve(TableWriter.partFile(0));
        try (TableWriter w = new TableWriter(REPEATS, dir, 1, 300_000, 1L << 30, Map.of())) {
            for (int i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = i;
                w.longs[1][r] = stacks[i];
                w.longs[2][r] = stacks[i];
                w.longs[3][r] = i % 10 == 0 ? NULL_LONG : random(distinct + i);
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            String scan = "read_parquet('" + file + "')";
            long seen = 0;
            try (ResultSet rs = s.executeQuery("SELECT id, stack, same, distinct_hash FROM " + scan)) {
                while (rs.next()) {
                    long i = rs.getLong(1);
                    seen++;
                    assertEquals(stacks[(int) i], rs.getLong(2), "stack of row " + i);
                    assertEquals(stacks[(int) i], rs.getLong(3), "same of row " + i);
                    assertEquals(i % 10 == 0 ? null : random(distinct + i), rs.getObject(4), "distinct_hash of row " + i);
                }
            }
            assertEquals(rows, seen);
            Map<String, Long> bytes = new java.util.TreeMap<>();
            try (ResultSet rs = s.executeQuery("SELECT path_in_schema, dictionary_page_offset, stats_min, encodings, total_compressed_size"
                    + " FROM parquet_metadata('" + file + "') WHERE path_in_schema IN ('stack', 'distinct_hash')")) {
                while (rs.next()) {
                    assertEquals(null, rs.getObject(2), rs.getString(1) + ": no dictionary");
                    assertEquals(null, rs.getObject(3), rs.getString(1) + ": no minimum");
                    assertEquals("PLAIN", valueEncodings(rs.getString(4)), rs.getString(1));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT path_in_schema, sum(total_compressed_size) FROM parquet_metadata('" + file
                    + "') GROUP BY 1")) {
                while (rs.next()) {
                    bytes.put(rs.getString(1), rs.getLong(2));
                }
            }
            assertTrue(bytes.get("stack") * 3 < bytes.get("same"), "the large pages find the repeats: " + bytes);
        }
    }

    /** A column chunk's encodings without {@code RLE}, the definition levels' encoding in a data page v1. */
    private static String valueEncodings(String encodings) {
        return String.join(", ", Arrays.stream(encodings.split(", ")).filter(e -> !e.equals("RLE")).toList());
    }

    /**
     * Definition levels are compressed with the values (data pages v1): a column null in every
     * fourth row, of ten values in turn, takes far less than the bit a row its levels take
     * uncompressed, as they would be in a data page v2.
     */
    @Test
    void definitionLevelsAreCompressed() throws Exception {
        int rows = 400_000;
        Path file = dir.resolve(TableWriter.partFile(0));
        try (TableWriter w = new TableWriter(ENCODINGS, dir, 1, 1 << 20, 1L << 30, Map.of())) {
            for (int i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = i;
                w.longs[1][r] = NULL_LONG;
                w.ints[2][r] = i % 4 == 0 ? NULL_INT : i % 10 - 5;
                w.longs[3][r] = NULL_LONG;
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT sum(total_compressed_size), count(*) FILTER (WHERE encodings LIKE '%RLE_DICTIONARY%')"
                    + " FROM parquet_metadata('" + file + "') WHERE path_in_schema = 'narrow'")) {
                rs.next();
                assertEquals(1, rs.getInt(2), "one row group, a dictionary");
                long levelBits = rows / 8;
                assertTrue(rs.getLong(1) < levelBits / 8, rs.getLong(1) + " bytes for " + levelBits + " bytes of levels");
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE narrow IS DISTINCT FROM CASE WHEN id % 4 = 0 THEN NULL ELSE id % 10 - 5 END)"
                    + " FROM read_parquet('" + file + "')")) {
                rs.next();
                assertEquals(0, rs.getLong(1));
            }
        }
    }

    private static final TableSchema IDS = new TableSchema("ids", List.of(
            TableSchema.optional("object_id", LONG, TableSchema.Encoding.PLAIN)));

    /**
     * Identity hashes with their class id above them, as a trace's allocations have: 31 random bits
     * that nothing compresses, and class bytes that repeat. zstd's fastest level leaves about 5 bytes
     * an id; the PLAIN columns' level gets under 4.6, and every id comes back.
     */
    @Test
    void identityHashesKeepLittleMoreThanTheirRandomBits() throws Exception {
        int rows = 300_000;
        long[] ids = new long[rows];
        long z = 42;
        for (int i = 0; i < rows; i++) {
            z += 0x9E3779B97F4A7C15L;
            long x = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            ids[i] = ((long) (1 + i % 3 + (i % 7 == 0 ? 3 : 0)) << 32) | ((x ^ (x >>> 31)) & 0x7FFFFFFFL);
        }
        try (TableWriter w = new TableWriter(IDS, dir, 1, 1 << 20, 1L << 30, Map.of())) {
            for (int i = 0; i < rows; i++) {
                int r = w.next();
                w.longs[0][r] = ids[i];
            }
        }
        Path file = dir.resolve(TableWriter.partFile(0));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT sum(total_compressed_size) FROM parquet_metadata('" + file + "')")) {
                rs.next();
                double perId = rs.getLong(1) / (double) rows;
                assertTrue(perId < 4.6, "bytes per id: " + perId);
            }
            s.execute("SET threads = 1");
            try (ResultSet rs = s.executeQuery("SELECT object_id FROM read_parquet('" + file + "')")) {
                for (int i = 0; i < rows; i++) {
                    assertTrue(rs.next());
                    assertEquals(ids[i], rs.getLong(1));
                }
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
