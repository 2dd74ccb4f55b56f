package dev.minitrace.query.export;

import static dev.minitrace.query.export.SyntheticTrace.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.query.Rows;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The export of {@link SyntheticTrace}, read back with DuckDB: every row of every table, including
 * the rules for what a trace lacks (calls begun before it, lost exits, holds without one side).
 */
class ParquetExportTest {
    @TempDir
    static Path dir;
    static Path out;
    static String id;

    static final RecordingFacts FACTS = new RecordingFacts("app.jfr", "jfr", T0, "build7", 4242, "OpenJDK 64-Bit Server VM", "17.0.9",
            "-Xmx1g", "com.acme.Main", T0 - 1_000_000_000L, "G1New", "G1Old");

    @BeforeAll
    static void export() throws IOException {
        out = dir.resolve("tables");
        try (ParquetExport e = new ParquetExport(out, FACTS)) {
            id = e.recordingId();
            SyntheticTrace.write(e);
        }
    }

    private static long t(long micros) {
        return T0 + micros * 1000;
    }

    @Test
    void everyTableIsAFolderWithOnePartitionPerRecording() throws IOException {
        assertEquals("20231114-221320-build7-4242", id, "start (UTC), host, pid");
        for (TableSchema table : TraceTables.ALL) {
            Path part = out.resolve(table.name()).resolve("recording=" + id).resolve(TableWriter.partFile(0));
            assertTrue(Files.isRegularFile(part), part.toString());
        }
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(TraceTables.ALL.size(), s.count(), "the staging folder is gone: only the tables are left");
        }
    }

    /**
     * Lock and allocation records are in files of their own, and so every row group's {@code kind}
     * statistics name one family: a filter on kind skips the others' row groups. Method entries and
     * exits are in no file of {@code records}: the view makes them from the calls.
     */
    @Test
    void recordsOfEachFamilyAreInFilesOfTheirOwn() throws Exception {
        String files = out.resolve("records").resolve("recording=" + id).resolve("*.parquet").toString();
        assertEquals(List.of("part-0|LOCK_ACQUIRE,LOCK_RELEASE", "part-1|OBJECT_ALLOC"),
                Rows.of(out, "SELECT regexp_extract(filename, 'part-[0-9]+') AS f, string_agg(DISTINCT kind, ',' ORDER BY kind) "
                        + "FROM read_parquet('" + files + "', filename = true) GROUP BY f ORDER BY f"));
        assertEquals(List.of("part-0|LOCK_ACQUIRE|LOCK_RELEASE", "part-1|OBJECT_ALLOC|OBJECT_ALLOC"),
                Rows.of(out, "SELECT DISTINCT regexp_extract(file_name, 'part-[0-9]+') AS f, stats_min_value, stats_max_value "
                        + "FROM parquet_metadata('" + files + "') WHERE path_in_schema = 'kind' ORDER BY f"));
    }

    @Test
    void recordsOneRowPerRecordInEachThreadsOrder() throws Exception {
        List<String> rows = Rows.of(out, "SELECT thread, seq, kind, time_ns, fragment, method_id, call_seq, class_id, field_id, bci, "
                + "object_id FROM records ORDER BY thread, seq");
        long a = SyntheticTrace.ARRAY;
        long la = SyntheticTrace.LOCK_A;
        long lb = SyntheticTrace.LOCK_B;
        long lc = SyntheticTrace.LOCK_C;
        assertEquals(List.of(
                "1|1|METHOD_ENTRY|" + t(100) + "|null|1|1|null|null|null|null",
                "1|2|OBJECT_ALLOC|" + t(110) + "|null|1|1|7|null|4|" + a,
                "1|3|LOCK_ACQUIRE|" + t(120) + "|null|1|1|8|null|12|" + la,
                "1|4|METHOD_ENTRY|" + t(130) + "|null|2|4|null|null|null|null",
                "1|5|METHOD_EXIT|" + t(150) + "|null|2|4|null|null|9|null",
                "1|6|LOCK_RELEASE|" + t(160) + "|null|1|1|8|null|20|" + la,
                "1|7|METHOD_EXIT|" + t(200) + "|null|1|1|null|null|0|null",
                "1|8|METHOD_ENTRY|" + t(300) + "|3|3|8|null|null|null|null",
                "1|9|LOCK_ACQUIRE|" + t(310) + "|3|3|8|8|null|5|" + lb,
                "1|10|OBJECT_ALLOC|" + t(320) + "|3|3|8|7|null|8|" + (a + 1),
                "2|1|METHOD_EXIT|" + t(50) + "|null|5|null|null|null|7|null",
                "2|2|METHOD_ENTRY|" + t(60) + "|null|6|2|null|null|null|null",
                "2|3|METHOD_EXIT|" + t(70) + "|null|6|2|null|null|3|null",
                "2|4|METHOD_EXIT|" + t(80) + "|null|7|null|null|null|11|null",
                "2|5|LOCK_RELEASE|" + t(90) + "|null|null|null|8|null|14|" + lc,
                "3|1|METHOD_ENTRY|" + t(10) + "|null|8|1|null|null|null|null",
                "3|2|METHOD_ENTRY|" + t(20) + "|null|9|2|null|null|null|null",
                "3|3|METHOD_EXIT|" + t(40) + "|null|8|1|null|null|6|null"), rows);
    }

    @Test
    void callsPairEntriesWithExitsAndSayWhatIsMissing() throws Exception {
        List<String> rows = Rows.of(out, "SELECT thread, call_seq, exit_seq, parent_seq, depth, method_id, entry_ns, exit_ns, "
                + "duration_ns, self_ns, exit_bci, exceptional FROM calls ORDER BY thread, coalesce(call_seq, exit_seq)");
        assertEquals(List.of(
                // run: 100 us, of which work 20 us; left by an exception (bci 0)
                "1|1|7|null|0|1|" + t(100) + "|" + t(200) + "|100000|80000|0|true",
                "1|4|5|1|1|2|" + t(130) + "|" + t(150) + "|20000|20000|9|false",
                // step never ended
                "1|8|null|null|0|3|" + t(300) + "|null|null|null|null|null",
                // begun before the trace: no entry, one level above the outermost call seen so far
                "2|null|1|null|-1|5|null|" + t(50) + "|null|null|7|false",
                "2|2|3|null|-1|6|" + t(60) + "|" + t(70) + "|10000|10000|3|false",
                "2|null|4|null|-2|7|null|" + t(80) + "|null|null|11|false",
                // outer's exit ended inner too, whose own exit was lost: no self time for outer
                "3|1|3|null|0|8|" + t(10) + "|" + t(40) + "|30000|null|6|false",
                "3|2|null|1|1|9|" + t(20) + "|null|null|null|null|null"), rows);
    }

    @Test
    void longCallsHaveAFileOfTheirOwn() throws Exception {
        Path calls = out.resolve("calls").resolve("recording=" + id);
        // run lasted 100 us (TraceTables.LONG_CALL_NS): alone in part-1; the view has every call
        assertEquals(List.of("100000"), Rows.of(out, "SELECT duration_ns FROM read_parquet('" + calls.resolve("part-1.parquet") + "')"));
        assertEquals(List.of("7|30000"), Rows.of(out, "SELECT count(*), max(duration_ns) FROM read_parquet('"
                + calls.resolve("part-0.parquet") + "')"));
        assertEquals(List.of("8"), Rows.of(out, "SELECT count(*) FROM calls"));
    }

    @Test
    void callsAlongTheSamePathShareAStack() throws Exception {
        assertEquals(List.of("2|true"), Rows.of(out, "SELECT c.method_id, c.parent_stack_id = p.stack_id FROM calls c "
                + "JOIN calls p ON p.thread = c.thread AND p.call_seq = c.parent_seq WHERE c.thread = 1"));
        assertEquals(List.of("0"), Rows.of(out, "SELECT count(*) FROM calls WHERE parent_seq IS NULL AND parent_stack_id IS NOT NULL "
                + "AND call_seq IS NOT NULL"), "an outermost call has no parent stack");
        assertEquals(List.of("8"), Rows.of(out, "SELECT count(DISTINCT stack_id) FROM calls"));
    }

    @Test
    void locksPairAcquiresWithReleases() throws Exception {
        List<String> rows = Rows.of(out, "SELECT thread, acquire_seq, release_seq, object_id, class_id, method_id, call_seq, "
                + "acquire_bci, release_bci, acquire_ns, release_ns, hold_ns FROM locks ORDER BY thread, coalesce(acquire_seq, release_seq)");
        assertEquals(List.of(
                "1|3|6|" + SyntheticTrace.LOCK_A + "|8|1|1|12|20|" + t(120) + "|" + t(160) + "|40000",
                "1|9|null|" + SyntheticTrace.LOCK_B + "|8|3|8|5|null|" + t(310) + "|null|null",
                "2|null|5|" + SyntheticTrace.LOCK_C + "|8|null|null|null|14|null|" + t(90) + "|null"), rows);
    }

    @Test
    void dimensionTablesNameEveryId() throws Exception {
        assertEquals(List.of("1|1|main", "2|22|late", "3|null|lost"), Rows.of(out, "SELECT * EXCLUDE (recording) FROM threads ORDER BY 1"));
        assertEquals(List.of("7|[I", "8|com.acme.Monitor"), Rows.of(out, "SELECT * EXCLUDE (recording) FROM classes ORDER BY 1"));
        assertEquals(List.of("1|com.acme.App|run|()V", "9|com.acme.Lost|inner|()V"),
                Rows.of(out, "SELECT * EXCLUDE (recording) FROM methods WHERE method_id IN (1, 9) ORDER BY 1"));
        assertEquals(List.of("3|G1New|G1 Evacuation Pause|" + t(250) + "|5000|" + t(250), "4|null|null|" + t(400) + "|null|null"),
                Rows.of(out, "SELECT * EXCLUDE (recording) FROM gcs ORDER BY 1"));
        assertEquals(List.of("0"), Rows.of(out, "SELECT count(*) FROM fields"));
    }

    @Test
    void theRecordingTableTellsTheJvmApart() throws Exception {
        assertEquals(List.of("app.jfr|jfr|" + T0 + "|" + t(320) + "|build7|4242|OpenJDK 64-Bit Server VM|17.0.9|-Xmx1g|com.acme.Main|"
                + (T0 - 1_000_000_000L) + "|G1New|G1Old|18|8|3|3|" + id), Rows.of(out, "SELECT * FROM recording"));
    }

    @Test
    void anotherRecordingSharesTheFolderAndExportingOneAgainReplacesIt() throws Exception {
        Path shared = dir.resolve("shared");
        RecordingFacts other = new RecordingFacts("b.jfr", "jfr", T0 + 5_000_000_000L, "build8", 7, null, null, null, null, -1, null, null);
        for (RecordingFacts f : List.of(FACTS, other, FACTS)) {
            try (ParquetExport e = new ParquetExport(shared, f)) {
                SyntheticTrace.write(e);
            }
        }
        assertEquals(List.of(id + "|18", other.id() + "|18"),
                Rows.of(shared, "SELECT recording, count(*) FROM records GROUP BY recording ORDER BY 1"));
        assertEquals(List.of("2"), Rows.of(shared, "SELECT count(*) FROM recording"));
    }

    @Test
    void anExportThatIsNotFinishedLeavesNothing() throws Exception {
        Path unfinished = dir.resolve("unfinished");
        try (ParquetExport e = new ParquetExport(unfinished, FACTS)) {
            e.records(1, new byte[] {1}, new long[] {T0}, new long[] {1}, new int[] {0}, 0, 1);
        }
        try (Stream<Path> s = Files.list(unfinished)) {
            assertEquals(List.of(), s.toList());
        }
        assertThrows(IOException.class, () -> dev.minitrace.query.TraceInput.of(unfinished), "no tables: not an export");
    }
}
