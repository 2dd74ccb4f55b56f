package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.loaders.Loaders;
import java.nio.charset.StandardCharsets;
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
}
