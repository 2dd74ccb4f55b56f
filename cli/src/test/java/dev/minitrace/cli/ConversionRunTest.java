package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The one-line failures of a conversion, as {@code convert}, {@code export} and the views print them. */
class ConversionRunTest {
    @Test
    void runningOutOfMemoryNamesTheBoundAndTheWayOutButNoCauseItCannotKnow() {
        CliException e = ConversionRun.failure(new OutOfMemoryError("Java heap space"), "export", Path.of("big.jfr"),
                Path.of("tables"), "512m");
        String m = e.getMessage();
        assertEquals(ExitCodes.FAILED, e.exitCode());
        assertFalse(m.contains("\n"), m);
        assertTrue(m.startsWith("cannot export big.jfr within --memory 512m ("), m);
        assertTrue(m.endsWith(" MB heap): it ran out of memory; run again with a larger --memory, e.g. --memory 2g"), m);
    }
}
