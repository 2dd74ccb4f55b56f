package dev.minitrace.bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapTraceCheckTest {
    @TempDir
    Path dir;

    @Test
    void countsKindsAndNamesEveryBrokenRule() throws Exception {
        Path good = dir.resolve("good");
        Files.writeString(good, "M 1 0 1\nA 1F 10 2 3 0 1\nN 20 18 4 3 2 1\nD 1F\nE 1 1\n\nD 99\n");
        HeapTraceCheck.Result ok = HeapTraceCheck.read(good, null);
        assertEquals("", ok.problems());
        assertEquals(1, ok.deaths());
        assertEquals(0x10 + 0x18, ok.bytes(), "the size tokens, hexadecimal");
        assertEquals(0, ok.unsized());
        assertEquals(Long.valueOf(1), ok.lines().get('A'));
        assertEquals(null, ok.lines().get('X'), "nothing after the blank line that ends the file");

        Path bad = dir.resolve("bad");
        Files.writeString(bad, "A 1F 10 2 3 0 1\nA 1F 10 2 3 0 1\nD 1F\nD 1F\nD 2A\n");
        String problems = HeapTraceCheck.read(bad, null).problems();
        assertTrue(problems.contains("id 1f allocated twice"), problems);
        assertTrue(problems.contains("1f died twice"), problems);
        assertTrue(problems.contains("death of 2a before any allocation of it"), problems);

        Path old = dir.resolve("old");
        Files.writeString(old, "N 1 0 2 3 1\n");
        HeapTraceCheck.Result r = HeapTraceCheck.read(old, null);
        assertTrue(r.problems().contains("allocation line of 6 tokens"), r.problems());
        assertEquals(1, r.unsized());
    }
}
