package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launchers {@code bin/mt} and {@code bin/mt-convert}, run by bash from another folder and through a symlink. */
class BinMtIT {
    @TempDir
    Path dir;

    @Test
    void helpListsEveryCommandAndTheExitStatuses() throws Exception {
        ChildProcess.Outcome o = ChildProcess.bin(dir, "mt", "--help");
        assertEquals(0, o.status(), o::toString);
        for (String needed : new String[] {"run", "demo", "convert", "print", "summary", "Exit status"}) {
            assertTrue(o.out().contains(needed), () -> needed + " missing:\n" + o.out());
        }
    }

    @Test
    void badArgumentIsOneLineAndExitTwo() throws Exception {
        ChildProcess.Outcome o = ChildProcess.bin(dir, "mt", "run", "--bogus", "--", "a.Main");
        assertEquals(2, o.status(), o::toString);
        assertEquals(1, o.errLines().size(), o::err);
        assertTrue(o.err().startsWith("run: Unknown option: '--bogus'"), o::err);
    }

    @Test
    void mtConvertIsMtConvert() throws Exception {
        ChildProcess.Outcome o = ChildProcess.bin(dir, "mt-convert", "--help");
        assertEquals(0, o.status(), o::toString);
        assertTrue(o.out().startsWith("Usage: convert") || o.out().startsWith("Usage: mt convert"), o::out);
    }

    @Test
    void worksThroughASymlinkFromAnotherFolder() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("mt"), ChildProcess.ROOT.resolve("bin/mt"));
        ProcessBuilder pb = ChildProcess.builder(dir, java.util.List.of("bash", link.toString(), "--version"));
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.startsWith("MiniTrace "), out);
    }
}
