package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.injector.asm.ClassTransformer;
import dev.minitrace.injector.filter.MethodSelector;
import dev.minitrace.injector.runtime.EventKind;
import dev.minitrace.injector.runtime.Redaction;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * The JDK classes the agent may rewrite are rewritten with every event kind on, every method
 * traced and {@code alloc-scope=all}, and pass ASM's verifier (with the running JDK's classes for
 * its type checks). ASM's verifier takes minutes for all of {@code java.base}, so by default this
 * checks its {@code java.lang} and {@code java.util} packages (and subpackages), the classes
 * programs allocate through most; {@code -Dminitrace.jdkModules=java.base,…} checks whole modules
 * (the benchmark programs' ones: {@link JdkClassesVerifyIT#BENCH_MODULES}). The JVM's own verifier
 * checks every class of {@code java.base} as the agent rewrites it in {@link JdkClassesVerifyIT}.
 */
class JdkClassesTest {

    /** Class files of {@code module} in the running JDK's image, as paths of the jrt file system. */
    static List<Path> classesOf(FileSystem jrt, String module) throws IOException {
        Path root = jrt.getPath("/modules", module);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().equals("module-info.class"))
                    .toList();
        }
    }

    @Test
    void theHookPathAndJfrAreNeverRewrittenAndTheRestIs() {
        for (String name : List.of("java/lang/Object", "java/lang/Thread", "java/lang/Thread$State", "java/lang/ThreadLocal",
                "java/lang/ThreadLocal$ThreadLocalMap", "java/lang/ref/PhantomReference", "java/lang/invoke/MethodHandle",
                "jdk/internal/misc/Unsafe", "jdk/jfr/Event", "sun/instrument/InstrumentationImpl")) {
            assertNotNull(JdkClasses.neverReason(name), name);
        }
        for (String name : List.of("java/util/ArrayList", "java/util/HashMap$Node", "java/lang/String", "java/lang/ObjectMethods",
                "java/lang/Threads", "java/lang/Integer", "java/util/zip/Inflater", "sun/nio/cs/UTF_8")) {
            assertNull(JdkClasses.neverReason(name), name);
        }
        assertEquals("java.lang.invoke.*", JdkClasses.neverEntry("java/lang/invoke/MethodHandle"));
        assertEquals("java.lang.Thread", JdkClasses.neverEntry("java/lang/Thread$State"));
    }

    @Test
    void everyRewritableJdkClassRewritesAndPassesAsmVerification() throws IOException {
        String wanted = System.getProperty("minitrace.jdkModules", "");
        boolean whole = !wanted.isBlank();
        List<String> modules = whole ? Arrays.asList(wanted.split(",")) : List.of("java.base");
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        ClassTransformer transformer = new ClassTransformer(new MethodSelector(List.of(), List.of()), EnumSet.allOf(EventKind.class),
                null, Redaction.defaults(), true);
        int rewritten = 0;
        int unchanged = 0;
        int never = 0;
        List<String> failures = new ArrayList<>();
        for (String module : modules) {
            for (Path p : classesOf(jrt, module)) {
                byte[] original = Files.readAllBytes(p);
                String name = new ClassReader(original).getClassName();
                if (!whole && !name.startsWith("java/lang/") && !name.startsWith("java/util/")) {
                    continue;
                }
                if (JdkClasses.neverReason(name) != null) {
                    never++;
                    continue;
                }
                ClassTransformer.Result result;
                try {
                    result = transformer.transform(original, (c, n, d) -> 1);
                } catch (RuntimeException e) {
                    failures.add(name + ": rewrite failed: " + e);
                    continue;
                }
                if (result == null) {
                    unchanged++; // no method with code
                    continue;
                }
                StringWriter out = new StringWriter();
                try {
                    CheckClassAdapter.verify(new ClassReader(result.bytes()), ClassLoader.getPlatformClassLoader(), false,
                            new PrintWriter(out));
                } catch (RuntimeException e) {
                    out.append(e.toString());
                }
                if (!out.toString().isEmpty()) {
                    failures.add(name + ": " + out.toString().lines().limit(3).toList());
                }
                rewritten++;
            }
        }
        System.out.println("JDK classes of " + (whole ? modules : "java.base's java.lang and java.util") + " rewritten with every event kind and verified by ASM: " + rewritten
                + ", failures: " + failures.size() + " (" + unchanged + " without code, " + never + " never rewritten)");
        assertTrue(rewritten > 1000, "rewritten " + rewritten);
        assertEquals(List.of(), failures.stream().limit(20).toList(), failures.size() + " failures");
    }
}
