package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.query.parquet.TableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More paths than the table of sums holds, each called several times far apart (so that its sums
 * are spread over several scratch runs and the table): the {@code stacks} file has one row per
 * path, whose sums are the path's, unknown times left out of them, and no scratch file is left.
 */
class StackTotalsTest {
    @TempDir
    Path dir;

    @Test
    void onePathOneRowAcrossRuns() throws Exception {
        int paths = StackTotals.SLOTS;
        int rounds = 3;
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        Path out = Files.createDirectories(dir.resolve("stacks"));
        try (TableWriter w = new TableWriter(StackTotals.STACKS, out, 1, 1 << 20, 16L << 20, Map.of())) {
            StackTotals totals = new StackTotals(w, scratch);
            for (int round = 0; round < rounds; round++) {
                for (int p = 0; p < paths; p++) {
                    // every fifth path's duration is unknown in round 1; every seventh has no parent
                    long duration = round == 1 && p % 5 == 0 ? NULL_LONG : p + round;
                    totals.add(stackId(p), p % 7 == 0 ? NULL_LONG : stackId(p / 2), p % 100, p % 13, duration, 1);
                }
            }
            totals.finish();
        }
        try (Stream<Path> left = Files.list(scratch)) {
            assertEquals(0, left.count(), "scratch runs deleted");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT stack_id, parent_stack_id, method_id, calls, total_ns, self_ns, depth, max_ns FROM read_parquet('"
                        + out.resolve(TableWriter.partFile(0)) + "')")) {
            java.util.HashMap<Long, Integer> byStack = new java.util.HashMap<>();
            for (int p = 0; p < paths; p++) {
                byStack.put(stackId(p), p);
            }
            int rows = 0;
            java.util.BitSet seen = new java.util.BitSet(paths);
            while (rs.next()) {
                rows++;
                int p = byStack.get(rs.getLong(1));
                assertEquals(false, seen.get(p), "path " + p + " has one row");
                seen.set(p);
                assertEquals(p % 7 == 0 ? null : stackId(p / 2), rs.getObject(2), "parent of path " + p);
                assertEquals(p % 100, rs.getLong(3), "method of path " + p);
                assertEquals(rounds, rs.getLong(4), "calls of path " + p);
                long total = p + (p % 5 == 0 ? 0 : p + 1) + p + 2;
                assertEquals(total, rs.getLong(5), "total of path " + p);
                assertEquals(rounds, rs.getLong(6), "self of path " + p);
                assertEquals(p % 13, rs.getInt(7), "depth of path " + p);
                assertEquals(p + 2L, rs.getLong(8), "longest call of path " + p);
            }
            assertEquals(paths, rows);
        }
    }

    /** Two paths with one stack id (a hash collision) would join every call of either to both: the export refuses. */
    @Test
    void twoPathsOneStackIdIsRefused() throws Exception {
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        Path out = Files.createDirectories(dir.resolve("stacks"));
        try (TableWriter w = new TableWriter(StackTotals.STACKS, out, 1, 1 << 20, 16L << 20, Map.of())) {
            StackTotals totals = new StackTotals(w, scratch);
            totals.add(42, 7, 1, 1, 10, 10);
            totals.add(42, 8, 1, 1, 10, 10);
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, totals::finish);
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("same stack id 42"), e.getMessage());
        }
    }

    private static long stackId(int p) {
        return ThreadTrace.stack(p, p);
    }
}
