package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fixture.diff.Shop;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mt diff} end to end: two versions of {@link Shop} with known differences and a second run
 * of version 1, each traced by {@code mt run} (the real agent, a real recording on the JDK the tests
 * run on), then compared as recordings, {@code .mtlog}s and Parquet exports.
 */
class DiffCommandIT {
    private static final String SHOP = "fixture.diff.Shop";
    private static final String HEADER = "class,method,descriptor,calls_base,calls_new,calls_delta,exceptions_base,exceptions_new,"
            + "exceptions_delta,allocs_base,allocs_new,allocs_delta,locks_base,locks_new,locks_delta";
    /** Exactly the rows of the known differences: a renamed method, a step twice as often, an extra array, a new monitor. */
    private static final List<String> METHOD_ROWS = List.of(
            SHOP + ",basket,(IZ)J,100,100,0,0,0,0,100,200,+100,0,0,0",
            SHOP + ",cost,(I)J,0,100,+100,0,0,0,0,0,0,0,0,0",
            SHOP + ",price,(I)J,100,0,-100,0,0,0,0,0,0,0,0,0",
            SHOP + ",record,(JZ)V,100,100,0,0,0,0,0,0,0,100,200,+100",
            SHOP + ",step,(I)J,100,200,+100,0,0,0,0,0,0,0,0,0");

    @TempDir
    static Path dir;

    @BeforeAll
    static void traceBothVersions() throws Exception {
        for (String run : List.of("v1", "v2", "v1-again")) {
            ChildProcess.Outcome o = ChildProcess.cli(dir, "run", "--out", dir.resolve(run + ".jfr").toString(),
                    "--jfc", ChildProcess.ROOT.resolve("jfc-profiles/minitrace-heap.jfc").toString(),
                    "--include", SHOP, "--events", "method,lock,alloc,exception", "--",
                    "-cp", ChildProcess.testClasses(), SHOP, run.substring(0, 2));
            assertEquals(0, o.status(), o::toString);
        }
        for (String v : List.of("v1", "v2")) {
            CommandOutcome c = CommandOutcome.mt("convert", path(v + ".jfr"), path(v + ".mtlog"));
            assertEquals(0, c.status(), c::toString);
            CommandOutcome e = CommandOutcome.mt("export", "--format", "parquet", "--events", "method,lock,alloc,exception",
                    path(v + ".jfr"), path(v + "-tables"));
            assertEquals(0, e.status(), e::toString);
        }
    }

    private static String path(String name) {
        return dir.resolve(name).toString();
    }

    private static CommandOutcome diff(String... args) {
        List<String> a = new ArrayList<>(List.of("diff"));
        a.addAll(List.of(args));
        return CommandOutcome.mt(a.toArray(new String[0]));
    }

    private static List<String> csv(String... args) {
        List<String> a = new ArrayList<>(List.of("--format", "csv"));
        a.addAll(List.of(args));
        CommandOutcome o = diff(a.toArray(new String[0]));
        assertEquals(0, o.status(), o::toString);
        assertEquals("", o.err());
        return o.out().lines().toList();
    }

    private static List<String> rows(List<String> csv) {
        return csv.subList(1, csv.size());
    }

    @Test
    void recordingsGiveExactlyTheKnownDifferences() {
        List<String> lines = csv(path("v1.jfr"), path("v2.jfr"));
        assertEquals(HEADER, lines.get(0));
        assertEquals(sorted(METHOD_ROWS), sorted(rows(lines)));
    }

    @Test
    void logsAndExportsGiveTheSameRowsAsTheRecordings() {
        assertEquals(sorted(METHOD_ROWS), sorted(rows(csv(path("v1.mtlog"), path("v2.mtlog")))));
        assertEquals(sorted(METHOD_ROWS), sorted(rows(csv(path("v1-tables"), path("v2-tables")))));
        assertEquals(sorted(METHOD_ROWS), sorted(rows(csv(path("v1-tables"), path("v2.mtlog")))), "inputs of different kinds match too");
    }

