package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.bb.Both;
import fixture.bb.CountingAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MiniTrace alongside a Byte Buddy agent that weaves advice into the same class, in both orders,
 * and through a retransformation of that class while both are installed: the other agent's
 * advice still counts every call, and MiniTrace's traces stay exact (every record of both threads,
 * in the known order).
 */
class OtherAgentIT {
    private static final int CALLS = 1000;
    private static final String[] PATTERN = {"step", "even", "even", "step", "step", "odd", "odd", "step"};
    private static final String[] TYPES = {"minitrace.MethodEntry", "minitrace.MethodEntry", "minitrace.MethodExit", "minitrace.MethodExit"};

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bothAgentsWorkInEitherOrder(boolean miniTraceFirst) throws Exception {
        Path other = dir.resolve("counting-agent.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", CountingAgent.class.getName());
        m.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(other), m)) {
            // the agent's classes come from the class path
        }
        String miniTrace = "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.recover.Steps";
        String byteBuddy = "-javaagent:" + other;
        Path jfr = dir.resolve("both.jfr");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(miniTraceFirst ? List.of(miniTrace, byteBuddy) : List.of(byteBuddy, miniTrace));
        cmd.addAll(List.of("-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                + ",filename=" + jfr + ",dumponexit=true,maxsize=0", "-cp", System.getProperty("java.class.path"),
                Both.class.getName(), Integer.toString(CALLS)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("even " + CALLS), "the other agent's advice counted every call of even: " + output);
        Trace t = Trace.read(jfr);
        assertTrue(t.unresolved.isEmpty(), t.unresolved::toString);
        for (String thread : List.of("both-0", "both-1")) {
            List<Trace.Ev> events = t.byThread.getOrDefault(thread, List.of());
            assertEquals(4 * CALLS, events.size(), thread + ": " + output);
            for (int i = 0; i < events.size(); i++) {
                String method = t.methods.get(events.get(i).methodId());
                assertEquals("fixture.recover.Steps::" + PATTERN[i % PATTERN.length], method, thread + " record " + i);
                assertEquals(TYPES[i % TYPES.length], events.get(i).type(), thread + " record " + i);
            }
            assertTrue(t.sequenceIsContiguous(thread), thread);
        }
    }
}
