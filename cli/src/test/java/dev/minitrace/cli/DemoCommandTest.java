package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code mt demo}'s command line; the traced run itself is tested by {@code DemoCommandIT}. */
class DemoCommandTest {
    @Test
    void logGoesBesideTheRecording() {
        assertEquals(Path.of("d", "minitrace-demo.mtlog"), DemoCommand.mtlogBeside(Path.of("d", "minitrace-demo.jfr")));
        assertEquals(Path.of("trace.bin.mtlog"), DemoCommand.mtlogBeside(Path.of("trace.bin")));
    }

    @Test
    void unexpectedArgumentIsOneLineExitTwo() {
        CommandOutcome o = CommandOutcome.of(new DemoCommand(), "extra");
        assertEquals(ExitCodes.USAGE, o.status());
        assertEquals(1, o.errLines().length, o.err());
        assertTrue(o.err().startsWith("demo: Unmatched argument"), o.err());
    }

    @Test
    void helpNamesTheFilesAndTheEquivalentCommands() {
        CommandOutcome o = CommandOutcome.of(new DemoCommand(), "--help");
        assertEquals(ExitCodes.OK, o.status());
        for (String needed : new String[] {"minitrace-demo.jfr", "minitrace-demo.mtlog", "mt run", "mt convert",
                "mt summary", "--out", "--jfc", "current folder"}) {
            assertTrue(o.out().contains(needed), () -> "help lacks '" + needed + "':\n" + o.out());
        }
    }
}
