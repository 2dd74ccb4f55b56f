package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.query.export.ParquetExport;
import dev.minitrace.query.export.RecordingFacts;
import dev.minitrace.query.export.SyntheticTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each ready-made question on {@link SyntheticTrace}, whose answers are known exactly. */
class NamedQueryTest {
    @TempDir
    static Path dir;
    static Path out;

    @BeforeAll
    static void export() throws Exception {
        out = dir.resolve("tables");
        try (ParquetExport e = new ParquetExport(out, RecordingFacts.ofMtlog(Path.of("x.mtlog"), SyntheticTrace.T0, "h"))) {
            SyntheticTrace.write(e);
        }
    }

    private static List<String> ask(NamedQuery q, Map<String, Object> values) throws Exception {
        return Rows.of(out, q.sql(values));
    }

    @Test
    void topMethodsPutsTheMostSelfTimeFirst() throws Exception {
        List<String> rows = ask(NamedQuery.TOP_METHODS, Map.of());
        assertEquals(List.of(
                "com.acme.App::run|1|0.08|0.1|100|0.1",
                "com.acme.App::work|1|0.02|0.02|20|0.02",
                "com.acme.Early::whole|1|0.01|0.01|10|0.01",
                // no self time: by calls, then by name
                "com.acme.App::step|1|null|null|null|null"), rows.subList(0, 4));
        assertTrue(rows.contains("com.acme.Lost::outer|1|null|0.03|30|0.03"), rows::toString);
        assertEquals(8, rows.size(), "every method with a call");
    }

    @Test
    void callTreeShowsThePathsBelowTheMethod() throws Exception {
        assertEquals(List.of("com.acme.App::run|1|0.1|0.08", "  com.acme.App::work|1|0.02|0.02"),
                ask(NamedQuery.CALL_TREE, Map.of("method", "App::run", "depth", 12)));
        assertEquals(List.of("com.acme.Lost::outer|1|0.03|null", "  com.acme.Lost::inner|1|null|null"),
                ask(NamedQuery.CALL_TREE, Map.of("method", "com.acme.Lost::outer", "depth", 12)));
        assertEquals(List.of(), ask(NamedQuery.CALL_TREE, Map.of("method", "pp::run", "depth", 12)), "a name matches whole parts only");
    }

    @Test
    void slowCallsAreThoseOverTheDuration() throws Exception {
        List<String> rows = ask(NamedQuery.SLOW_CALLS, Map.of("method", "com.acme.App::run", "over_ns", 50_000L));
        assertEquals(1, rows.size(), rows::toString);
        assertTrue(rows.get(0).contains("|main|1|"), rows::toString);
        assertTrue(rows.get(0).endsWith("|0.1|0.08|0|true"), rows::toString);
        assertEquals(List.of(), ask(NamedQuery.SLOW_CALLS, Map.of("method", "App::run", "over_ns", 100_000L)), "longer than, not equal");
        assertEquals(List.of(), ask(NamedQuery.SLOW_CALLS, Map.of("method", "App::work", "over_ns", 50_000L)));
    }

    @Test
    void lockHoldsPutTheLongestHeldMonitorFirst() throws Exception {
        List<String> rows = ask(NamedQuery.LOCK_HOLDS, Map.of());
        assertEquals("com.acme.Monitor|" + SyntheticTrace.LOCK_A + "|1|0.04|0.04|com.acme.App::run", rows.get(0));
        assertEquals(3, rows.size(), rows::toString);
    }

    @Test
    void allocationsBySite() throws Exception {
        assertEquals(List.of("com.acme.App::run|4|[I|1", "com.acme.App::step|8|[I|1"), ask(NamedQuery.ALLOC_BY_SITE, Map.of()));
    }

    @Test
    void allocationsBetweenTwoGcs() throws Exception {
        assertEquals(List.of("[I|com.acme.App::step|8|1"), ask(NamedQuery.BETWEEN_GCS, Map.of("from_gc", 3L, "to_gc", 4L)));
        assertEquals(List.of(), ask(NamedQuery.BETWEEN_GCS, Map.of("from_gc", 4L, "to_gc", 3L)));
    }

    @Test
    void valuesBecomeLiteralsSoAQuoteCannotEndTheString() {
        String sql = NamedQuery.CALL_TREE.sql(Map.of("method", "x'; DROP TABLE calls; --", "depth", 1));
        assertTrue(sql.contains("'x''; DROP TABLE calls; --'"), sql);
        assertThrows(IllegalArgumentException.class, () -> NamedQuery.SLOW_CALLS.sql(Map.of("method", "a")), "over_ns is needed");
    }
}
