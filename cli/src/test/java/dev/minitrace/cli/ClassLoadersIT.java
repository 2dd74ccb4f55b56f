package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.loaders.Loaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Classes of loaders whose parent chain does not reach the application class loader (a null
 * parent, the platform loader as parent) are traced like any other, and two loaders that define
 * a class of the same name get separate method ids.
 */
class ClassLoadersIT {
    private static final int CALLS = 500;

    @TempDir
    Path dir;

    @Test
    void everyLoaderIsTracedAndSameNamedClassesStayApart() throws Exception {
        Path jfr = dir.resolve("loaders.jfr");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.loaders.Plugin",
                "-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                        + ",filename=" + jfr + ",dumponexit=true,maxsize=0",
                "-cp", ChildProcess.testClasses(), Loaders.class.getName(), Integer.toString(CALLS))
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        Trace t = Trace.read(jfr);
        assertTrue(t.unresolved.isEmpty(), "every method id defined: " + t.unresolved);
        for (String thread : List.of("null-parent", "platform-parent", "twin-a", "twin-b")) {
            List<Trace.Ev> events = t.byThread.getOrDefault(thread, List.of());
            assertEquals(2 + 2 * CALLS, events.size(), thread + " traced: " + output);
            assertEquals("fixture.loaders.Plugin::work", t.methods.get(events.get(0).methodId()), thread);
            assertTrue(t.sequenceIsContiguous(thread), thread);
        }
        assertNotEquals(t.byThread.get("twin-a").get(0).methodId(), t.byThread.get("twin-b").get(0).methodId(),
                "Plugin.work of two loaders has two ids");
        ChildProcess.Outcome o = ChildProcess.cli(dir, "convert", jfr.toString(), dir.resolve("loaders.mtlog").toString());
        assertEquals(ExitCodes.OK, o.status(), o::toString);
    }

    /**
     * The same loaders reached by {@code mt attach --all-loaders}: the agent attached to a running
     * JVM before the loaders exist traces their classes too, and {@code mt stop} (which loads the
     * other agent jar) ends that session.
     */
    @Test
    void anAttachedAgentReachesEveryLoader() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", ChildProcess.testClasses(), Loaders.class.getName(), Integer.toString(CALLS), "wait", dir.resolve("end").toString())
                .redirectError(dir.resolve("err.txt").toFile()).start();
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String ready = out.readLine();
        assertTrue(ready != null && ready.startsWith("ready "), () -> "not ready: " + ready);
        String pid = Long.toString(p.pid());
        Path jfr = dir.resolve("attached.jfr");
        ChildProcess.Outcome a = ChildProcess.cli(dir, "attach", pid, "--all-loaders", "--include", "fixture.loaders.Plugin",
                "--out", jfr.toString());
        assertEquals(0, a.status(), a::toString);
        p.getOutputStream().close();
        assertEquals("done", out.readLine());
        ChildProcess.Outcome s = ChildProcess.cli(dir, "stop", pid);
        assertEquals(0, s.status(), s::toString);
        Files.writeString(dir.resolve("end"), "end");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = Files.readString(dir.resolve("err.txt"));
        assertEquals(0, p.exitValue(), err);
        assertTrue(!err.contains("cannot see the hooks"), err);
        Trace t = Trace.read(jfr);
        assertTrue(t.unresolved.isEmpty(), "every method id defined: " + t.unresolved);
        for (String thread : List.of("null-parent", "platform-parent", "twin-a", "twin-b")) {
            List<Trace.Ev> events = t.byThread.getOrDefault(thread, List.of());
            assertEquals(2 + 2 * CALLS, events.size(), thread + " traced: " + err);
            assertTrue(t.sequenceIsContiguous(thread), thread);
        }
        assertNotEquals(t.byThread.get("twin-a").get(0).methodId(), t.byThread.get("twin-b").get(0).methodId(),
                "Plugin.work of two loaders has two ids");
    }
}
