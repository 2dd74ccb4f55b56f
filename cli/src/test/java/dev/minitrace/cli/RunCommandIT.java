package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import fixture.run.TracedProgram;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mt run} end to end: the packaged CLI, the real agent, a real recording. */
class RunCommandIT {
    private static final String FIXTURE = TracedProgram.class.getName();

    @TempDir
    Path dir;

    @Test
    void tracesTheProgramIntoOutAndReturnsItsExitStatus() throws Exception {
        Path out = dir.resolve("trace.jfr");
        ChildProcess.Outcome o = runGoThree(out);
        List<String> err = o.errLines();
        assertTrue(err.get(err.size() - 1).startsWith("run: recording written to " + out + " ("), o::err);
        assertTrue(Files.isRegularFile(out));

        Trace t = Trace.read(out);
        assertEquals(List.of(), t.unresolved, "every method id resolves");
        assertEquals(3, t.count("main", "minitrace.MethodEntry", FIXTURE + "::work"));
        assertEquals(3, t.count("main", "minitrace.MethodExit", FIXTURE + "::work"));
        assertEquals(3, t.count("main", "minitrace.MethodEntry", FIXTURE + "::square"));
        assertEquals(3, t.count("main", "minitrace.MethodExit", FIXTURE + "::square"));
        assertEquals(3, t.countWithClass("main", "minitrace.LockAcquire", "monitorClass", "java.lang.Object"));
        assertEquals(3, t.countWithClass("main", "minitrace.LockRelease", "monitorClass", "java.lang.Object"));
        assertTrue(t.sequenceIsContiguous("main"), "main's sequence numbers are 1..n");
    }

