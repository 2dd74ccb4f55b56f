package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.minitrace.converter.MethodBufferRecordings;
import dev.minitrace.converter.jfr.TraceBufferEncoder;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.ClassDefinitionEvent;
import fixture.crossview.Calls;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four views that rebuild calls — the report's data, the Parquet {@code calls} table, the
 * timeline's slices and {@code mt print --tree} — agree per method on the calls entered, the exits
 * without entry, the exits by exception and the calls without exit (lost, or open at the end), on
 * real recordings: a program that ends (a thread still inside its calls at the end), the same
 * program killed with SIGKILL (its repository read up to the last flush segment, and the recovered
 * {@code .mtlog}), and a recording whose buffers are damaged, with an exit without entry, exits lost
 * in a corrupt buffer, a monitor released while calls opened after its acquire run, a re-entered
 * monitor and a release without acquire.
 *
 * <p>The commands run in a child JVM from the CLI jar; {@code -Dcrossview.cli=JAR} runs another
 * build's (to see how an earlier version fails).
 */
class CrossViewIT {
    /** Entered, without entry, by exception, without exit. */
    private static final String[] WHAT = {"entered", "exits without entry", "exits by exception", "calls without exit"};

    @TempDir
    Path dir;

    @Test
    void aProgramThatEnds() throws Exception {
        Path jfr = dir.resolve("calls.jfr");
        Process p = traced(List.of("-XX:StartFlightRecording:name=minitrace,settings="
                + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc") + ",filename=" + jfr));
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the fixture ends");
        assertEquals(0, p.exitValue());
        Map<String, long[]> counts = allViewsAgree(jfr, true);
        long[] waitIn = counts.get("fixture.crossview.Calls.waitIn");
        assertEquals(1, waitIn[3], "the parked thread is inside waitIn at the end");
        assertTrue(counts.get("fixture.crossview.Calls.deepest")[2] > 0, "exceptions leave deepest");
        assertTrue(counts.get("fixture.crossview.Calls.fib")[0] > 1000, "recursion");
    }

    @Test
    void aKilledProgramReadUpToItsLastFlushSegment() throws Exception {
        Path repository = Files.createDirectories(dir.resolve("repository"));
        Process p = traced(List.of("-XX:StartFlightRecording:name=minitrace,settings="
                + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc") + ",maxsize=0",
                "-XX:FlightRecorderOptions:repository=" + repository), "forever");
        Thread.sleep(2500);
        p.destroyForcibly(); // SIGKILL: JFR finishes nothing
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        Path folder;
        try (Stream<Path> s = Files.list(repository)) {
            folder = s.findFirst().orElseThrow();
        }
        Map<String, long[]> counts = allViewsAgree(folder, true);
        assertTrue(counts.get("fixture.crossview.Calls.rounds")[3] >= 2, "both workers' loops were running when the JVM died");

        Path log = dir.resolve("recovered.mtlog");
        ChildProcess.Outcome c = mt("convert", folder.toString(), log.toString());
        assertTrue(c.status() == 0 || c.status() == ExitCodes.PARTIAL, c::toString);
        Map<String, long[]> fromLog = allViewsAgree(log, false);
        assertEquals(render(counts), render(fromLog), "the recovered .mtlog has the calls of the recovered recording");
    }

    @Test
    void aRecordingWithDamagedBuffersAndLostRecords() throws Exception {
        Path jfr = dir.resolve("damaged.jfr");
        CountDownLatch done = new CountDownLatch(1);
        Thread gaps = new Thread(() -> {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gaps");
        gaps.start();
        try (Recording rec = new Recording()) {
            rec.enable(MethodBufferEvent.class);
            rec.enable(MethodDefinitionEvent.class);
            rec.enable(ClassDefinitionEvent.class);
            rec.start();
            MethodBufferRecordings.define(1, "demo.Gaps", "outer", "()V");
            MethodBufferRecordings.define(2, "demo.Gaps", "middle", "()V");
            MethodBufferRecordings.define(3, "demo.Gaps", "inner", "()V");
            MethodBufferRecordings.define(4, "demo.Gaps", "early", "()V");
            MethodBufferRecordings.define(5, "demo.Gaps", "late", "()V");
            MethodBufferRecordings.defineClass(7, "java.lang.Object");
            long t = 1_000_000_000L;
            // records 1-6: an exit without entry with no call open, then calls, a re-entered monitor
            TraceBufferEncoder first = new TraceBufferEncoder().exit(4, 5, 0).entry(1, 1).acquire(7, 0x51, 3, 1)
                    .acquire(7, 0x51, 4, 1).entry(2, 2).entry(3, 2);
            MethodBufferRecordings.commit(gaps, 1, t, 1_000_000_000L, first);
            // records 7-9: a corrupt buffer (the exits of inner and middle are lost with it)
            String two = new TraceBufferEncoder().exit(3, 7, 0).exit(2, 7, 0).records();
            MethodBufferRecordings.commit(gaps, 7, 3, t, 1_000_000_000L, two + "\u0020\u0001");
            // records 10-: the monitor released while inner and middle run, outer's exit ends them,
            // a release without acquire, an exit by exception without entry, calls open at the end
            TraceBufferEncoder rest = new TraceBufferEncoder().release(7, 0x51, 8, 3).exit(1, 9, 3).release(7, 0x51, 9, 3)
                    .release(7, 0x52, 9, 3).entry(2, 4).thrown(4, 4).exit(2, 6, 4).entry(5, 5).entry(3, 5).thrown(3, 6).entry(1, 6);
            MethodBufferRecordings.commit(gaps, 10, t, 1_000_000_000L, rest);
            rec.stop();
            rec.dump(jfr);
        } finally {
            done.countDown();
            gaps.join();
        }
        Map<String, long[]> counts = allViewsAgree(jfr, true);
        assertEquals("entered 0, exits without entry 2, exits by exception 1, calls without exit 0",
                describe(counts.get("demo.Gaps.early")), "early: two exits without entry, one by exception");
        assertEquals("entered 2, exits without entry 0, exits by exception 0, calls without exit 1",
                describe(counts.get("demo.Gaps.outer")), "outer: one returned, one open at the end");
        assertEquals("entered 2, exits without entry 0, exits by exception 0, calls without exit 1",
                describe(counts.get("demo.Gaps.middle")), "middle: its exit lost with the corrupt buffer");
        assertEquals("entered 2, exits without entry 0, exits by exception 1, calls without exit 1",
                describe(counts.get("demo.Gaps.inner")), "inner: one exit lost, one by exception");
        assertEquals("entered 1, exits without entry 0, exits by exception 0, calls without exit 1",
                describe(counts.get("demo.Gaps.late")), "late: open at the end");
    }

    /** Starts the fixture with the agent; returns once it printed {@code ready}. */
    private Process traced(List<String> jfr, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.crossview.*"));
        cmd.addAll(jfr);
        cmd.addAll(List.of("-cp", ChildProcess.testClasses(), Calls.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("ready")) {
            // JFR's start-up lines
        }
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException e) {
                // the child is gone
            }
        });
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    /** The views of {@code trace} agree per method; returns the counts. */
    private Map<String, long[]> allViewsAgree(Path trace, boolean timeline) throws Exception {
        Map<String, long[]> parquet = parquet(trace);
        assertFalse(parquet.isEmpty(), "calls in " + trace);
        String expected = render(parquet);
        String report = render(report(trace));
        String tree = render(tree(trace));
        String slices = timeline ? render(timeline(trace)) : expected;
        assertAll(() -> assertEquals(expected, report, "the report's data and the calls table of " + trace),
                () -> assertEquals(expected, tree, "print --tree and the calls table of " + trace),
                () -> assertEquals(expected, slices, "the timeline's slices and the calls table of " + trace));
        return parquet;
    }

    private static String describe(long[] c) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < WHAT.length; i++) {
            b.append(i > 0 ? ", " : "").append(WHAT[i]).append(' ').append(c == null ? 0 : c[i]);
        }
        return b.toString();
    }

    private static String render(Map<String, long[]> counts) {
        StringBuilder b = new StringBuilder();
        counts.forEach((m, c) -> b.append(m).append(": ").append(describe(c)).append('\n'));
        return b.toString();
    }

    private static long[] of(Map<String, long[]> counts, String method) {
        return counts.computeIfAbsent(method, k -> new long[WHAT.length]);
    }

    /**
     * Runs an {@code mt} command in this JVM, or with {@code -Dcrossview.cli=JAR} in a child JVM from
     * that jar; it ends with a status of 0 or 3 (data lost) and no stack trace.
     */
    private ChildProcess.Outcome mt(String... args) throws Exception {
        String jar = System.getProperty("crossview.cli");
        ChildProcess.Outcome o;
        if (jar == null) {
            CommandOutcome c = CommandOutcome.mt(args);
            o = new ChildProcess.Outcome(c.status(), c.out(), c.err());
        } else {
            List<String> cmd = ChildProcess.cliCommand(args);
            cmd.set(cmd.indexOf("-jar") + 1, jar);
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            Process p = ChildProcess.builder(dir, cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            o = new ChildProcess.Outcome(p.waitFor(), Files.readString(out), Files.readString(err));
        }
        ChildProcess.Outcome outcome = o;
        assertFalse(o.err().contains("\tat "), "no stack trace: " + o);
        assertTrue(o.status() == 0 || o.status() == ExitCodes.PARTIAL, outcome::toString);
        return o;
    }

    /** The {@code calls} table, per method. */
    private Map<String, long[]> parquet(Path trace) throws Exception {
        ChildProcess.Outcome o = mt("query", trace.toString(), "--format", "csv",
                "select m.class_name || '.' || m.method_name as method,"
                        + " count(*) filter (where c.call_seq is not null), count(*) filter (where c.call_seq is null),"
                        + " count(*) filter (where c.exceptional), count(*) filter (where c.exit_seq is null)"
                        + " from calls c join methods m using (method_id) group by 1 order by 1");
        Map<String, long[]> counts = new TreeMap<>();
        List<String> lines = o.out().lines().toList();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            long[] c = of(counts, f[0].replace("\"", ""));
            for (int i = 0; i < WHAT.length; i++) {
                c[i] += Long.parseLong(f[i + 1]);
            }
        }
        return counts;
    }

    /** The report's method rows (the data its page embeds). */
    private Map<String, long[]> report(Path trace) throws Exception {
        Path html = dir.resolve("report-" + System.nanoTime() + ".html");
        mt("report", trace.toString(), html.toString());
        String page = Files.readString(html, StandardCharsets.UTF_8);
        String open = "<script type=\"application/json\" id=\"minitrace-data\">";
        int from = page.indexOf(open) + open.length();
        JsonNode root = new ObjectMapper().readTree(page.substring(from, page.indexOf("</script>", from)));
        Map<String, long[]> counts = new TreeMap<>();
        for (JsonNode r : root.get("methods")) {
            long[] c = of(counts, root.get("names").get(r.get("name").asInt()).asText());
            c[0] += r.get("calls").asLong();
            c[1] += r.path("exitsWithoutEntry").asLong(-1);
            c[2] += r.path("exceptionExits").asLong(-1);
            c[3] += r.path("withoutExit").asLong(-1);
        }
        assertTrue(root.get("methods").size() < 200, "every method is in the page's table");
        return counts;
    }

    /** The timeline's method slices. */
    private Map<String, long[]> timeline(Path trace) throws Exception {
        Path json = dir.resolve("timeline-" + System.nanoTime() + ".json");
        mt("export", "--format", "chrome-trace", trace.toString(), json.toString());
        Map<String, long[]> counts = new TreeMap<>();
        for (JsonNode e : new ObjectMapper().readTree(json.toFile()).get("traceEvents")) {
            String ph = e.path("ph").asText();
            String name = e.path("name").asText();
            if (!(ph.equals("B") || ph.equals("E")) || name.startsWith("lock ") || name.startsWith("GC ")) {
                continue;
            }
            long[] c = of(counts, name);
            JsonNode args = e.path("args");
            if (ph.equals("B")) {
                c[args.has("begin") ? 1 : 0]++;
            } else if (args.path("exit").asText().equals("exception")) {
                c[2]++;
            } else if (args.has("unfinished")) {
                c[3]++;
            }
        }
        return counts;
    }

    /** The calls of {@code mt print --tree}. */
    private Map<String, long[]> tree(Path trace) throws Exception {
        ChildProcess.Outcome o = mt("print", "--tree", trace.toString());
        Map<String, long[]> counts = new TreeMap<>();
        int columns = -1;
        for (String line : o.out().lines().toList()) {
            if (line.startsWith("#") || line.startsWith("==")) {
                continue;
            }
            if (line.endsWith("call tree")) {
                // the position, and the time when the input has times, then two spaces
                columns = line.contains(" ms ") ? 9 + 12 + 2 : 9 + 2;
                continue;
            }
            String text = line.substring(columns).strip();
            if (text.startsWith("~~")) {
                continue;
            }
            boolean closing = text.startsWith("} ");
            String call = closing ? text.substring(2) : text;
            if (!call.matches("^[\\w$.<>]+\\(.*")) {
                continue; // a record that is not a call's
            }
            long[] c = of(counts, call.substring(0, call.indexOf('(')));
            boolean noEntry = call.endsWith("(entered before the recording)");
            if (!closing) {
                c[0]++;
            } else if (noEntry) {
                c[1]++;
            }
            if (call.contains(" !threw")) {
                c[2]++;
            }
            if (call.endsWith("(exit lost)") || call.endsWith("(still running at the end)")) {
                c[3]++;
            }
        }
        return counts;
    }
}
