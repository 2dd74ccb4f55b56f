package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Rewritten classes pass the verifier (ASM's analyzer and the JVM's own, by loading and running
 * them) and behave exactly as the originals.
 */
class ClassTransformerVerificationTest {

    private static String run(ClassLoader loader, String className) throws Exception {
        return (String) Class.forName(className, true, loader).getMethod("run").invoke(null);
    }

    private static void assertVerifies(TestClasses.FixtureLoader loader) {
        assertFalse(loader.rewritten.isEmpty(), "nothing was rewritten");
        for (Map.Entry<String, byte[]> e : loader.rewritten.entrySet()) {
            StringWriter out = new StringWriter();
            CheckClassAdapter.verify(new ClassReader(e.getValue()), loader, false, new PrintWriter(out));
            assertEquals("", out.toString(), "ASM verifier on rewritten " + e.getKey());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixture.verify.ControlFlow", "fixture.verify.Constructors", "fixture.verify.Functional",
        "fixture.verify.HeapShapes"})
    void rewrittenFixturesVerifyAndBehaveAsBefore(String className) throws Exception {
        String expected = run(new TestClasses.FixtureLoader("fixture.verify.", null), className);
        TestClasses.FixtureLoader traced = new TestClasses.FixtureLoader("fixture.verify.", TestClasses.allEvents());
        assertEquals(expected, run(traced, className));
        assertVerifies(traced);
        assertTrue(traced.rewritten.containsKey(className));
    }

    @Test
    void everyKindOfClassIsRewritten() throws Exception {
        TestClasses.FixtureLoader traced = new TestClasses.FixtureLoader("fixture.verify.", TestClasses.allEvents());
        run(traced, "fixture.verify.Functional");
        run(traced, "fixture.verify.Constructors");
        for (String nested : List.of("Functional$Greeter", "Functional$Op", "Functional$Op$1", "Functional$Point",
                "Constructors$Child", "Constructors$Victim", "Constructors$Thrower")) {
            assertTrue(traced.rewritten.containsKey("fixture.verify." + nested), nested + " was not rewritten");
        }
        // The interface's default and static methods are traced; its abstract method is not.
        ClassTransformer.Result greeter = traced.results.get("fixture.verify.Functional$Greeter");
        List<String> names = greeter.methods().stream().map(m -> m[1]).toList();
        assertEquals(List.of("greet", "helper"), names);
        // Lambda bodies are methods of their host class.
        ClassTransformer.Result host = traced.results.get("fixture.verify.Functional");
        assertTrue(host.methods().stream().anyMatch(m -> m[1].startsWith("lambda$")), "lambda bodies traced");
    }

    @Test
    void classesCompiledForJava8VerifyAndRun(@TempDir Path dir) throws Exception {
        String source = """
                package fixture.java8;
                import java.util.*;
                import java.util.function.*;
                public class Old {
                    private final Object lock = new Object();
                    private int n;
                    public Old(int n) { this(n, n > 3 ? "big" : "small"); }
                    Old(int n, String s) { super(); this.n = n + s.length(); }
                    synchronized int inc() { synchronized (lock) { return ++n; } }
                    static synchronized long twice(long v) { return v * 2; }
                    public static String run() {
                        StringBuilder sb = new StringBuilder();
                        Old o = new Old(5);
                        sb.append(o.inc()).append(',').append(twice(21L)).append(',');
                        List<String> l = new ArrayList<>(Arrays.asList("b", "a", "c"));
                        Collections.sort(l, String::compareTo);
                        Function<String, String> up = s -> s.toUpperCase();
                        for (String s : l) sb.append(up.apply(s));
                        try { Object x = null; x.hashCode(); } catch (NullPointerException e) { sb.append("npe"); }
                        finally { sb.append("!"); }
                        switch (o.n % 3) { case 0: sb.append("z"); break; case 1: sb.append("o"); break; default: sb.append("t"); }
                        int[][] grid = new int[2][3];
                        sb.append(grid[1].length);
                        return sb.toString();
                    }
                }
                """;
        Path src = dir.resolve("Old.java");
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        int rc = javac.run(null, null, new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                "--release", "8", "-Xlint:-options", "-d", dir.toString(), src.toString());
        assertEquals(0, rc, "javac --release 8 failed: " + diagnostics);
        Map<String, byte[]> classes = new HashMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = dir.relativize(p).toString().replace(java.io.File.separatorChar, '.');
                classes.put(name.substring(0, name.length() - 6), Files.readAllBytes(p));
            }
        }
        byte[] old = classes.get("fixture.java8.Old");
        assertNotNull(old);
        assertEquals(52, ((old[6] & 0xff) << 8) | (old[7] & 0xff), "class file version of --release 8");
        String expected = run(new TestClasses.FixtureLoader("fixture.java8.", null, classes), "fixture.java8.Old");
        TestClasses.FixtureLoader traced = new TestClasses.FixtureLoader("fixture.java8.", TestClasses.allEvents(), classes);
        assertEquals(expected, run(traced, "fixture.java8.Old"));
        assertVerifies(traced);
    }
}
