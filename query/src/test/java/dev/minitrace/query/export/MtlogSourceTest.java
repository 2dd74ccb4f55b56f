package dev.minitrace.query.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.write.MtlogGlobalLayout;
import dev.minitrace.converter.write.MtlogThreadLayout;
import dev.minitrace.query.Rows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code .mtlog} exports to the same rows as the trace it holds, except what it lacks: times
 * (so durations), and in the global layout bytecode indexes.
 */
class MtlogSourceTest {
    private static final String SAME = "thread, seq, kind, fragment, method_id, call_seq, class_id, bci, object_id";

    @TempDir
    Path dir;

    @Test
    void theThreadLayoutGivesTheSameRowsWithoutTimes() throws Exception {
        Path direct = dir.resolve("direct");
        try (ParquetExport e = new ParquetExport(direct, RecordingFacts.ofMtlog(Path.of("a"), SyntheticTrace.T0, "h"))) {
            SyntheticTrace.write(e);
        }
        Path log = dir.resolve("trace.mtlog");
        try (MtlogThreadLayout w = new MtlogThreadLayout(log, SyntheticTrace.T0)) {
            SyntheticTrace.write(w);
        }
        Path tables = dir.resolve("tables");
        TraceExporter.Result r = TraceExporter.export(log, tables, ConvertOptions.defaults(), "h", null, null);
        assertFalse(r.lostData());
        String records = "SELECT " + SAME + " FROM records ORDER BY thread, seq";
        assertEquals(Rows.of(direct, records), Rows.of(tables, records));
        String calls = "SELECT thread, call_seq, exit_seq, parent_seq, depth, method_id, stack_id, exit_bci, exceptional FROM calls "
                + "ORDER BY thread, coalesce(call_seq, exit_seq)";
        assertEquals(Rows.of(direct, calls), Rows.of(tables, calls));
        assertEquals(List.of("0|0|0|0|0"), Rows.of(tables, "SELECT count(time_ns), (SELECT count(duration_ns) + count(entry_ns) FROM calls), "
                + "(SELECT count(hold_ns) FROM locks), (SELECT count(end_ns) FROM recording), (SELECT count(pid) FROM recording) FROM records"));
        assertEquals(List.of("trace.mtlog|mtlog|" + SyntheticTrace.T0), Rows.of(tables, "SELECT source, format, start_ns FROM recording"));
    }

    @Test
    void theGlobalLayoutHasNoBytecodeIndexes() throws Exception {
        Path log = dir.resolve("global.mtlog");
        try (MtlogGlobalLayout w = new MtlogGlobalLayout(log, SyntheticTrace.T0)) {
            SyntheticTrace.write(w);
        }
        Path tables = dir.resolve("tables");
        TraceExporter.export(log, tables, ConvertOptions.defaults(), "h", null, null);
        assertEquals(List.of("18|0|8|3"), Rows.of(tables, "SELECT count(*), count(bci), (SELECT count(*) FROM calls), "
                + "(SELECT count(*) FROM locks) FROM records"));
        assertEquals(List.of("1,2,2,1,3"), Rows.of(tables, "SELECT string_agg(method_id::VARCHAR, ',' ORDER BY seq) FROM records "
                + "WHERE thread = 1 AND kind LIKE 'METHOD%'"), "each thread's records keep their order");
    }
}
