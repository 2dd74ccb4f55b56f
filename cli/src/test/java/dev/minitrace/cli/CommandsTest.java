package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.minitrace.converter.MtlogContent;
import dev.minitrace.converter.TestRecordings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mt convert}, {@code mt print} and {@code mt summary} on good and bad input: output, exit status, one-line errors. */
class CommandsTest {
    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        jfr = TestRecordings.record(dir.resolve("in.jfr"), 2, 5).file();
    }

    private static void noTempFiles(Path folder) throws Exception {
        try (var s = Files.list(folder)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left in " + folder);
        }
    }

    @Test
    void convertToElephantTracksWritesTraceAndNamesInAFolder() throws Exception {
        Path et = dir.resolve("et-out");
        CommandOutcome c = CommandOutcome.mt("convert", "--format", "et", jfr.toString(), et.toString());
        assertEquals(0, c.status(), c.err());
        java.util.List<String> trace = Files.readAllLines(et.resolve("trace"));
        java.util.List<String> names = Files.readAllLines(et.resolve("names"));
        assertEquals("", trace.get(trace.size() - 1), "a blank line ends the trace");
        assertEquals("", names.get(names.size() - 1), "a blank line ends the names");
        assertTrue(trace.stream().anyMatch(l -> l.startsWith("M ")), "method entries: " + trace.subList(0, Math.min(5, trace.size())));
        assertTrue(names.stream().anyMatch(l -> l.startsWith("N ") && l.contains(" demo/Outer run ")), names.toString());
        noTempFiles(et);
    }

    @Test
    void convertThenPrintAndSummary() throws Exception {
        Path out = dir.resolve("ok.mtlog");
        CommandOutcome c = CommandOutcome.mt("convert", jfr.toString(), out.toString());
        assertEquals(0, c.status(), c.err());
        assertTrue(c.out().contains(" records, 2 threads"), c.out());
        CommandOutcome p = CommandOutcome.mt("print", out.toString());
        assertEquals(0, p.status(), p.err());
        assertTrue(p.out().contains("== stream "), p.out());
        assertTrue(p.out().contains("METHOD_ENTRY demo.Outer.run()V"), p.out());
        assertTrue(p.out().contains("METHOD_EXIT demo.Inner.work([I)I bci=0"), p.out());
        assertTrue(p.out().contains("OBJECT_ALLOC [I@"), p.out());
        assertTrue(p.out().contains("-- fragment 1"), "the System.gc() starts fragment 1");
        assertTrue(p.out().contains("GC_TIMESTAMP gc "), p.out());
        MtlogContent content = MtlogContent.read(out);
        long lines = p.out().lines().filter(l -> !l.startsWith("#") && !l.startsWith("==") && !l.startsWith("--")).count();
        assertEquals(content.records, lines, "one line per record");

        CommandOutcome j = CommandOutcome.mt("print", "--json", out.toString());
        assertEquals(0, j.status(), j.err());
        ObjectMapper m = new ObjectMapper();
        List<String> jl = j.out().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(content.records, jl.size());
        JsonNode first = m.readTree(jl.get(0));
        assertEquals("METHOD_ENTRY", first.get("type").asText());
        assertEquals("demo.Outer.run()V", first.get("method").asText());
        assertTrue(first.get("threadName").asText().startsWith("worker-"));

        for (Path f : List.of(out, jfr)) {
            CommandOutcome s = CommandOutcome.mt("summary", f.toString());
            assertEquals(0, s.status(), s.err());
            assertTrue(s.out().contains("METHOD_ENTRY  60"), s.out()); // 2 threads x 2 phases x 5 rounds x 3
            assertTrue(s.out().contains("worker-0: 90"), s.out());
            assertTrue(s.out().contains("20 demo.Outer.run()V"), s.out());
            assertTrue(s.out().contains("20 [I"), s.out());
            assertTrue(s.out().contains("records per fragment:"), s.out());
        }
    }

    @Test
    void hiddenEngineOptionSelectsTheReferenceEngineWithTheSameResult() throws Exception {
        Path fast = dir.resolve("engine-fast.mtlog");
        Path reference = dir.resolve("engine-recordingfile.mtlog");
        CommandOutcome a = CommandOutcome.mt("convert", jfr.toString(), fast.toString());
        assertEquals(0, a.status(), a.err());
        CommandOutcome b = CommandOutcome.mt("convert", "--engine", "recordingfile", jfr.toString(), reference.toString());
        assertEquals(0, b.status(), b.err());
        assertTrue(Arrays.equals(Files.readAllBytes(fast), Files.readAllBytes(reference)), "both engines write the same bytes");
        CommandOutcome bad = CommandOutcome.mt("convert", "--engine", "nosuch", jfr.toString(), dir.resolve("x.mtlog").toString());
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("unknown engine 'nosuch'"), bad.err());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
    }

    @Test
    void globalLayoutAndOptionsAreAccepted() throws Exception {
        Path out = dir.resolve("global.mtlog");
        CommandOutcome c = CommandOutcome.mt("convert", "--layout", "global", "--fragments", "all", "--events", "method,gc", "--threads",
                "worker-1", "--from", "0s", "--to", "1h", jfr.toString(), out.toString());
        assertEquals(0, c.status(), c.err());
        MtlogContent content = MtlogContent.read(out);
        assertEquals(List.of("worker-1"), List.copyOf(content.byThread.keySet()));
        assertFalse(content.counts.containsKey("OBJECT_ALLOC"));
        CommandOutcome p = CommandOutcome.mt("print", out.toString());
        assertTrue(p.out().contains("[worker-1] METHOD_ENTRY demo.Outer.run()V"), p.out());
    }

    @Test
    void badInputGivesOneLineAndAStatus() throws Exception {
        Path out = dir.resolve("bad.mtlog");
        Path text = dir.resolve("text.jfr");
        Files.writeString(text, "hello, this is not a recording");
        Path empty = dir.resolve("empty.jfr");
        Files.write(empty, new byte[0]);
        Object[][] cases = {
            {new String[] {"convert", text.toString(), out.toString()}, 1, "not a JFR recording"},
            {new String[] {"convert", empty.toString(), out.toString()}, 1, "empty file"},
            {new String[] {"convert", dir.resolve("missing.jfr").toString(), out.toString()}, 1, "no such file"},
            {new String[] {"convert", jfr.toString(), jfr.toString()}, 2, "same file"},
            {new String[] {"convert", jfr.toString(), dir.resolve("no/such/dir/x.mtlog").toString()}, 1, "no such directory"},
            {new String[] {"convert", jfr.toString(), dir.toString()}, 1, "is a directory"},
            {new String[] {"convert", jfr.toString(), jfr.resolve("x.mtlog").toString()}, 1, "no such directory"},
            {new String[] {"convert", "--bogus", jfr.toString(), out.toString()}, 2, "Unknown option"},
            {new String[] {"convert", "--layout", "diagonal", jfr.toString(), out.toString()}, 2, "unknown layout"},
            {new String[] {"convert", "--format", "ctf", jfr.toString(), out.toString()}, 2, "unknown format 'ctf' (expected mtlog or et)"},
            {new String[] {"convert", "--format", "et", jfr.toString(), text.toString()}, 1, "not a directory"},
            {new String[] {"convert", "--format", "et", jfr.toString(), dir.resolve("no/such/et").toString()}, 1, "no such directory"},
            {new String[] {"convert", "--fragments", "some", jfr.toString(), out.toString()}, 2, "unknown fragment policy"},
            {new String[] {"convert", "--events", "method,io", jfr.toString(), out.toString()}, 2, "unknown event kind"},
            {new String[] {"convert", "--from", "yesterday", jfr.toString(), out.toString()}, 2, "malformed time"},
            {new String[] {"convert", jfr.toString()}, 2, "Missing required parameter"},
            {new String[] {"print", text.toString()}, 1, "not an .mtlog file"},
            {new String[] {"print", jfr.toString()}, 1, "a JFR recording, not an .mtlog file: convert it first"},
            {new String[] {"summary", empty.toString()}, 1, "neither an .mtlog file nor a JFR recording (empty file)"},
            {new String[] {"summary", text.toString()}, 1, "neither an .mtlog file nor a JFR recording"},
        };
        for (Object[] k : cases) {
            CommandOutcome r = CommandOutcome.mt((String[]) k[0]);
            String what = Arrays.toString((String[]) k[0]) + " -> " + r.err();
            assertEquals(k[1], r.status(), what);
            assertTrue(r.oneErrorLine(), what);
            assertTrue(r.err().contains((String) k[2]), what);
            assertTrue(Files.notExists(out), "no output for " + what);
        }
        noTempFiles(dir);
    }

    @Test
    void outEqualToInThroughALinkIsRefused() throws Exception {
        Path link = dir.resolve("link.mtlog");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, jfr);
        byte[] before = Files.readAllBytes(jfr);
        CommandOutcome r = CommandOutcome.mt("convert", jfr.toString(), link.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.oneErrorLine(), r.err());
        assertTrue(Arrays.equals(before, Files.readAllBytes(jfr)), "the recording is untouched");
        Path dotted = dir.resolve(".").resolve(jfr.getFileName());
        assertEquals(2, CommandOutcome.mt("convert", jfr.toString(), dotted.toString()).status());
    }

    @Test
    void existingOutIsReplacedAndUnwritableOutFailsCleanly() throws Exception {
        Path out = dir.resolve("replace.mtlog");
        Files.writeString(out, "old content");
        assertEquals(0, CommandOutcome.mt("convert", jfr.toString(), out.toString()).status());
        assertTrue(MtlogContent.read(out).records > 0);

        Path ro = dir.resolve("readonly");
        Files.createDirectories(ro);
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Assumptions.assumeFalse(Files.isWritable(ro), "running as a user who can write anywhere (root)");
            CommandOutcome r = CommandOutcome.mt("convert", jfr.toString(), ro.resolve("x.mtlog").toString());
            assertEquals(1, r.status(), r.err());
            assertTrue(r.oneErrorLine(), r.err());
            assertTrue(r.err().contains("permission denied"), r.err());
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void threadsMatchingNoThreadAreNamedNotReportedAsARecordingWithoutEvents() throws Exception {
        Path out = dir.resolve("nothread.mtlog");
        CommandOutcome c = CommandOutcome.mt("convert", "--threads", "no-such-thread", jfr.toString(), out.toString());
        assertEquals(0, c.status(), c.err());
        assertEquals(1, c.errLines().length, c.err());
        // the recording has trace events; it is the filter that kept none of them
        assertTrue(c.err().startsWith("convert: warning: --threads no-such-thread selects none of the traced threads"), c.err());
        assertEquals(0, MtlogContent.read(out).byThread.size());
    }

    @Test
    void truncatedInputConvertsWithStatus3AndNoMinitraceIsSaid() throws Exception {
        byte[] all = Files.readAllBytes(jfr);
        Path cut = dir.resolve("cut.jfr");
        Files.write(cut, Arrays.copyOf(all, all.length - 10));
        Path full = TestRecordings.record(dir.resolve("two.jfr"), 1, 3, true).file();
        byte[] two = Files.readAllBytes(full);
        Files.write(cut, Arrays.copyOf(two, two.length - 10));
        Path out = dir.resolve("cut.mtlog");
        CommandOutcome r = CommandOutcome.mt("convert", cut.toString(), out.toString());
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().contains("truncated recording"), r.err());
        assertTrue(Files.exists(out));

        Path gcOnly = dir.resolve("gconly.jfr");
        try (jdk.jfr.Recording rec = new jdk.jfr.Recording()) {
            rec.enable("jdk.GarbageCollection");
            rec.start();
            System.gc();
            rec.stop();
            rec.dump(gcOnly);
        }
        CommandOutcome g = CommandOutcome.mt("convert", gcOnly.toString(), dir.resolve("gc.mtlog").toString());
        assertEquals(0, g.status(), g.err());
        assertTrue(g.err().contains("no minitrace or jdk.MethodTrace events"), g.err());
    }
}
