package dev.minitrace.query.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.TestRecordings;
import dev.minitrace.converter.jfr.FastRecordingSource;
import dev.minitrace.query.Rows;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JFR recording (worker threads commit minitrace events with known content, a GC between two
 * phases, several chunks) exported through the converter: each worker's records are exactly what
 * it committed, in its order; the same recording converted to an {@code .mtlog} first exports to
 * the same rows, without times.
 */
class RecordingExportTest {
    private static final int THREADS = 3;
    private static final int ROUNDS = 25;

    @TempDir
    static Path dir;
    static TestRecordings.Traced traced;
    static Path fromJfr;
    static TraceExporter.Result result;

    @BeforeAll
    static void recordAndExport() throws Exception {
        traced = TestRecordings.record(dir.resolve("in.jfr"), THREADS, ROUNDS, true);
        fromJfr = dir.resolve("from-jfr");
        result = TraceExporter.export(traced.file(), fromJfr, ConvertOptions.defaults(), "h", null, null);
    }

    @Test
    void eachWorkersRecordsAreWhatItCommittedInOrder() throws Exception {
        assertFalse(result.lostData(), result.warnings()::toString);
        for (Map.Entry<String, List<String>> w : traced.expected().entrySet()) {
            List<String> rows = Rows.of(fromJfr, "SELECT CASE WHEN r.kind LIKE 'METHOD%' THEN r.kind || ' ' || r.method_id || ' ' || "
                    + "coalesce(r.bci, 0) ELSE r.kind || ' ' || k.name || '@' || lower(printf('%x', r.object_id & 4294967295)) || ' ' || r.bci END "
                    + "FROM records r JOIN threads t ON t.thread = r.thread LEFT JOIN classes k ON k.class_id = r.class_id "
                    + "WHERE t.name = '" + w.getKey() + "' ORDER BY r.seq");
            assertEquals(w.getValue(), rows, w.getKey());
        }
    }

    @Test
    void callsLocksAndFragmentsFollowFromThem() throws Exception {
        int perThread = 2 * ROUNDS;
        assertEquals(List.of(THREADS + "|" + 3 * perThread * THREADS + "|" + perThread * THREADS + "|" + perThread * THREADS),
                Rows.of(fromJfr, "SELECT count(DISTINCT thread), count(*), count(*) FILTER (exceptional), "
                        + "count(*) FILTER (method_id = 1 AND depth = 0) FROM calls WHERE exit_seq IS NOT NULL AND call_seq IS NOT NULL"));
        assertEquals(List.of(perThread * THREADS + "|0"), Rows.of(fromJfr,
                "SELECT count(*), count(*) FILTER (hold_ns IS NULL OR hold_ns < 0 OR method_id <> 1) FROM locks"));
        // every worker waits at the GC between the phases: its second phase is in a later fragment
        // than all of its first (the JVM may add collections of its own within either phase)
        int phase = 9 * ROUNDS;
        List<String> fragments = Rows.of(fromJfr, "SELECT count(*), bool_and(second_min IS NOT NULL AND second_min > coalesce(first_max, -1)) FROM ("
                + "SELECT max(fragment) FILTER (seq <= " + phase + ") first_max, min(fragment) FILTER (seq > " + phase + ") second_min, "
                + "count(*) FILTER (seq > " + phase + " AND fragment IS NULL) unfragmented "
                + "FROM records r JOIN threads t USING (thread) WHERE t.name LIKE 'worker-%' GROUP BY thread) "
                + "WHERE unfragmented = 0");
        assertEquals(List.of(THREADS + "|true"), fragments);
        assertEquals(List.of("0"), Rows.of(fromJfr, "SELECT count(*) FROM calls c JOIN calls p ON p.thread = c.thread "
                + "AND p.call_seq = c.parent_seq WHERE c.entry_ns < p.entry_ns OR c.exit_ns > p.exit_ns OR c.depth <> p.depth + 1"),
                "a call lies within its parent");
    }

    @Test
    void theMtlogOfTheRecordingExportsToTheSameRowsWithoutTimes() throws Exception {
        Path log = dir.resolve("in.mtlog");
        new Converter(ConvertOptions.defaults(), new FastRecordingSource()).convert(traced.file(), log, null);
        Path fromLog = dir.resolve("from-mtlog");
        TraceExporter.export(log, fromLog, ConvertOptions.defaults(), "h", null, null);
        for (String sql : List.of(
                "SELECT thread, seq, kind, fragment, method_id, call_seq, class_id, bci, object_id FROM records ORDER BY thread, seq",
                "SELECT thread, call_seq, exit_seq, parent_seq, depth, method_id, stack_id, exit_bci, exceptional FROM calls "
                        + "ORDER BY thread, call_seq",
                "SELECT thread, acquire_seq, release_seq, object_id, class_id, method_id FROM locks ORDER BY thread, acquire_seq",
                "SELECT * EXCLUDE (recording) FROM threads ORDER BY thread",
                "SELECT * EXCLUDE (recording) FROM methods ORDER BY method_id",
                "SELECT * EXCLUDE (recording) FROM classes ORDER BY class_id",
                "SELECT * EXCLUDE (recording, point_ns) FROM gcs ORDER BY gc_id")) {
            List<String> expected = Rows.of(fromJfr, sql);
            assertTrue(expected.size() > 0, sql);
            assertEquals(expected, Rows.of(fromLog, sql), sql);
        }
        assertEquals(List.of("0"), Rows.of(fromLog, "SELECT count(time_ns) FROM records"));
    }
}