    @Test
    void allocationLockExceptionAndPathRowsNameTheChange() {
        assertEquals(List.of("[J," + SHOP + "::basket(IZ)J,0,100,+100"), rows(csv("--by", "alloc", path("v1.jfr"), path("v2.jfr"))));
        assertEquals(List.of(SHOP + "$Ledger,0,100,+100"), rows(csv("--by", "lock", path("v1.mtlog"), path("v2.mtlog"))));
        assertEquals(List.of(), rows(csv("--by", "exception", path("v1.jfr"), path("v2-tables"))), "both throw alike");
        assertEquals(List.of("java.lang.IllegalStateException," + SHOP + "::check(I)V,10,10,0"),
                rows(csv("--by", "exception", "--all", path("v1.jfr"), path("v2-tables"))));
        String order = SHOP + "::main([Ljava/lang/String;)V;" + SHOP + "::order(IZ)J;";
        assertEquals(sorted(List.of(order + SHOP + "::cost(I)J,0,100,+100", order + SHOP + "::price(I)J,100,0,-100",
                order + SHOP + "::step(I)J,100,200,+100")), sorted(rows(csv("--by", "path", path("v1.jfr"), path("v2.jfr")))));
        assertEquals(List.of(), rows(csv("--by", "path", "--depth", "2", path("v1.jfr"), path("v2.jfr"))),
                "paths of two methods end above the changes");
    }

    @Test
    void identicalRunsGiveNoRowAndPassEveryBound() {
        CommandOutcome o = diff("--format", "csv", "--fail-if", "calls>+0", "--fail-if", "allocs>+0", "--fail-if", "locks>+0",
                "--fail-if", "exceptions>+0", path("v1.jfr"), path("v1-again.jfr"));
        assertEquals(0, o.status(), o::toString);
        assertEquals(List.of(HEADER), o.out().lines().toList());
        List<String> all = csv("--all", path("v1.jfr"), path("v1-again.jfr"));
        assertEquals(9, all.size() - 1, "--all shows the nine methods, all unchanged: " + all);
        for (String row : rows(all)) {
            String[] f = row.split(",");
            for (int k = 0; k < 4; k++) {
                assertEquals("0", f[5 + 3 * k], row);
            }
        }
    }

    @Test
    void failIfExitsFourExactlyWhenABoundIsCrossed() {
        String[] ins = {path("v1.jfr"), path("v2.jfr")};
        assertEquals(0, failIf(List.of("allocs>+100"), ins).status(), "basket's +100 is not above +100");
        CommandOutcome allocs = failIf(List.of("allocs>=+100"), ins);
        assertEquals(4, allocs.status(), allocs::toString);
        assertEquals(List.of("diff: fail-if: " + SHOP + "::basket(IZ)J: allocs 100 -> 200 (+100, +100.0%), crosses allocs>=+100",
                "diff: 1 bound crossed"), List.of(allocs.errLines()));

        assertEquals(0, failIf(List.of("calls>+100%", "--include", SHOP + "::step"), ins).status(), "step doubled: +100%, not above");
        assertEquals(4, failIf(List.of("calls>+99.5%", "--include", SHOP + "::step"), ins).status());
        assertEquals(0, failIf(List.of("locks<-1"), ins).status(), "no monitor is taken less");
        assertEquals(4, failIf(List.of("calls<-99"), ins).status(), "price: -100");

        CommandOutcome both = failIf(List.of("calls>+5%", "--fail-if", "allocs>+0"), ins);
        assertEquals(4, both.status(), both::toString);
        assertEquals(List.of("diff: fail-if: " + SHOP + "::basket(IZ)J: allocs 100 -> 200 (+100, +100.0%), crosses allocs>+0",
                "diff: fail-if: " + SHOP + "::cost(I)J: calls 0 -> 100 (+100), crosses calls>+5%",
                "diff: fail-if: " + SHOP + "::step(I)J: calls 100 -> 200 (+100, +100.0%), crosses calls>+5%",
                "diff: 3 bounds crossed"), List.of(both.errLines()));
    }

