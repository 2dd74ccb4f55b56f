package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Every class of {@code java.base} and of the modules the benchmark programs load is rewritten
 * with every event kind on, every method traced, and passes ASM's verifier (with the running JDK's
 * classes for its type checks). The JVM's own verifier is run on the same rewrites by
 * {@code JdkClassesVerifyIT}.
 */
class JdkClassesRewriteTest {
    /** The modules the benchmark programs (ecj, H2, PMD) load besides java.base. */
    static final List<String> MODULES = List.of("java.base", "java.logging", "java.sql", "java.xml", "java.management",
            "java.naming", "java.compiler", "java.desktop", "java.scripting", "java.transaction.xa", "java.security.sasl",
            "jdk.unsupported", "jdk.zipfs", "jdk.management", "jdk.jfr");

    /** Class files of {@code module} in the running JDK's image, as paths of the jrt file system. */
    static List<Path> classesOf(FileSystem jrt, String module) throws IOException {
        Path root = jrt.getPath("/modules", module);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().equals("module-info.class"))
                    .toList();
        }
    }

    @Test
    void everyJdkClassRewritesAndPassesAsmVerification() throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        ClassTransformer transformer = TestClasses.allEvents();
        int rewritten = 0;
        int unchanged = 0;
        List<String> failures = new ArrayList<>();
        for (String module : MODULES) {
            for (Path p : classesOf(jrt, module)) {
                byte[] original = Files.readAllBytes(p);
                ClassTransformer.Result result;
                try {
                    result = transformer.transform(original, (c, n, d) -> 1);
                } catch (RuntimeException e) {
                    failures.add(p + ": rewrite failed: " + e);
                    continue;
                }
                if (result == null) {
                    unchanged++; // no method with code (interfaces of abstract methods only, annotations)
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
                    failures.add(p + ": " + out.toString().lines().limit(3).toList());
                }
                rewritten++;
            }
        }
        System.out.println("JDK classes rewritten with every event kind and verified by ASM: " + rewritten
                + " (" + unchanged + " without code left as they are), failures: " + failures.size());
        assertTrue(rewritten > 5000, "rewritten " + rewritten);
        assertEquals(List.of(), failures.stream().limit(20).toList(), failures.size() + " failures");
    }
}
