package dev.minitrace.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A local JVM that {@code mt} talks to through the JDK's Attach API. Every check that can be made
 * without touching the target is made before attaching: the process exists, it is a JVM that
 * publishes itself for attach (listed by {@link VirtualMachine#list()}, which a JVM started with
 * {@code -XX:+DisableAttachMechanism} is not), it accepts attach; once
 * attached, it runs Java 17 or later. A process that is not a listed JVM is never signalled (the
 * Attach API's handshake sends SIGQUIT, which ends a non-Java process).
 */
public final class TargetJvm implements AutoCloseable {
    /** The agent's system property: {@code attached} or {@code premain} while MiniTrace is loaded. */
    public static final String STATE_PROPERTY = "minitrace.agent";
    /** The agent's system property describing how the last attach session ended. */
    public static final String LAST_PROPERTY = "minitrace.last";
    /** The prefix of the agent's reply properties. */
    static final String REPLY_PREFIX = "minitrace.reply.";
    /** The oldest Java version the agent runs on. */
    static final int MIN_JAVA = 17;

    private final long pid;
    private final VirtualMachine vm;

    private TargetJvm(long pid, VirtualMachine vm) {
        this.pid = pid;
        this.vm = vm;
    }

    /**
     * Attaches to the JVM with process id {@code pid}.
     *
     * @throws AttachFailure with a one-line message when the process is missing, not an
     *     attachable JVM, or older than Java 17
     */
    public static TargetJvm attach(long pid) {
        if (pid == ProcessHandle.current().pid()) {
            throw new AttachFailure("process " + pid + " is mt itself");
        }
        java.util.Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            throw new AttachFailure("no process with id " + pid);
        }
        if (!listed(pid)) {
            if (looksLikeJava(process.get())) {
                throw new AttachFailure("JVM " + pid + " refuses attach (not published for attach: started with"
                        + " -XX:+DisableAttachMechanism or -XX:-UsePerfData, or run by another user)");
            }
            throw new AttachFailure("process " + pid + " is not a Java VM (or not one mt may attach to)");
        }
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new AttachFailure("JVM " + pid + " refuses attach (" + oneLine(e) + "; started with -XX:+DisableAttachMechanism?)");
        } catch (IOException e) {
            throw new AttachFailure("cannot attach to JVM " + pid + ": " + oneLine(e));
        }
        TargetJvm target = new TargetJvm(pid, vm);
        try {
            String version = target.systemProperties().getProperty("java.specification.version", "");
            int feature = javaFeature(version);
            if (feature < MIN_JAVA) {
                throw new AttachFailure("JVM " + pid + " runs Java " + version + "; MiniTrace needs Java " + MIN_JAVA + " or later");
            }
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
        return target;
    }

    /** The feature version of a {@code java.specification.version} ({@code 1.8} → 8, {@code 17} → 17; unknown → 0). */
    static int javaFeature(String specificationVersion) {
        String v = specificationVersion.startsWith("1.") ? specificationVersion.substring(2) : specificationVersion;
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether the process runs a {@code java} launcher (its command's file name), as far as the OS tells. */
    private static boolean looksLikeJava(ProcessHandle process) {
        String command = process.info().command().orElse("");
        String name = Path.of(command.isEmpty() ? "x" : command).getFileName().toString();
        return name.equals("java") || name.equals("java.exe") || name.equals("javaw.exe");
    }

    private static boolean listed(long pid) {
        String id = Long.toString(pid);
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            if (d.id().equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** The process id. */
    public long pid() {
        return pid;
    }

    /** The target's system properties now. */
    public Properties systemProperties() {
        try {
            return vm.getSystemProperties();
        } catch (IOException e) {
            throw new AttachFailure("JVM " + pid + " did not answer: " + oneLine(e));
        }
    }

    /** {@code attached}, {@code premain} or null (MiniTrace not loaded). */
    public String agentState() {
        return systemProperties().getProperty(STATE_PROPERTY);
    }

    /**
     * Loads the agent jar with an attach request ({@code cmd=…} lines) and returns the agent's
     * answer (the text after {@code ok}).
     *
     * @throws AttachFailure with the agent's error, or when the agent could not be loaded
     */
    public String request(Path agentJar, String request) {
        String token = Long.toString(ProcessHandle.current().pid()) + "-" + System.nanoTime();
        try {
            vm.loadAgent(agentJar.toAbsolutePath().toString(), request + "reply=" + token + "\n");
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new AttachFailure("JVM " + pid + " could not load the agent: " + oneLine(e));
        } catch (IOException e) {
            throw new AttachFailure("JVM " + pid + " did not answer: " + oneLine(e));
        }
        String reply = systemProperties().getProperty(REPLY_PREFIX + token);
        if (reply == null) {
            throw new AttachFailure("JVM " + pid + ": the agent gave no answer (is " + agentJar + " the MiniTrace agent?)");
        }
        if (reply.startsWith("ok ")) {
            return reply.substring(3);
        }
        throw new AttachFailure(reply.startsWith("error ") ? reply.substring(6) : reply);
    }

    @Override
    public void close() {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target may have exited; nothing to release then
        }
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage();
        return (m == null ? t.getClass().getSimpleName() : m).replace('\n', ' ').trim();
    }
}
