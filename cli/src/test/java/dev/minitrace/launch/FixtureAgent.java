package dev.minitrace.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A stand-in agent for launcher tests: writes the option string it got to {@code -Dfixture.agentOptions=FILE}. */
public final class FixtureAgent {
    private FixtureAgent() {
    }

    /** Agent entry point. */
    public static void premain(String options) throws IOException {
        Files.writeString(Path.of(System.getProperty("fixture.agentOptions")), String.valueOf(options));
    }
}
