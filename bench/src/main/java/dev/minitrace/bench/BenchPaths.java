package dev.minitrace.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the built project lives, found from the bench jar's own location (bench/target/). */
public final class BenchPaths {
    private BenchPaths() {
    }

    /** The bench jar (or classes folder) this code runs from. */
    public static Path benchJar() {
        try {
            return Path.of(BenchPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the bench jar", e);
        }
    }

    /** The project root: two folders above the bench jar. */
    public static Path projectRoot() {
        return benchJar().toAbsolutePath().getParent().getParent().getParent();
    }

    /** The agent jar; fails with a clear message when the project is not built. */
    public static Path agentJar() {
        Path agent = projectRoot().resolve("injector/target/minitrace-agent.jar");
        if (!Files.isRegularFile(agent)) {
            throw new IllegalStateException("agent jar not found at " + agent + ": build the project first (mvn -B -DskipTests package)");
        }
        return agent;
    }
}
