package dev.minitrace.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's command line and a real child JVM run with a stand-in agent (the real agent is
 * tested end to end by the CLI's integration tests): exit status, agent options, the recording
 * moved into place, the recording's settings.
 */
class TracedProcessTest {
    /** The project's default profile; tests run in the cli folder. */
    private static final Path PROFILE = Path.of("..", "jfc-profiles", "minitrace.jfc");

    @TempDir
    Path dir;

    private TracedProcess.Spec spec(String agentOptions, List<String> args) {
        return new TracedProcess.Spec(TracedProcess.javaExecutable(), dir.resolve("agent.jar"), agentOptions, PROFILE,
                dir.resolve("trace.jfr"), args);
    }

    @Test
    void commandPutsAgentAndRecordingBeforeTheProgram() {
        TracedProcess p = TracedProcess.of(spec("events=method", List.of("-Xmx64m", "-cp", "x.jar", "a.Main", "1")));
        List<String> cmd = p.command();
        Path partial = p.partialRecording();
        assertEquals(List.of(TracedProcess.javaExecutable().toAbsolutePath().toString(),
                "-javaagent:" + dir.resolve("agent.jar").toAbsolutePath() + "=events=method",
                RecordingOptions.flightRecorderOptions(Runtime.version().feature()),
                RecordingOptions.startFlightRecording(PROFILE.toAbsolutePath().normalize(), partial),
                "-Xmx64m", "-cp", "x.jar", "a.Main", "1"), cmd);
        assertEquals(dir.resolve("trace.jfr").getParent(), partial.getParent(), "renamed within one folder");
        assertNotEquals(dir.resolve("trace.jfr"), partial);
    }

    @Test
    void noAgentOptionsMeansNoEqualsSign() {
        List<String> cmd = TracedProcess.of(spec("", List.of("a.Main"))).command();
        assertEquals("-javaagent:" + dir.resolve("agent.jar").toAbsolutePath(), cmd.get(1));
    }

    @Test
    void theUsersRecorderOptionsWin() {
        List<String> cmd = TracedProcess.of(spec("", List.of("-XX:FlightRecorderOptions:memorysize=200m", "a.Main"))).command();
        assertEquals(1, cmd.stream().filter(a -> a.startsWith("-XX:FlightRecorderOptions")).count(), cmd::toString);
        assertTrue(cmd.contains("-XX:FlightRecorderOptions:memorysize=200m"));
    }

    @Test
    void badInputIsRejectedBeforeAnythingStarts() throws IOException {
        Path notJfc = Files.writeString(dir.resolve("x.jfc"), "not xml");
        Path java = TracedProcess.javaExecutable();
        Path agent = dir.resolve("agent.jar");
        Path out = dir.resolve("t.jfr");
        List<String> prog = List.of("a.Main");
        assertMessage("--jfc " + dir.resolve("missing.jfc") + ": no such file",
                new TracedProcess.Spec(java, agent, "", dir.resolve("missing.jfc"), out, prog));
        assertMessage("--jfc " + notJfc + ": not a JFR settings file",
                new TracedProcess.Spec(java, agent, "", notJfc, out, prog));
        assertMessage("--out " + dir + ": is a folder",
                new TracedProcess.Spec(java, agent, "", PROFILE, dir, prog));
        assertMessage("--out " + dir.resolve("no/t.jfr") + ": folder " + dir.resolve("no") + " does not exist",
                new TracedProcess.Spec(java, agent, "", PROFILE, dir.resolve("no/t.jfr"), prog));
        assertMessage("no program to run", new TracedProcess.Spec(java, agent, "", PROFILE, out, List.of()));
    }

    private static void assertMessage(String start, TracedProcess.Spec spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TracedProcess.of(spec));
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void runsTheProgramWithAgentAndRecordingAndReturnsItsExitStatus() throws Exception {
        Path agentJar = fixtureAgentJar(dir.resolve("agent.jar"));
        Path optionsFile = dir.resolve("agent-options.txt");
        Path out = dir.resolve("trace.jfr");
        Files.writeString(out, "an older file the run replaces");
        String classpath = Path.of(ExitingProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        TracedProcess p = TracedProcess.of(new TracedProcess.Spec(TracedProcess.javaExecutable(), agentJar,
                "include=a.*,events=method", PROFILE, out,
                List.of("-Dfixture.agentOptions=" + optionsFile, "-cp", classpath, ExitingProgram.class.getName(), "3")));
        AtomicLong pid = new AtomicLong();

        TracedProcess.Result r = p.run(pid::set);

        assertEquals(3, r.exitStatus());
        assertEquals(pid.get(), r.pid());
        assertEquals(out, r.recording());
        assertFalse(Files.exists(p.partialRecording()), "the temporary recording was renamed");
        assertEquals("include=a.*,events=method", Files.readString(optionsFile));
        boolean minitraceRecording = false;
        boolean jvmInformation = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.ActiveRecording") && "minitrace".equals(e.getString("name"))) {
                minitraceRecording = true;
                assertEquals(0L, e.getLong("maxSize"), "no size limit");
            }
            jvmInformation |= type.equals("jdk.JVMInformation");
            assertFalse(type.equals("jdk.FileRead") || type.equals("jdk.JavaExceptionThrow"), type);
        }
        assertTrue(minitraceRecording, "a recording named minitrace with maxSize 0");
        assertTrue(jvmInformation, "the profile's jdk.JVMInformation");
    }

    /** A jar whose manifest names {@link FixtureAgent} as the agent, holding its class. */
    private static Path fixtureAgentJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", FixtureAgent.class.getName());
        String entry = FixtureAgent.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jos = new JarOutputStream(out, manifest);
                InputStream in = FixtureAgent.class.getClassLoader().getResourceAsStream(entry)) {
            jos.putNextEntry(new JarEntry(entry));
            in.transferTo(jos);
            jos.closeEntry();
        }
        return jar;
    }
}
