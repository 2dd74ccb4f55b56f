package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's own verifier accepts every JDK class as the agent rewrites it: a child JVM with the
 * real agent ({@code include=} every JDK package, every event kind, {@code alloc-scope=all},
 * rewriting at once) and {@code -XX:+BytecodeVerificationLocal} (the JVM otherwise trusts the
 * bootstrap and platform loaders' classes) loads and links every class of {@code java.base}
 * ({@code -Dminitrace.jdkModules=…} adds modules); the classes loaded before the agent are
 * retransformed, which verifies them too.
 */
class JdkClassesVerifyIT {
    /** The modules the benchmark programs (ecj, H2, PMD) load besides java.base. */
    static final String BENCH_MODULES = "java.logging,java.sql,java.xml,java.management,java.naming,java.compiler,"
            + "java.desktop,java.scripting,jdk.unsupported,jdk.zipfs,jdk.management,jdk.localedata";

    @TempDir
    Path dir;

    @Test
    void everyRewrittenJdkClassPassesTheJvmsVerifier() throws Exception {
        String more = System.getProperty("minitrace.jdkModules", "");
        String modules = "java.base" + (more.isBlank() ? "" : "," + more);
        ChildJvm.Result r = ChildJvm.run(dir, List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal", "-Dminitrace.rewrite=eager",
                ChildJvm.agent("include=java.*;javax.*;jdk.*;sun.*;com.sun.*,events=method+lock+alloc+exception+field+death+receiver,"
                        + "alloc-scope=all,verbose")),
                "fixture.jdk.LinkEveryClass", modules.split(","));
        assertEquals(0, r.exitCode(), r.stderr());
        long instrumented = r.stderrLines().stream().filter(l -> l.startsWith("minitrace: instrumented ")).count();
        List<String> failed = r.stderrLines().stream().filter(l -> l.startsWith("minitrace: not instrumenting ")
                && !l.contains("(requested by include=)") || l.startsWith("minitrace: cannot retransform")).toList();
        Matcher m = Pattern.compile("linked (\\d+) verify-errors (\\d+) other-errors (\\d+)").matcher(r.stdout());
        assertTrue(m.find(), r.stdout());
        System.out.println("JDK classes of " + modules + " rewritten by the agent: " + instrumented + "; linked and verified by the JVM: "
                + m.group(1) + ", verify errors: " + m.group(2) + ", other link errors: " + m.group(3));
        assertEquals(List.of(), failed, "classes the agent could not rewrite");
        assertEquals("0", m.group(2), r.stdout().lines().filter(l -> l.startsWith("VERIFY")).limit(10).toList().toString());
        assertTrue(instrumented > 2000, "instrumented " + instrumented);
    }
}
