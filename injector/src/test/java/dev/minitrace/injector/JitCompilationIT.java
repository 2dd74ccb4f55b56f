package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewritten methods stay compilable: HotSpot refuses to compile a method whose monitors it cannot
 * match on every path ("unbalanced monitors"), and such a method runs in the interpreter for good.
 * The acquire hook of a synchronized block once sat outside javac's catch-any range and made every
 * traced method with a synchronized block one of them; this runs the shapes javac emits under the
 * agent and a recording, with {@code -XX:+PrintCompilation}, and checks that C2 compiled each.
 */
class JitCompilationIT {
    private static final String MAIN = "fixture.jit.Locking";

    @Test
    void methodsWithSynchronizedBlocksAreCompiledByC2WhenTraced(@TempDir Path dir) throws Exception {
        ChildJvm.Result plain = ChildJvm.run(dir, List.of(), MAIN);
        ChildJvm.Result traced = ChildJvm.run(dir, List.of("-XX:+PrintCompilation", "-Xbatch",
                ChildJvm.agent("include=fixture.jit.*,events=method+lock+alloc"),
                ChildJvm.recording(dir.resolve("jit.jfr"), null)), MAIN);
        assertEquals(0, traced.exitCode(), traced.stderr());
        String checksum = plain.stdout().strip();
        assertTrue(checksum.startsWith("checksum "), plain.stdout());
        assertTrue(traced.stdout().contains(checksum), "the tracer changed the result: " + checksum);
        List<String> compilations = traced.stdout().lines().filter(l -> l.contains("fixture.jit.Locking::")).toList();
        for (String method : List.of("block", "nested", "withCatch")) {
            String name = "fixture.jit.Locking::" + method + " ";
            List<String> lines = compilations.stream().filter(l -> l.contains(name)).toList();
            // PrintCompilation: "<timestamp> <id> <flags> <tier> <method> (<size>) [outcome]"; C2 is tier 4.
            // (C1, tiers 1-3, still refuses them: "error while joining with exception handler".)
            String c2 = "\\s*\\d+\\s+\\d+\\s+[%sbn! ]*4\\s+" + java.util.regex.Pattern.quote(name) + ".*";
            List<String> byC2 = lines.stream().filter(l -> l.matches(c2)).toList();
            assertTrue(!byC2.isEmpty(), method + " never compiled by C2: " + lines);
            assertTrue(byC2.stream().noneMatch(l -> l.contains("COMPILE SKIPPED") || l.contains("not compilable")),
                    method + " was refused by C2: " + byC2);
        }
    }
}
