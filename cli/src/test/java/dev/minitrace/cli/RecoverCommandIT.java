package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.recovery.Recovery;
import dev.minitrace.converter.recovery.RecoveryReport;
import fixture.recover.Steps;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.minitrace.converter.jfr.JfrInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A traced JVM killed with SIGKILL at a random time, then {@code mt recover PID}: the log holds
 * every record of every complete flush segment (each thread's records equal what the JDK's own
 * reader finds in the recovered chunks), each thread's records are exactly the start of the
 * fixture's known sequence (nothing invented, no gap), and the command says what it lost.
 */
class RecoverCommandIT {
    private static final String[] PATTERN = {"E step", "E even", "X even", "X step", "E step", "E odd", "X odd", "X step"};

    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static Path repository;
    private static long pid;
    private static String killed;

    /** Starts the fixture with the agent and a disk recording, and kills it with SIGKILL at a random time. */
    @BeforeAll
    static void killATracedJvm() throws Exception {
        repository = Files.createDirectories(shared.resolve("repository"));
        long seed = System.nanoTime();
        long killAfterMs = 2500 + new Random(seed).nextInt(2000);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.recover.*",
                "-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                        + ",maxsize=0",
                "-XX:FlightRecorderOptions:repository=" + repository, "-cp", ChildProcess.testClasses(), Steps.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        pid = p.pid();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready")) {
                // JFR's start-up lines
            }
            Thread.sleep(killAfterMs);
            p.destroyForcibly(); // SIGKILL: no shutdown hook runs, JFR finishes nothing
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        }
        killed = "killed after " + killAfterMs + " ms (seed " + seed + ")";
    }

    private static Path folder() throws IOException {
        try (Stream<Path> s = Files.list(repository)) {
            return s.findFirst().orElseThrow();
        }
    }

    @Test
    void aKilledJvmIsRecoveredUpToItsLastFlushSegment() throws Exception {
        Path log = dir.resolve("recovered.mtlog");
        ChildProcess.Outcome o = ChildProcess.cli(dir, "recover", Long.toString(pid), log.toString(), "--repository", repository.toString());
        String context = killed + ": " + o;
        assertEquals(ExitCodes.PARTIAL, o.status(), context);
        assertTrue(o.err().contains("unfinished chunk read up to"), context);
        assertTrue(o.err().contains("the JVM died while recording"), context);
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), context);
        assertFalse(o.err().contains("missing"), "no gap in any thread's sequence: " + context);

        // The JDK's reader on the same recovered chunks is the oracle for what the segments hold.
        Path recovered = dir.resolve("recovered.jfr");
        RecoveryReport report = Recovery.write(folder(), recovered);
        assertTrue(report.segments() > 0, report.toString());
        Trace jdk = Trace.read(recovered);
        try (MtlogReader r = MtlogReader.open(log)) {
            int checked = 0;
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> e : r.info().threads().entrySet()) {
                String thread = e.getValue().name();
                if (!thread.startsWith("steps-")) {
                    continue;
                }
                List<String> records = new ArrayList<>();
                Map<Long, MtlogInfo.MethodInfo> methods = r.info().methods();
                r.forEachRecord((int) (long) e.getKey(), (stream, type, value, aux) -> {
                    if (type == MtlogFormat.METHOD_ENTRY || type == MtlogFormat.METHOD_EXIT) {
                        records.add((type == MtlogFormat.METHOD_ENTRY ? "E " : "X ") + methods.get(value).methodName());
                    }
                });
                assertTrue(records.size() > 100, thread + " has records: " + records.size());
                assertEquals("E run", records.get(0), thread);
                for (int i = 1; i < records.size(); i++) {
                    String expected = PATTERN[(i - 1) % PATTERN.length];
                    if (!records.get(i).equals(expected)) {
                        throw new AssertionError(thread + ": record " + i + " is " + records.get(i) + ", expected " + expected
                                + " (" + context + ")");
                    }
                }
                assertTrue(jdk.sequenceIsContiguous(thread), thread);
                assertEquals(jdk.byThread.get(thread).size(), records.size(),
                        thread + ": every record of the complete segments, as the JDK reads them");
                checked++;
            }
            assertEquals(2, checked, "both threads traced");
        }
        System.out.printf("recover after SIGKILL, %s: %s%n", killed, o.err().replace('\n', ' '));
    }

    /**
     * The unfinished chunk cut at many offsets (a copy made while the JVM wrote, a full disk): every
     * cut recovers a prefix the JDK's reader reads, the more the later the cut, never more than the
     * cut holds, and the command always ends with a clear report (exit 3) or one line (exit 1:
     * nothing recoverable), never a hang or a stack trace.
     */
    @Test
    void aChunkCutAnywhereIsRecoveredOrRefusedClearly() throws Exception {
        Path last;
        try (Stream<Path> s = Files.list(folder())) {
            last = s.filter(p -> p.toString().endsWith(".jfr")).max(Comparator.comparing(Path::toString)).orElseThrow();
        }
        byte[] whole = Files.readAllBytes(last);
        RecoveryReport full = Recovery.write(last, dir.resolve("full.jfr"));
        long end = full.recoveredBytes();
        assertTrue(end > 0 && end <= whole.length, full.toString());
        TreeSet<Long> cuts = new TreeSet<>(List.of(0L, 4L, 67L, 68L, 69L, end - 1, end, end + 1, (long) whole.length));
        Random random = new Random(whole.length);
        while (cuts.size() < 60) {
            cuts.add((long) random.nextInt(whole.length + 1));
        }
        long previousRecords = -1;
        int refused = 0;
        int viaCli = 0;
        for (long cut : cuts) {
            if (cut > whole.length) {
                continue;
            }
            Path file = dir.resolve("cut.jfr");
            Files.write(file, Arrays.copyOf(whole, (int) cut));
            Path out = dir.resolve("cut-recovered.jfr");
            long records;
            try {
                RecoveryReport r = Recovery.write(file, out);
                assertTrue(r.recoveredBytes() <= cut, cut + ": " + r);
                assertEquals(cut - r.recoveredBytes(), r.lostBytes(), cut + ": " + r);
                records = RecordingFile.readAllEvents(out).stream().filter(e -> e.getEventType().getName().equals("minitrace.MethodBuffer"))
                        .count();
            } catch (JfrInputException e) {
                assertTrue(cut < end, cut + ": refused although a complete segment ends at " + end);
                records = 0;
                refused++;
            }
            assertTrue(records >= previousRecords, cut + ": a later cut recovers no less");
            previousRecords = records;
            if (cut >= end) {
                assertEquals(full.recoveredBytes(), Recovery.write(file, out).recoveredBytes(), cut + ": everything up to the last segment");
            }
            if (viaCli++ % 6 == 0 || cut == end) {
                CommandOutcome o = assertTimeoutPreemptively(Duration.ofSeconds(60),
                        () -> CommandOutcome.mt("convert", file.toString(), dir.resolve("cut.mtlog").toString()));
                assertFalse(o.err().contains("\tat ") || o.err().contains("Exception"), cut + ": " + o);
                if (o.status() == ExitCodes.FAILED) {
                    assertTrue(o.oneErrorLine(), cut + ": " + o);
                } else {
                    assertEquals(ExitCodes.PARTIAL, o.status(), cut + ": " + o);
                    assertTrue(o.err().contains("lost:"), cut + ": " + o);
                }
            }
        }
        assertTrue(refused > 0, "cuts before the first segment's end are refused");
    }

    /** Every command that reads a recording takes the repository folder, says what it recovered and exits 3. */
    @Test
    void everyCommandThatReadsARecordingTakesTheFolder() throws Exception {
        String folder = folder().toString();
        List<CommandOutcome> outcomes = List.of(
                CommandOutcome.mt("convert", folder, dir.resolve("c.mtlog").toString()),
                CommandOutcome.mt("report", folder, dir.resolve("r.html").toString()),
                CommandOutcome.mt("export", "--format", "chrome-trace", folder, dir.resolve("t.json").toString()),
                CommandOutcome.mt("summary", folder),
                CommandOutcome.mt("print", "--tree", "--threads", "steps-0", "--to", "20", folder),
                CommandOutcome.mt("query", "--temp-dir", dir.toString(), "--format", "csv", folder,
                        "SELECT count(*) AS n FROM records WHERE kind = 'METHOD_ENTRY'"));
        for (CommandOutcome o : outcomes) {
            assertEquals(ExitCodes.PARTIAL, o.status(), o::toString);
            assertTrue(o.err().contains("unfinished chunk read up to"), o::toString);
            assertFalse(o.err().contains("\tat ") || o.err().contains("Exception"), o::toString);
        }
        assertTrue(outcomes.get(3).out().contains("steps-0"), outcomes.get(3)::toString);
        assertTrue(outcomes.get(4).out().contains("step"), outcomes.get(4)::toString);
        List<String> rows = outcomes.get(5).out().lines().toList();
        assertEquals("n", rows.get(0), outcomes.get(5)::toString);
        assertTrue(Long.parseLong(rows.get(1)) > 0, "the query counts the recovered entries: " + outcomes.get(5));
        try (Stream<Path> left = Files.list(dir)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith(".minitrace-recovered-")), "the copies are removed");
        }
    }

    /** What cannot be recovered is one line and exit status 1. */
    @Test
    void nothingToRecoverIsOneLine() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        for (CommandOutcome o : List.of(
                CommandOutcome.mt("convert", empty.toString(), dir.resolve("e.mtlog").toString()),
                CommandOutcome.mt("recover", "999999999", dir.resolve("n.mtlog").toString(), "--repository", empty.toString()),
                CommandOutcome.mt("recover", dir.resolve("nowhere").toString(), dir.resolve("n.mtlog").toString()))) {
            assertEquals(ExitCodes.FAILED, o.status(), o::toString);
            assertTrue(o.oneErrorLine(), o::toString);
        }
        Path shortLived = Files.createDirectories(dir.resolve("2026_11_23_21_05_39_1"));
        Files.write(shortLived.resolve("2026_11_23_21_05_39.jfr"), new byte[0]); // JFR had just created it
        CommandOutcome o = CommandOutcome.mt("convert", shortLived.toString(), dir.resolve("s.mtlog").toString());
        assertEquals(ExitCodes.FAILED, o.status(), o::toString);
        assertTrue(o.oneErrorLine() && o.err().contains("nothing recoverable"), o::toString);
    }
}