    /**
     * {@code --out FILE.mtlog}: the trace converted at exit, from the kept repository in place on
     * JDK 21+ (no copy of the recording), from a temporary recording before; either way the same
     * records as {@code mt run} into a .jfr and {@code mt convert}, and nothing left beside it.
     */
    @Test
    void anMtlogOutIsConvertedAtExitAndNothingElseStays() throws Exception {
        Path out = dir.resolve("trace.mtlog");
        ChildProcess.Outcome o = runGoThree(out);
        assertTrue(o.out().contains(out + ": "), "the conversion's summary: " + o.out());
        boolean inPlace = Runtime.version().feature() >= 21;
        assertEquals(inPlace, o.err().contains("/.trace.mtlog.") && o.err().contains(".chunks/<time>_"),
                "JDK " + Runtime.version().feature() + ": the repository beside OUT is named as where JFR's chunks stay: " + o.err());
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(out), left.filter(p -> !Files.isDirectory(p) || p.getFileName().toString().startsWith(".")).toList(),
                    "only the trace is left (no recording, no repository)");
        }

        Path jfr = dir.resolve("trace.jfr");
        runGoThree(jfr);
        Path converted = dir.resolve("converted.mtlog");
        assertEquals(0, ChildProcess.cli(dir, "convert", jfr.toString(), converted.toString()).status());
        Map<String, Integer> expected = entries(converted);
        assertEquals(3, expected.get("main " + FIXTURE + "::work"), expected::toString);
        assertEquals(expected, entries(out));
    }

    /** {@code mt run --out OUT} of the fixture's {@code go 3}: its output and exit status 3 checked. */
    private ChildProcess.Outcome runGoThree(Path out) throws Exception {
        ChildProcess.Outcome o = ChildProcess.cli(dir, "run", "--out", out.toString(), "--",
                "-cp", ChildProcess.testClasses(), FIXTURE, "go", "3");
        assertEquals(3, o.status(), o::toString);
        assertTrue(o.out().contains("sum 14"), o::out);
        return o;
    }

    /** Method entries per thread and method of a thread-layout .mtlog. */
    private static Map<String, Integer> entries(Path mtlog) throws java.io.IOException {
        Map<String, Integer> n = new TreeMap<>();
        try (MtlogReader r = MtlogReader.open(mtlog)) {
            Map<Long, MtlogInfo.MethodInfo> methods = r.info().methods();
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> t : r.info().threads().entrySet()) {
                r.forEachRecord((int) (long) t.getKey(), (stream, type, value, aux) -> {
                    if (type == MtlogFormat.METHOD_ENTRY) {
                        MtlogInfo.MethodInfo m = methods.get(value);
                        n.merge(t.getValue().name() + " " + m.className() + "::" + m.methodName(), 1, Integer::sum);
                    }
                });
            }
        }
        return n;
    }

    @Test
    void lightProfileAndEventsOptionReachRecordingAndAgent() throws Exception {
        Path out = dir.resolve("light.jfr");
        ChildProcess.Outcome o = ChildProcess.cli(dir, "run", "--out", out.toString(),
                "--jfc", ChildProcess.ROOT.resolve("jfc-profiles/minitrace-light.jfc").toString(),
                "--include", FIXTURE, "--events", "method", "--",
                "-cp", ChildProcess.testClasses(), FIXTURE, "go", "0");

        assertEquals(0, o.status(), o::toString);
        Trace t = Trace.read(out);
        assertEquals(3, t.count("main", "minitrace.MethodEntry", FIXTURE + "::work"));
        assertEquals(0, t.count("main", "minitrace.LockAcquire"), "no lock events in the light profile");
        assertEquals(0, t.count("main", "minitrace.ObjectAlloc"));
    }

    @Test
    void jcmdDumpWhileItRunsResolvesItsMethodIds() throws Exception {
        Path out = dir.resolve("final.jfr");
        Path snapshot = dir.resolve("snapshot.jfr");
        Path errFile = dir.resolve("stderr.txt");
        Process mt = ChildProcess.builder(dir, ChildProcess.cliCommand("run", "--out", out.toString(), "--",
                "-cp", ChildProcess.testClasses(), FIXTURE, "wait", "0"))
                .redirectError(errFile.toFile()).start();
        long pid = -1;
        List<String> lines = new ArrayList<>();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(mt.getInputStream(), StandardCharsets.UTF_8));
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            lines.add(line);
            if (line.startsWith("ready ")) {
                pid = Long.parseLong(line.substring("ready ".length()));
                break;
            }
        }
        assertTrue(pid > 0, () -> "the program never said ready: " + lines);

        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "JFR.dump", "name=minitrace", "filename=" + snapshot)
                .redirectErrorStream(true).start();
        String jcmdOut = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, jcmd.waitFor(), jcmdOut);
        mt.getOutputStream().close();
        stdout.transferTo(java.io.Writer.nullWriter());
        assertEquals(0, mt.waitFor(), () -> "mt run failed: " + readQuietly(errFile));

        Trace snap = Trace.read(snapshot);
        assertEquals(List.of(), snap.unresolved, "every method id of the snapshot resolves in the snapshot");
        assertEquals(3, snap.count("main", "minitrace.MethodEntry", FIXTURE + "::work"));
        assertTrue(Files.isRegularFile(out), "the final recording is written too");
        assertEquals(3, Trace.read(out).count("main", "minitrace.MethodEntry", FIXTURE + "::work"));
    }

    /**
     * JFR deletes its repository after an orderly exit even when it could not write the
     * recording (here: the output folder was removed while the program ran), losing the trace.
     * On JDK 21 and later {@code mt run} keeps it ({@code preserve-repository=true}) and says
     * where; after a complete recording it deletes it, as JFR would have.
     */
    @Test
    void theRepositoryStaysOnlyWhenTheRecordingIsNotComplete() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        // A complete recording: nothing of the child's repository is left.
        ChildProcess.Outcome ok = ChildProcess.cli(dir, "run", "--out", dir.resolve("ok.jfr").toString(), "--",
                "-Djava.io.tmpdir=" + tmp, "-cp", ChildProcess.testClasses(), FIXTURE, "go", "0");
        assertEquals(0, ok.status(), ok::toString);
        long okPid = pidOf(ok.err());
        assertEquals(List.of(), repositoriesOf(tmp, okPid), ok::err);

        // The recording cannot be written: the output folder is gone when the program ends.
        Path outDir = Files.createDirectories(dir.resolve("gone"));
        Path errFile = dir.resolve("stderr.txt");
        Waiting w = runWaiting(outDir.resolve("t.jfr"), tmp, errFile);
        Process mt = w.mt();
        BufferedReader stdout = w.stdout();
        long pid = w.pid();
        try (java.util.stream.Stream<Path> inside = Files.list(outDir)) {
            for (Path p : inside.toList()) {
                Files.delete(p); // JFR's file for the recording, made when it started
            }
        }
        Files.delete(outDir);
        mt.getOutputStream().close();
        stdout.transferTo(java.io.Writer.nullWriter());
        mt.waitFor();
        String err = readQuietly(errFile);
        List<Path> kept = repositoriesOf(tmp, pid);
        if (Runtime.version().feature() >= 21) {
            assertEquals(1, kept.size(), err);
            assertTrue(err.contains("run: the recording is not complete; JFR's chunks are kept in " + kept.get(0)), err);
            try (java.util.stream.Stream<Path> chunks = Files.list(kept.get(0))) {
                assertTrue(chunks.anyMatch(p -> p.getFileName().toString().endsWith(".jfr")), "the chunks are there");
            }
            ChildProcess.Outcome recovered = ChildProcess.cli(dir, "convert", kept.get(0).toString(), dir.resolve("r.mtlog").toString());
            assertTrue(recovered.status() == 0 || recovered.status() == 3, recovered::toString);
            assertTrue(Files.size(dir.resolve("r.mtlog")) > 0);
        } else {
            assertEquals(List.of(), kept, "JDK " + Runtime.version().feature() + " has no preserve-repository: JFR deleted it");
        }
    }

    /** kill -9 of the traced program: no recording, and its repository kept and named on every JDK. */
    @Test
    void afterKillNineTheRepositoryIsKeptAndNamed() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path out = dir.resolve("killed.jfr");
        Path errFile = dir.resolve("stderr.txt");
        Waiting w = runWaiting(out, tmp, errFile);
        Process mt = w.mt();
        BufferedReader stdout = w.stdout();
        long pid = w.pid();
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).start();
        assertEquals(0, kill.waitFor());
        stdout.transferTo(java.io.Writer.nullWriter());
        assertEquals(137, mt.waitFor(), () -> readQuietly(errFile));
        String err = readQuietly(errFile);
        List<Path> kept = repositoriesOf(tmp, pid);
        assertEquals(1, kept.size(), err);
        assertTrue(err.contains("JFR's chunks are kept in " + kept.get(0) + ": mt recover " + kept.get(0)), err);
        assertTrue(err.contains("run: no recording was written"), err);
        assertTrue(!err.contains("recording written to"), err);
        assertTrue(!Files.exists(out), "no empty file left as if it were the recording");
    }

    /** {@code mt run} of the fixture in its waiting mode, and the traced program's pid once it said it is ready. */
    private record Waiting(Process mt, BufferedReader stdout, long pid) {
    }

    private Waiting runWaiting(Path out, Path tmp, Path errFile) throws Exception {
        Process mt = ChildProcess.builder(dir, ChildProcess.cliCommand("run", "--out", out.toString(), "--",
                "-Djava.io.tmpdir=" + tmp, "-cp", ChildProcess.testClasses(), FIXTURE, "wait", "0"))
                .redirectError(errFile.toFile()).start();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(mt.getInputStream(), StandardCharsets.UTF_8));
        long pid = -1;
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            if (line.startsWith("ready ")) {
                pid = Long.parseLong(line.substring("ready ".length()));
                break;
            }
        }
        assertTrue(pid > 0, () -> "the program never said ready: " + readQuietly(errFile));
        return new Waiting(mt, stdout, pid);
    }

    private static long pidOf(String err) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("tracing pid (\\d+) ").matcher(err);
        assertTrue(m.find(), err);
        return Long.parseLong(m.group(1));
    }

    /** The JFR repositories ({@code <time>_<pid>}) of process {@code pid} under {@code tmp}. */
    private static List<Path> repositoriesOf(Path tmp, long pid) throws java.io.IOException {
        try (java.util.stream.Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().endsWith("_" + pid)).toList();
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @Test
    void badOptionIsOneLineAndExitTwo() throws Exception {
        ChildProcess.Outcome o = ChildProcess.cli(dir, "run", "--events", "nope", "--", "-cp", "x", "a.Main");
        assertEquals(2, o.status(), o::toString);
        assertEquals(1, o.errLines().size(), o::err);
        assertTrue(o.err().startsWith("run: --events: unknown kind 'nope'"), o::err);
    }
}
