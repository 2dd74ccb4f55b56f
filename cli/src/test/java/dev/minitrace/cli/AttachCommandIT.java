package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mt attach}, {@code mt dump}, {@code mt stop} and {@code mt list} against a child JVM
 * started without any agent, through the built CLI jar; and every bad input: one line, a non-zero
 * exit, and the target still running.
 */
class AttachCommandIT {
    @TempDir
    Path dir;

    /** Starts fixture.attach.Service with {@code jvmArgs} and waits until it runs. */
    private Process service(String... jvmArgs) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", ChildProcess.testClasses(), "fixture.attach.Service", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("service-out.txt").toFile())
                .redirectError(dir.resolve("service-err.txt").toFile()).start();
        while (!Files.exists(dir.resolve("ready"))) {
            assertTrue(p.isAlive(), "service ended early");
            Thread.sleep(20);
        }
        return p;
    }

    /** The target's JFR setting {@code preserve-repository}, as {@code jcmd PID JFR.configure} prints it (JDK 21+). */
    private static String preserveRepository(String pid) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid, "JFR.configure")
                .redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, jcmd.waitFor(), out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Preserve repository: (\\w+)").matcher(out);
        assertTrue(m.find(), out);
        return m.group(1);
    }

    private void finish(Process p) throws Exception {
        Files.writeString(dir.resolve("stop"), "now");
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue());
        assertTrue(Files.readString(dir.resolve("service-out.txt")).startsWith("sum "));
    }

    @Test
    void attachDumpListStopAndCapture() throws Exception {
        Process p = service();
        try {
            String pid = Long.toString(p.pid());
            Path out = dir.resolve("trace.jfr");
            ChildProcess.Outcome a = ChildProcess.cli(dir, "attach", pid, "--include", "fixture.attach.*",
                    "--capture", "fixture.attach.Service::handle", "--out", out.toString());
            assertEquals(0, a.status(), a::toString);
            assertTrue(a.err().startsWith("attach: JVM " + pid + ": tracing: rewrote 1 loaded classes (0 left unchanged, 0 failed)"), a::err);
            if (Runtime.version().feature() >= 21) {
                assertEquals("true", preserveRepository(pid), "while attached, the target keeps its chunks whatever its exit");
            }

            ChildProcess.Outcome l = ChildProcess.cli(dir, "list");
            assertEquals(0, l.status(), l::toString);
            assertTrue(l.out().lines().anyMatch(line -> line.startsWith(pid + " ") && line.contains(" attached ")
                    && line.contains("fixture.attach.Service")), l::out);

            Path snapshot = dir.resolve("snapshot.jfr");
            ChildProcess.Outcome d = ChildProcess.cli(dir, "dump", pid, snapshot.toString());
            assertEquals(0, d.status(), d::toString);
            assertTrue(types(snapshot).contains("minitrace.MethodBuffer"), "the snapshot holds traced calls");

            ChildProcess.Outcome again = ChildProcess.cli(dir, "attach", pid);
            assertEquals(1, again.status(), again::toString);
            assertEquals(List.of("attach: MiniTrace is already attached to JVM " + pid + " (end it with 'mt stop " + pid + "')"),
                    again.errLines());

            ChildProcess.Outcome s = ChildProcess.cli(dir, "stop", pid);
            assertEquals(0, s.status(), s::toString);
            assertTrue(s.err().startsWith("stop: JVM " + pid + ": recording written to " + out), s::err);
            if (Runtime.version().feature() >= 21) {
                assertEquals("false", preserveRepository(pid), "the recording written, the target's later exits keep nothing");
            }
            Set<String> types = types(out);
            assertTrue(types.contains("minitrace.MethodBuffer") && types.contains("minitrace.MethodCapture"), types::toString);
            for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
                if (e.getEventType().getName().equals("minitrace.MethodCapture")) {
                    assertEquals("fixture.attach.Service::handle", e.getString("method"));
                    assertTrue(e.getString("arguments").matches("\\d+, user[0-2]"), e.getString("arguments"));
                }
            }
            assertFalse(Files.list(dir).anyMatch(f -> f.getFileName().toString().endsWith(".part")), "no partial file left");

            ChildProcess.Outcome l2 = ChildProcess.cli(dir, "list");
            assertTrue(l2.out().lines().anyMatch(line -> line.startsWith(pid + " ") && line.contains(" - ")), l2::out);
            ChildProcess.Outcome s2 = ChildProcess.cli(dir, "stop", pid);
            assertEquals(1, s2.status());
            assertEquals(List.of("stop: MiniTrace is not attached to JVM " + pid + " (nothing to stop)"), s2.errLines());

            // With --duration, mt waits for the end and reports it.
            Path timed = dir.resolve("timed.jfr");
            // ... and --redact reaches the agent: a position rule, and a pattern whose comma it must keep.
            ChildProcess.Outcome t = ChildProcess.cli(dir, "attach", pid, "--include", "fixture.attach.Service",
                    "--capture", "fixture.attach.Service::handle", "--redact", "fixture.attach.Service::handle#2",
                    "--redact", "value:^\\d{0,9}7$", "--duration", "500ms", "--out", timed.toString());
            assertEquals(0, t.status(), t::toString);
            assertEquals(3, t.errLines().size(), t::err);
            assertTrue(t.errLines().get(1).startsWith("attach: if it dies (kill -9, OOM killer, crash), JFR's chunks stay in "), t::err);
            assertTrue(t.errLines().get(1).endsWith("_" + pid + ": mt recover " + pid + " OUT.mtlog"), t::err);
            assertTrue(t.errLines().get(2).startsWith("attach: JVM " + pid + ": recording written to " + timed), t::err);
            assertTrue(types(timed).contains("minitrace.MethodBuffer"));
            int captures = 0;
            int redactedRequests = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(timed)) {
                if (e.getEventType().getName().equals("minitrace.MethodCapture")) {
                    captures++;
                    String args = e.getString("arguments");
                    assertTrue(args.matches("(\\d*[0-689]|<redacted>), <redacted>"), args);
                    redactedRequests += args.startsWith("<redacted>") ? 1 : 0;
                }
            }
            assertTrue(captures >= 20 && redactedRequests > 0, captures + " captures, " + redactedRequests + " with a redacted request");
            finish(p);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void badInputsGetOneLineAndLeaveTheTargetRunning() throws Exception {
        Process p = service("-XX:+DisableAttachMechanism");
        Process notJava = new ProcessBuilder("sleep", "600").start();
        try {
            String pid = Long.toString(p.pid());
            expectFailure(1, "attach: JVM " + pid + " refuses attach (", "attach", pid);
            expectFailure(1, "attach: process " + notJava.pid() + " is not a Java VM", "attach", Long.toString(notJava.pid()));
            expectFailure(1, "attach: no process with id 2147483647", "attach", "2147483647");
            expectFailure(2, "attach: Invalid value for positional parameter at index 0 (PID)", "attach", "abc");
            expectFailure(2, "attach: --duration '5 parsecs': expected a number and a unit", "attach", pid, "--duration", "5 parsecs");
            expectFailure(1, "stop: no process with id 2147483647", "stop", "2147483647");
            expectFailure(1, "dump: JVM " + pid + " refuses attach (", "dump", pid, dir.resolve("x.jfr").toString());
            assertTrue(notJava.isAlive(), "the non-Java process was not signalled");
            assertTrue(p.isAlive());
        } finally {
            notJava.destroyForcibly();
            finishQuietly(p);
        }
        Process q = service();
        try {
            String pid = Long.toString(q.pid());
            expectFailure(1, "attach: option 'include=a..b': filter 'a..b': 'a..b' is not a qualified name", "attach", pid,
                    "--include", "a..b");
            expectFailure(1, "dump: JVM " + pid + " wrote no recording: ", "dump", pid, dir.resolve("none.jfr").toString());
            expectFailure(2, "attach: --out " + dir.resolve("nowhere/t.jfr") + ": no folder", "attach", pid, "--out",
                    dir.resolve("nowhere/t.jfr").toString());
            Path badJfc = Files.writeString(dir.resolve("bad.jfc"), "<not-a-configuration");
            expectFailure(1, "attach: cannot read the settings " + badJfc, "attach", pid, "--jfc", badJfc.toString());
            assertFalse(Files.exists(dir.resolve("none.jfr")));
            finish(q);
        } finally {
            q.destroyForcibly();
        }
    }

    private void finishQuietly(Process p) throws Exception {
        Files.writeString(dir.resolve("stop"), "now");
        p.waitFor(2, TimeUnit.MINUTES);
        Files.delete(dir.resolve("stop"));
        Files.delete(dir.resolve("ready"));
    }

    private void expectFailure(int status, String prefix, String... args) throws Exception {
        ChildProcess.Outcome o = ChildProcess.cli(dir, args);
        assertEquals(status, o.status(), o::toString);
        assertEquals(1, o.errLines().size(), o::err);
        assertTrue(o.err().startsWith(prefix), () -> "expected '" + prefix + "' but got " + o.err());
    }

    private static Set<String> types(Path recording) throws Exception {
        Set<String> types = new HashSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            types.add(e.getEventType().getName());
        }
        return types;
    }
}
