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
 * MiniTrace alongside another agent, in both orders: a Byte Buddy agent that weaves advice into
 * the same class, also through a retransformation of that class while both are installed (the
 * other agent's advice still counts every call), and JaCoCo's agent (its coverage stays complete);
 * MiniTrace's traces stay exact (every record of both threads, in the known order).
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
        Path jfr = dir.resolve("both.jfr");
        String output = runBoth("-javaagent:" + other, miniTraceFirst, jfr);
        assertTrue(output.contains("even " + CALLS), "the other agent's advice counted every call of even: " + output);
        assertExactTrace(jfr, output);
    }

    /**
     * JaCoCo's released agent (the runtime jar of org.jacoco.agent) beside MiniTrace's, in both
     * orders: JaCoCo's coverage of the traced methods is complete (read with org.jacoco.core
     * against the class's own bytes, so its probes were inserted into the original class), and
     * MiniTrace's traces stay exact.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void jacocoAndMiniTraceWorkInEitherOrder(boolean miniTraceFirst) throws Exception {
        Path jacocoJar = null;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (entry.contains("org.jacoco.agent") && entry.endsWith("-runtime.jar")) {
                jacocoJar = Path.of(entry);
            }
        }
        assertTrue(jacocoJar != null, "JaCoCo's runtime agent is a test dependency");
        Path exec = dir.resolve("jacoco.exec");
        String jacoco = "-javaagent:" + jacocoJar + "=destfile=" + exec + ",includes=fixture.recover.*";
        Path jfr = dir.resolve("jacoco.jfr");
        String output = runBoth(jacoco, miniTraceFirst, jfr);
        assertTrue(!output.contains("minitrace: not instrumenting") && !output.contains("minitrace: cannot"), output);
        assertExactTrace(jfr, output);

        org.jacoco.core.tools.ExecFileLoader loader = new org.jacoco.core.tools.ExecFileLoader();
        loader.load(exec.toFile());
        org.jacoco.core.analysis.CoverageBuilder coverage = new org.jacoco.core.analysis.CoverageBuilder();
        byte[] original;
        try (java.io.InputStream in = fixture.recover.Steps.class.getResourceAsStream("Steps.class")) {
            original = in.readAllBytes();
        }
        new org.jacoco.core.analysis.Analyzer(loader.getExecutionDataStore(), coverage).analyzeClass(original, "Steps.class");
        assertEquals(1, coverage.getClasses().size());
        org.jacoco.core.analysis.IClassCoverage steps = coverage.getClasses().iterator().next();
        assertTrue(loader.getExecutionDataStore().contains("fixture/recover/Steps"), "JaCoCo saw the original class");
        int checked = 0;
        for (org.jacoco.core.analysis.IMethodCoverage m : steps.getMethods()) {
            if (List.of("step", "even", "odd").contains(m.getName())) {
                assertEquals(m.getInstructionCounter().getTotalCount(), m.getInstructionCounter().getCoveredCount(),
                        "JaCoCo covered all of " + m.getName() + " (order: MiniTrace " + (miniTraceFirst ? "first" : "second") + ")");
                checked++;
            }
        }
        assertEquals(3, checked);
    }

    /**
     * Runs {@link Both} with MiniTrace's agent and {@code otherAgent} (a {@code -javaagent:} option)
     * in the order asked, recording into {@code jfr}; the child's output, once it exited with 0.
     */
    private static String runBoth(String otherAgent, boolean miniTraceFirst, Path jfr) throws Exception {
        String miniTrace = "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.recover.Steps";
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(miniTraceFirst ? List.of(miniTrace, otherAgent) : List.of(otherAgent, miniTrace));
        cmd.addAll(List.of("-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                + ",filename=" + jfr + ",dumponexit=true,maxsize=0", "-cp", System.getProperty("java.class.path"),
                Both.class.getName(), Integer.toString(CALLS)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        return output;
    }

    /** Every record of both threads, in the known order, with contiguous sequences. */
    private static void assertExactTrace(Path jfr, String output) throws Exception {
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
