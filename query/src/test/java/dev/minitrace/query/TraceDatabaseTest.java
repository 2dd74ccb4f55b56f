package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.query.export.ParquetExport;
import dev.minitrace.query.export.RecordingFacts;
import dev.minitrace.query.export.SyntheticTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export of the earlier layout of the tables (no {@code stacks}; {@code calls} files with
 * {@code method_id} and no {@code depth_shift}) is refused at open with one line that says to export
 * again, not left to fail in a view with a binder's error.
 */
class TraceDatabaseTest {
    @TempDir
    Path dir;

    private Path export() throws Exception {
        Path out = dir.resolve("tables");
        try (ParquetExport e = new ParquetExport(out, RecordingFacts.ofMtlog(Path.of("x.mtlog"), SyntheticTrace.T0, "h"))) {
            SyntheticTrace.write(e);
        }
        return out;
    }

    private TraceDatabase open(Path out) throws SQLException {
        return TraceDatabase.open(out, 256L << 20, 1, dir);
    }

    @Test
    void opensThisLayout() throws Exception {
        Path out = export();
        try (TraceDatabase db = open(out); Statement s = db.connection().createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM stacks")) {
            assertTrue(rs.next() && rs.getLong(1) > 0);
        }
    }

    @Test
    void refusesAnExportWithoutStacks() throws Exception {
        Path out = export();
        deleteTree(out.resolve("stacks"));
        SQLException e = assertThrows(SQLException.class, () -> open(out));
        assertEquals("an export of an earlier layout of the tables; export the recording again with this version's mt export"
                + " (it has no stacks table)", e.getMessage());
    }

    @Test
    void refusesCallsFilesWithoutDepthShift() throws Exception {
        Path out = export();
        Path old = out.resolve("calls/recording=old/part-0.parquet");
        Files.createDirectories(old.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (SELECT 1::BIGINT AS thread, 9::BIGINT AS exit_seq, 4::BIGINT AS call_span, 3::BIGINT AS method_id) TO '" + old + "' (FORMAT parquet)");
        }
        SQLException e = assertThrows(SQLException.class, () -> open(out));
        assertTrue(e.getMessage().startsWith("an export of an earlier layout of the tables;"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(1 of its calls files have no depth_shift)"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    private static void deleteTree(Path p) throws Exception {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
