package dev.minitrace.launch;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The root of a MiniTrace build (the project folder), where the agent jar, the profiles and the
 * demo jar are. {@code bin/mt} passes it as the system property {@value #PROPERTY}; without it,
 * the root is found from the location of the CLI jar ({@code cli/target/minitrace-cli.jar}).
 */
public final class MiniTraceHome {
    /** The system property {@code bin/mt} sets to the project root. */
    public static final String PROPERTY = "minitrace.home";
    /** The agent jar, relative to the root. */
    public static final String AGENT_JAR = "injector/target/minitrace-agent.jar";
    /** The agent jar for {@code mt attach} and {@code mt stop}, relative to the root. */
    public static final String ATTACH_AGENT_JAR = "injector/target/minitrace-agent-attach.jar";
    /** The demo jar, relative to the root. */
    public static final String DEMO_JAR = "demo/target/minitrace-demo.jar";
    /** The folder of the .jfc profiles, relative to the root. */
    public static final String PROFILES = "jfc-profiles";
    /** The default profile's file name. */
    public static final String DEFAULT_PROFILE = "minitrace.jfc";

    private final Path root;

    private MiniTraceHome(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The home at {@code root}. */
    public static MiniTraceHome at(Path root) {
        return new MiniTraceHome(root);
    }

    /**
     * The home named by {@value #PROPERTY}, else the one containing the running CLI jar.
     *
     * @throws IllegalStateException if neither gives a folder
     */
    public static MiniTraceHome locate() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            Path p = Path.of(property);
            if (!Files.isDirectory(p)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + property + " is not a folder");
            }
            return new MiniTraceHome(p);
        }
        return new MiniTraceHome(fromCodeSource());
    }

    /** cli/target/minitrace-cli.jar (or cli/target/classes) → the project root. */
    private static Path fromCodeSource() {
        CodeSource source = MiniTraceHome.class.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null) {
            try {
                Path p = Path.of(source.getLocation().toURI()).toAbsolutePath();
                Path target = p.getParent();
                if (target != null && target.getParent() != null && target.getParent().getParent() != null) {
                    return target.getParent().getParent();
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // fall through to the error below: the location is not a local file
            }
        }
        throw new IllegalStateException("cannot find the MiniTrace folder; run through bin/mt or set -D" + PROPERTY);
    }

    /** The project root. */
    public Path root() {
        return root;
    }

    /** {@value #AGENT_JAR} under the root (may not exist). */
    public Path agentJar() {
        return root.resolve(AGENT_JAR);
    }

    /**
     * {@value #ATTACH_AGENT_JAR} under the root (may not exist): the agent for {@code mt attach}, the
     * same classes without {@code Boot-Class-Path}, which a running JVM would answer with a warning.
     */
    public Path attachAgentJar() {
        return root.resolve(ATTACH_AGENT_JAR);
    }

    /** {@value #DEMO_JAR} under the root (may not exist). */
    public Path demoJar() {
        return root.resolve(DEMO_JAR);
    }

    /** The profile {@code fileName} in {@value #PROFILES} under the root (may not exist). */
    public Path profile(String fileName) {
        return root.resolve(PROFILES).resolve(fileName);
    }

    /**
     * {@code file} if it is a regular file.
     *
     * @throws IllegalStateException naming the file and how to build it, if it is missing
     */
    public Path require(Path file, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(what + " not found at " + file
                    + " (build it: mvn -B -q -DskipTests package in " + root + ")");
        }
        return file;
    }
}
