package dev.minitrace.query.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.query.Rows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap records (docs/mtlog-format.md §2.1-2.2) in the export: one {@code records} row each,
 * the site's field, index or length in its own column, the objects' ids with null for null, a
 * death in the fragment of the GC that found it; and the {@code fields} table.
 */
class HeapRecordsExportTest {
    @TempDir
    static Path dir;
    static Path out;

    static final long T0 = 1_700_000_000_000_000_000L;
    static final long RUN = 1;
    static final long OBJECTS = 7, NODES = 8, ERRORS = 9;
    static final long ARRAY = OBJECTS << 32 | 0x11, NODE = NODES << 32 | 0x22, ERROR = ERRORS << 32 | 0x33;
    static final long ROOT = 4;

    @BeforeAll
    static void export() throws IOException {
        out = dir.resolve("tables");
        RecordingFacts facts = new RecordingFacts("heap.jfr", "jfr", T0, "build7", 4242, "OpenJDK 64-Bit Server VM", "17.0.9",
                "", "com.acme.Main", T0 - 1_000_000_000L, "G1New", "G1Old");
        try (ParquetExport e = new ParquetExport(out, facts)) {
            int[][] main = {
                {MtlogFormat.METHOD_ENTRY}, {MtlogFormat.OBJECT_ALLOC}, {MtlogFormat.ARRAY_LENGTH},
                {MtlogFormat.ARRAY_STORE}, {MtlogFormat.STORE_HOLDER}, {MtlogFormat.STORE_OLD}, {MtlogFormat.STORE_NEW},
                {MtlogFormat.FIELD_STORE}, {MtlogFormat.STORE_HOLDER}, {MtlogFormat.STORE_OLD}, {MtlogFormat.STORE_NEW},
                {MtlogFormat.EXCEPTION_THROW}, {MtlogFormat.EXCEPTION_OBJECT}, {MtlogFormat.METHOD_EXIT}};
            long[] values = {RUN, ARRAY, 3, 0, ARRAY, 0, NODE, ROOT, 0, NODE, 0, RUN, ERROR, RUN};
            int[] aux = {0, 6, 0, 9, 0, 0, 0, 14, 0, 0, 0, 20, 0, 0};
            byte[] type = new byte[main.length];
            long[] time = new long[main.length];
            for (int i = 0; i < main.length; i++) {
                type[i] = (byte) main[i][0];
                time[i] = T0 + (i + 1) * 1000L;
            }
            e.records(1, type, time, values, aux, 0, main.length);
            e.fragment(2, 3, T0 + 50_000);
            e.records(2, new byte[] {(byte) MtlogFormat.OBJECT_DEATH}, new long[] {T0 + 60_000}, new long[] {NODE}, new int[] {3}, 0, 1);
            MtlogInfo info = new MtlogInfo();
            info.putThread(1, 1, "main");
            info.putThread(2, 30, "minitrace-deaths");
            info.putClass(OBJECTS, "[Ljava.lang.Object;");
            info.putClass(NODES, "com.acme.Node");
            info.putClass(ERRORS, "java.lang.IllegalStateException");
            info.putMethod(RUN, "com.acme.App", "run", "()V");
            info.putField(ROOT, "com.acme.App", "root", "Ljava/lang/Object;", true);
            info.putGc(3, "G1New", "G1 Evacuation Pause", T0 + 50_000, 5_000);
            e.finish(info);
        }
    }

    @Test
    void eachHeapRecordIsARowWithItsSiteAndObjects() throws Exception {
        List<String> rows = Rows.of(out, "SELECT thread, seq, kind, fragment, method_id, call_seq, class_id, field_id, bci, object_id, "
                + "array_index, array_length FROM records ORDER BY thread, seq");
        assertEquals(List.of(
                "1|1|METHOD_ENTRY|null|1|1|null|null|null|null|null|null",
                "1|2|OBJECT_ALLOC|null|1|1|7|null|6|" + ARRAY + "|null|null",
                "1|3|ARRAY_LENGTH|null|1|1|null|null|null|null|null|3",
                "1|4|ARRAY_STORE|null|1|1|null|null|9|null|0|null",
                "1|5|STORE_HOLDER|null|1|1|7|null|null|" + ARRAY + "|null|null",
                "1|6|STORE_OLD|null|1|1|null|null|null|null|null|null",
                "1|7|STORE_NEW|null|1|1|8|null|null|" + NODE + "|null|null",
                "1|8|FIELD_STORE|null|1|1|null|4|14|null|null|null",
                "1|9|STORE_HOLDER|null|1|1|null|null|null|null|null|null",
                "1|10|STORE_OLD|null|1|1|8|null|null|" + NODE + "|null|null",
                "1|11|STORE_NEW|null|1|1|null|null|null|null|null|null",
                "1|12|EXCEPTION_THROW|null|1|1|null|null|20|null|null|null",
                "1|13|EXCEPTION_OBJECT|null|1|1|9|null|null|" + ERROR + "|null|null",
                "1|14|METHOD_EXIT|null|1|1|null|null|0|null|null|null",
                "2|1|OBJECT_DEATH|3|null|null|8|null|null|" + NODE + "|null|null"), rows);
    }

    @Test
    void theFieldsTableNamesEveryField() throws Exception {
        assertEquals(List.of("4|com.acme.App|root|Ljava/lang/Object;|true"),
                Rows.of(out, "SELECT field_id, class_name, field_name, descriptor, is_static FROM fields"));
        assertEquals(List.of("root|1"), Rows.of(out, "SELECT f.field_name, count(*) FROM records r JOIN fields f USING (field_id) "
                + "WHERE r.kind = 'FIELD_STORE' GROUP BY f.field_name"));
    }
}
