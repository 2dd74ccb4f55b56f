package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.minitrace.converter.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mt export} and {@code mt report} on good and bad input: the files, the exit status, one-line errors. */
class ViewCommandsTest {
    @TempDir
    static Path dir;
    static Path jfr;
    static Path log;

    @BeforeAll
    static void record() throws Exception {
        jfr = TestRecordings.record(dir.resolve("in.jfr"), 2, 5).file();
        log = dir.resolve("in.mtlog");
        assertEquals(0, CommandOutcome.mt("convert", jfr.toString(), log.toString()).status());
    }

    private static void noTempFiles() throws Exception {
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".")), "no temporary or spool file left in " + dir);
        }
    }

    @Test
    void exportWritesATimelineWithATrackPerThread() throws Exception {
        Path out = dir.resolve("t.json");
        CommandOutcome o = CommandOutcome.mt("export", "--format", "chrome-trace", jfr.toString(), out.toString());
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().startsWith(out + ": "), o.out());
        assertTrue(o.out().contains(" events, 2 threads"), o.out());
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        Set<String> names = new HashSet<>();
        long begins = 0;
        long allocs = 0;
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("name").asText().equals("thread_name")) {
                names.add(e.get("args").get("name").asText());
            }
            begins += e.get("ph").asText().equals("B") ? 1 : 0;
            allocs += e.get("name").asText().startsWith("new ") ? 1 : 0;
        }
        assertTrue(names.containsAll(Set.of("worker-0", "worker-1", "GC")), names::toString);
        // 2 workers x 2 phases x 5 rounds x (3 calls + 1 monitor)
        assertEquals(2 * 2 * 5 * 4, begins);
        assertEquals(2 * 2 * 5, allocs);
        noTempFiles();

        Path noAlloc = dir.resolve("t-no-alloc.json");
        assertEquals(0, CommandOutcome.mt("export", "--format", "chrome-trace", "--no-alloc", "--threads", "worker-0",
                jfr.toString(), noAlloc.toString()).status());
        String text = Files.readString(noAlloc);
        assertTrue(!text.contains("\"new ") && !text.contains("worker-1") && text.contains("worker-0"), "--no-alloc and --threads");
    }

    @Test
    void theCapIsReported() {
        Path out = dir.resolve("cap.json");
        CommandOutcome o = CommandOutcome.mt("export", "--format", "chrome-trace", "--max-events", "5", jfr.toString(), out.toString());
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("--max-events 5 reached at "), o.out());
    }

    @Test
    void badExportsAreOneLineErrors() throws Exception {
        Path out = dir.resolve("bad.json");
        CommandOutcome unknown = CommandOutcome.mt("export", "--format", "svg", jfr.toString(), out.toString());
        assertEquals(ExitCodes.USAGE, unknown.status());
        assertTrue(unknown.oneErrorLine() && unknown.err().contains("unknown format 'svg' (expected one of chrome-trace, parquet)"), unknown.err());
        CommandOutcome missing = CommandOutcome.mt("export", jfr.toString(), out.toString());
        assertEquals(ExitCodes.USAGE, missing.status());
        assertTrue(missing.oneErrorLine(), missing.err());
        CommandOutcome fromLog = CommandOutcome.mt("export", "--format", "chrome-trace", log.toString(), out.toString());
        assertEquals(ExitCodes.FAILED, fromLog.status());
        assertTrue(fromLog.oneErrorLine() && fromLog.err().contains("no time per record"), fromLog.err());
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a trace");
        CommandOutcome other = CommandOutcome.mt("export", "--format", "chrome-trace", text.toString(), out.toString());
        assertEquals(ExitCodes.FAILED, other.status());
        assertTrue(other.oneErrorLine() && other.err().contains("not a JFR recording"), other.err());
        CommandOutcome cap = CommandOutcome.mt("export", "--format", "chrome-trace", "--max-events", "0", jfr.toString(), out.toString());
        assertEquals(ExitCodes.USAGE, cap.status());
        assertTrue(cap.oneErrorLine(), cap.err());
        CommandOutcome toDir = CommandOutcome.mt("export", "--format", "chrome-trace", jfr.toString(), dir.toString());
        assertEquals(ExitCodes.FAILED, toDir.status());
        assertTrue(toDir.oneErrorLine() && toDir.err().contains("is a directory"), toDir.err());
        assertTrue(!Files.exists(out));
        noTempFiles();
    }

    @Test
    void reportOfTheRecordingAndOfTheLog() throws Exception {
        for (Path in : new Path[] {jfr, log}) {
            Path out = dir.resolve(in.getFileName() + ".html");
            CommandOutcome o = CommandOutcome.mt("report", in.toString(), out.toString());
            assertEquals(0, o.status(), o.err());
            assertTrue(o.out().contains(out + ": " + (2 * 2 * 5 * 9) + " records, 2 threads"), o.out());
            String page = Files.readString(out);
            assertTrue(page.contains("id=\"minitrace-data\"") && page.contains("demo.Inner.work"), "the page embeds the data");
        }
        Path text = Files.writeString(dir.resolve("notes2.txt"), "not a trace");
        CommandOutcome other = CommandOutcome.mt("report", text.toString(), dir.resolve("x.html").toString());
        assertEquals(ExitCodes.FAILED, other.status());
        assertTrue(other.oneErrorLine() && other.err().contains("not a JFR recording or an .mtlog"), other.err());
        CommandOutcome none = CommandOutcome.mt("report", dir.resolve("none.jfr").toString(), dir.resolve("y.html").toString());
        assertEquals(ExitCodes.FAILED, none.status());
        assertTrue(none.oneErrorLine() && none.err().contains("no such file"), none.err());
        noTempFiles();
    }
}
