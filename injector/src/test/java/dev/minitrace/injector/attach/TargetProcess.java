package dev.minitrace.injector.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A child JVM running {@code fixture.attach.Target} (started without any agent unless asked),
 * and the Attach API calls the tests make on it: MiniTrace's attach requests, the test-only
 * {@code BytesProbe} agent, system properties, jcmd.
 */
final class TargetProcess implements AutoCloseable {
    static final Path AGENT = Path.of("target", "minitrace-agent-attach.jar").toAbsolutePath();
    static final Path TEST_CLASSES = Path.of("target", "test-classes").toAbsolutePath();
    static final Path SETTINGS = TEST_CLASSES.resolve("minitrace-test.jfc");

    final Path dir;
    final Process process;
    private final VirtualMachine vm;

    private TargetProcess(Path dir, Process process, VirtualMachine vm) {
        this.dir = dir;
        this.process = process;
        this.vm = vm;
    }

    /** Starts the target with {@code jvmArgs} and attaches once its loop runs. */
    static TargetProcess start(Path dir, String... jvmArgs) throws Exception {
        return start(dir, List.of(jvmArgs), null, List.of());
    }

    /** Starts the target with an extra class path entry (may be null) and classes it loads without linking. */
    static TargetProcess start(Path dir, List<String> jvmArgs, Path extraClasspath, List<String> preload) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        String cp = TEST_CLASSES + (extraClasspath == null ? "" : java.io.File.pathSeparator + extraClasspath);
        cmd.addAll(List.of("-cp", cp, "fixture.attach.Target", dir.toString()));
        cmd.addAll(preload);
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        awaitFile(dir.resolve("ready"), p);
        return new TargetProcess(dir, p, VirtualMachine.attach(Long.toString(p.pid())));
    }

    /** Waits (polling, no timing assumption) until {@code file} exists; fails if the process ends. */
    static void awaitFile(Path file, Process p) throws Exception {
        while (!Files.exists(file)) {
            if (!p.isAlive()) {
                throw new IllegalStateException("target ended before " + file.getFileName() + " appeared");
            }
            Thread.sleep(20);
        }
    }

    /** Sends an attach request to MiniTrace's agent and returns its reply ("ok …" or "error …"). */
    String request(String request) throws Exception {
        String token = "t" + System.nanoTime();
        vm.loadAgent(AGENT.toString(), request + "reply=" + token + "\n");
        return properties().getProperty("minitrace.reply." + token);
    }

    /** {@code cmd=start} with {@code options}, the test settings and {@code out}. */
    String attach(String options, Path out) throws Exception {
        return request("cmd=start\noptions=" + options + "\njfc=" + SETTINGS + "\nout=" + out + "\n");
    }

    /** {@code cmd=stop}. */
    String stop() throws Exception {
        return request("cmd=stop\n");
    }

    Properties properties() throws IOException {
        return vm.getSystemProperties();
    }

    /** Loads the BytesProbe agent from the jar {@code jarName} (made on first use) with {@code args}. */
    void probe(String jarName, String args) throws Exception {
        Path jar = dir.resolve(jarName);
        if (!Files.exists(jar)) {
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            m.getMainAttributes().putValue("Agent-Class", "fixture.attach.BytesProbe");
            m.getMainAttributes().putValue("Can-Retransform-Classes", "true");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
                out.putNextEntry(new JarEntry("fixture/attach/BytesProbe.class"));
                out.write(Files.readAllBytes(TEST_CLASSES.resolve("fixture/attach/BytesProbe.class")));
                out.closeEntry();
            }
        }
        vm.loadAgent(jar.toString(), args);
    }

    /** Runs {@code jcmd <pid> args} and returns its output. */
    String jcmd(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
        cmd.add(Long.toString(process.pid()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /**
     * Asks the loop to stop, waits for the exit and returns stderr (stdout goes to stdout.txt)
     * without the four-line warning JDK 21 and later print for every dynamically loaded agent (JEP 451).
     */
    String finish() throws Exception {
        vm.detach();
        Files.writeString(dir.resolve("stop"), "now");
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("target did not stop");
        }
        assertEquals(0, process.exitValue(), Files.readString(dir.resolve("stderr.txt")));
        StringBuilder b = new StringBuilder();
        for (String line : Files.readAllLines(dir.resolve("stderr.txt"))) {
            if (!isDynamicAgentWarning(line)) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    static boolean isDynamicAgentWarning(String line) {
        return line.startsWith("WARNING: A Java agent has been loaded dynamically")
                || line.startsWith("WARNING: If a serviceability tool is")
                || line.startsWith("WARNING: Dynamic loading of agents will be disallowed");
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
