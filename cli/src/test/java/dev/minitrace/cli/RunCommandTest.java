package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mt run}'s command line: help and every kind of bad argument (one line, exit status 2). */
class RunCommandTest {
    @TempDir
    java.nio.file.Path dir;

    private static void assertUsageError(String expectedStart, String... args) {
        CommandOutcome o = CommandOutcome.of(new RunCommand(), args);
        assertEquals(ExitCodes.USAGE, o.status(), o::toString);
        assertEquals(1, o.errLines().length, () -> "exactly one line: " + o.err());
        assertTrue(o.err().startsWith(expectedStart), o.err());
        assertEquals("", o.out());
    }

    @Test
    void unknownOption() {
        assertUsageError("run: Unknown option: '--bogus'", "--bogus", "--", "a.Main");
    }

    @Test
    void javaArgumentsWithoutTheSeparatorAreNamedAsUnknownOptions() {
        assertUsageError("run: Unknown option: '-cp'", "-cp", "app.jar", "a.Main");
    }

    @Test
    void noProgram() {
        assertUsageError("run: Missing required parameter: 'JAVA_ARGS'");
    }

    @Test
    void unknownEventKind() {
        assertUsageError("run: --events: unknown kind 'nope'", "--events", "method,nope", "--", "a.Main");
    }

    @Test
    void commaInFilter() {
        assertUsageError("run: --include 'a.B,c.D': use ';'", "--include", "a.B,c.D", "--", "a.Main");
    }

    @Test
    void missingProfile() {
        assertUsageError("run: --jfc " + dir.resolve("none.jfc") + ": no such file",
                "--jfc", dir.resolve("none.jfc").toString(), "--", "a.Main");
    }

    @Test
    void outputFolderMissing() {
        assertUsageError("run: --out " + dir.resolve("no/t.jfr") + ": folder",
                "--out", dir.resolve("no/t.jfr").toString(), "--", "a.Main");
    }

    @Test
    void helpSaysEverythingAUserNeeds() {
        CommandOutcome o = CommandOutcome.of(new RunCommand(), "--help");
        assertEquals(ExitCodes.OK, o.status());
        for (String needed : new String[] {"--jfc", "--out", "--include", "--exclude", "--events", "JAVA_ARGS",
                "jcmd <pid> JFR.dump name=minitrace", "maxsize=0", "minitrace-agent.jar", "minitrace-light.jfc",
                "exit status", "method, lock, alloc", "com.acme.*"}) {
            assertTrue(o.out().contains(needed), () -> "help lacks '" + needed + "':\n" + o.out());
        }
    }
}