    private static CommandOutcome failIf(List<String> args, String[] ins) {
        List<String> a = new ArrayList<>(List.of("--fail-if"));
        a.addAll(args);
        a.addAll(List.of(ins));
        return diff(a.toArray(new String[0]));
    }

    @Test
    void theExitStatusReachesTheShellAndTheOffendingRowsStderr() throws Exception {
        ChildProcess.Outcome o = ChildProcess.cli(dir, "diff", "--by", "lock", "--fail-if", "locks>+0", path("v1.jfr"), path("v2.jfr"));
        assertEquals(4, o.status(), o::toString);
        assertTrue(o.err().contains("diff: fail-if: " + SHOP + "$Ledger: locks 0 -> 100 (+100), crosses locks>+0"), o::err);
        assertTrue(o.out().contains(SHOP + "$Ledger"), o::out);
    }

    @Test
    void filtersAndThreadsSelectThePartCompared() {
        assertEquals(List.of(SHOP + ",step,(I)J,100,200,+100,0,0,0,0,0,0,0,0,0"),
                rows(csv("--include", SHOP + "::st*", path("v1.jfr"), path("v2.jfr"))));
        assertEquals(3, rows(csv("--exclude", SHOP + "::price;" + SHOP + "::cost", path("v1.jfr"), path("v2.jfr"))).size());
        assertEquals(sorted(METHOD_ROWS), sorted(rows(csv("--threads", "main", path("v1.mtlog"), path("v2.jfr")))));
        assertEquals(List.of(), rows(csv("--threads", "no-such-thread", path("v1.mtlog"), path("v2.mtlog"))));
    }

    @Test
    void jsonHasTheCsvColumnsAsFields() throws Exception {
        CommandOutcome o = diff("--format", "json", "--by", "alloc", path("v1.jfr"), path("v2.jfr"));
        assertEquals(0, o.status(), o::toString);
        JsonNode doc = new ObjectMapper().readTree(o.out());
        assertEquals("alloc", doc.get("by").asText());
        assertEquals(1, doc.get("rows").size());
        JsonNode row = doc.get("rows").get(0);
        assertEquals("[J", row.get("class").asText());
        assertEquals(SHOP + "::basket(IZ)J", row.get("site").asText());
        assertEquals(List.of(0L, 100L, 100L), List.of(row.get("allocs_base").asLong(), row.get("allocs_new").asLong(),
                row.get("allocs_delta").asLong()));
    }

    @Test
    void badCommandLinesAndInputsAreOneLine() throws Exception {
        CommandOutcome bound = diff("--fail-if", "calls>5 percent", path("v1.jfr"), path("v2.jfr"));
        assertEquals(2, bound.status(), bound::toString);
        assertTrue(bound.oneErrorLine(), bound::err);
        CommandOutcome metric = diff("--by", "lock", "--fail-if", "calls>+0", path("v1.jfr"), path("v2.jfr"));
        assertEquals(2, metric.status());
        assertTrue(metric.err().contains("--by lock has no metric 'calls'"), metric::err);
        CommandOutcome annotation = diff("--include", "@com.acme.Timed", path("v1.jfr"), path("v2.jfr"));
        assertEquals(2, annotation.status());
        java.nio.file.Files.writeString(dir.resolve("notes.txt"), "not a trace");
        CommandOutcome junk = diff(path("v1.jfr"), path("notes.txt"));
        assertEquals(1, junk.status());
        assertTrue(junk.oneErrorLine(), junk::err);
        assertTrue(junk.err().contains("notes.txt: not a JFR recording, an .mtlog or a folder of exported tables"), junk::err);
        CommandOutcome missing = diff(path("v1.jfr"), path("absent.jfr"));
        assertEquals(1, missing.status());
        assertTrue(missing.oneErrorLine(), missing::err);
    }

    private static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
