package dev.minitrace.injector.attach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attach to a child JVM started without any agent: classes loaded before and after the attach are
 * traced, stop gives every class its original bytes back (checked with a test-only transformer
 * that runs after MiniTrace's and so sees what the JVM installs), and attaching again works.
 */
class AttachIT {
    private static final String HOOKS = "dev/minitrace/injector/runtime/Trace";

    @Test
    void attachTracesLoadedAndNewClassesAndStopRestoresTheOriginalBytes(@TempDir Path dir) throws Exception {
        try (TargetProcess target = TargetProcess.start(dir)) {
            // Before MiniTrace: the probe's retransformation of Early gives its original bytes.
            target.probe("before.jar", "register before " + dir);
            target.probe("before.jar", "retransform fixture.attach.Early");
            byte[] earlyOriginal = Files.readAllBytes(dir.resolve("before-Early-0.class"));
            assertFalse(contains(earlyOriginal, HOOKS));

            Path first = dir.resolve("first.jfr");
            String reply = target.attach("include=fixture.attach.*", first);
            assertTrue(reply.startsWith("ok tracing: rewrote "), reply);
            assertEquals("attached", target.properties().getProperty("minitrace.agent"));
            // A probe loaded after MiniTrace sees MiniTrace's output: the bytes the JVM installs.
            target.probe("after.jar", "register after " + dir);
            target.probe("after.jar", "retransform fixture.attach.Early");
            assertTrue(contains(Files.readAllBytes(dir.resolve("after-Early-0.class")), HOOKS), "Early instrumented");

            Files.writeString(dir.resolve("load-late"), "now");
            TargetProcess.awaitFile(dir.resolve("late-loaded"), target.process);
            assertTrue(contains(Files.readAllBytes(dir.resolve("after-Late-0.class")), HOOKS), "Late instrumented on load");

            reply = target.stop();
            assertTrue(reply.startsWith("ok recording written to " + first), reply);
            assertNull(target.properties().getProperty("minitrace.agent"));
            // The restoring retransformation went through the probe: those are the installed bytes.
            assertArrayEquals(earlyOriginal, Files.readAllBytes(dir.resolve(restored(dir, "after-Early"))));
            assertArrayEquals(Files.readAllBytes(TargetProcess.TEST_CLASSES.resolve("fixture/attach/Late.class")),
                    Files.readAllBytes(dir.resolve(restored(dir, "after-Late"))), "Late back to its class file");

            Map<String, Integer> calls = entries(first);
            assertTrue(calls.getOrDefault("Early.work", 0) > 0, "Early, loaded before the attach: " + calls);
            assertTrue(calls.getOrDefault("Late.work", 0) > 0, "Late, loaded after the attach: " + calls);
            assertTrue(calls.getOrDefault("Early.twice", 0) > 0, calls.toString());

            // Attaching again later works and traces both classes again.
            Path second = dir.resolve("second.jfr");
            reply = target.attach("include=fixture.attach.Late", second);
            assertTrue(reply.startsWith("ok tracing: rewrote 1 loaded classes (0 left unchanged, 0 failed)"), reply);
            reply = target.stop();
            assertTrue(reply.startsWith("ok recording written to " + second), reply);
            Map<String, Integer> again = entries(second);
            assertFalse(again.containsKey("Early.work"), again.toString());
            assertArrayEquals(earlyOriginal, Files.readAllBytes(dir.resolve(restored(dir, "after-Early"))));

            String stderr = target.finish();
            assertEquals("", stderr, "nothing reported by the agent");
        }
    }

    @Test
    void badRequestsAreRefusedAndLeaveTheJvmUntouched(@TempDir Path dir) throws Exception {
        try (TargetProcess target = TargetProcess.start(dir)) {
            String reply = target.attach("include=fixture..attach", dir.resolve("x.jfr"));
            assertTrue(reply.startsWith("error option 'include=fixture..attach'"), reply);
            assertNull(target.properties().getProperty("minitrace.agent"));
            reply = target.stop();
            assertEquals("error MiniTrace is not attached to this JVM", reply);

            reply = target.attach("include=fixture.attach.Early", dir.resolve("ok.jfr"));
            assertTrue(reply.startsWith("ok "), reply);
            reply = target.attach("include=fixture.attach.Early", dir.resolve("again.jfr"));
            assertTrue(reply.startsWith("error MiniTrace is already attached to this JVM"), reply);
            assertTrue(target.stop().startsWith("ok recording written to "));
            assertFalse(Files.exists(dir.resolve("again.jfr")));
            assertEquals("", target.finish());
        }
    }

    /**
     * A class that loaded but cannot be linked (its code needs a class that is missing) makes the
     * JVM refuse its retransformation: it is named once, skipped, and everything else is traced.
     */
    @Test
    void aClassTheJvmRefusesToRetransformIsReportedOnceAndSkipped(@TempDir Path dir) throws Exception {
        Path extra = Files.createDirectories(dir.resolve("extra"));
        Files.createDirectories(extra.resolve("gen"));
        Files.write(extra.resolve("gen/Unlinkable.class"), unlinkable());
        try (TargetProcess target = TargetProcess.start(dir, java.util.List.of(), extra, java.util.List.of("gen.Unlinkable"))) {
            Path out = dir.resolve("out.jfr");
            String reply = target.attach("include=gen.*;fixture.attach.Early", out);
            assertTrue(reply.startsWith("ok tracing: rewrote 1 loaded classes (0 left unchanged, 1 failed: 1 "), reply);
            assertTrue(target.stop().startsWith("ok recording written"));
            assertTrue(entries(out).getOrDefault("Early.work", 0) > 0, "the other class is traced");
            String stderr = target.finish();
            java.util.List<String> lines = stderr.lines().toList();
            assertEquals(1, lines.size(), stderr);
            assertTrue(lines.get(0).startsWith("minitrace: cannot instrument gen.Unlinkable: "), stderr);
        }
    }

    /**
     * Classes that loaded but cannot be linked, where reflection finds it out before the JVM does
     * (an interface, which has no constructors to ask for, and a class), and one whose reflection
     * fails but which links: the JVM refuses the first two (JDK 25 before handing any class of
     * the call to the transformers, JDK 17 after); each is named once with the missing class,
     * the third is rewritten, and the stop restores what was rewritten.
     */
    @Test
    void classesThatCannotBeLinkedAreNamedOnceWithTheMissingClass(@TempDir Path dir) throws Exception {
        Path extra = Files.createDirectories(dir.resolve("extra"));
        Files.createDirectories(extra.resolve("gen"));
        Files.write(extra.resolve("gen/Unlinkable.class"), unlinkable());
        Files.write(extra.resolve("gen/UnlinkableFace.class"), unlinkableInterface());
        Files.write(extra.resolve("gen/Loose.class"), loose());
        try (TargetProcess target = TargetProcess.start(dir, java.util.List.of(), extra,
                java.util.List.of("gen.UnlinkableFace", "gen.Loose", "gen.Unlinkable"))) {
            Path out = dir.resolve("out.jfr");
            String reply = target.attach("include=gen.*;fixture.attach.Early", out);
            assertTrue(reply.startsWith("ok tracing: rewrote 2 loaded classes (0 left unchanged, 2 failed: 2 cannot be linked, "), reply);
            reply = target.stop();
            assertTrue(reply.contains("restored the original bytecode of 2 classes in"), reply);
            assertFalse(reply.contains("could not be restored"), reply);
            assertTrue(entries(out).getOrDefault("Early.work", 0) > 0, "the other class is traced");
            java.util.List<String> lines = target.finish().lines().sorted().toList();
            assertEquals(java.util.List.of(
                    "minitrace: cannot instrument gen.Unlinkable: cannot be linked: NoClassDefFoundError: gen/Base",
                    "minitrace: cannot instrument gen.UnlinkableFace: cannot be linked: NoClassDefFoundError: gen/Base"), lines);
        }
    }

    /**
     * Issue 40: a record whose component carries a class-retention type annotation (JDK 17 hands
     * the agent a malformed class file for it when it is retransformed, and refuses those bytes
     * itself) and a class the JVM refuses, both loaded before the attach. The record is traced from
     * the start of the recording, in step with its caller; the refused class is named once, with
     * its cause, in the counts and on stderr; after the stop, the record's installed bytecode (seen
     * by a probe loaded after MiniTrace, through the restoring retransformation) has the code of
     * its class file and no hook.
     */
    @Test
    void aRecordWithTypeAnnotatedComponentsIsTracedAndRestoredAndARefusedClassCostsOnlyItself(@TempDir Path dir) throws Exception {
        Path extra = Files.createDirectories(dir.resolve("extra"));
        Files.createDirectories(extra.resolve("gen"));
        Files.write(extra.resolve("gen/Unlinkable.class"), unlinkable());
        try (TargetProcess target = TargetProcess.start(dir, java.util.List.of(), extra, java.util.List.of("gen.Unlinkable"))) {
            Path out = dir.resolve("out.jfr");
            String reply = target.attach("include=gen.*;fixture.attach.Early;fixture.attach.Point", out);
            assertTrue(reply.startsWith("ok tracing: rewrote 2 loaded classes (0 left unchanged, 1 failed: 1 "), reply);
            target.probe("after.jar", "register after " + dir);
            target.probe("after.jar", "retransform fixture.attach.Point");
            assertTrue(contains(Files.readAllBytes(dir.resolve("after-Point-0.class")), HOOKS), "Point instrumented");
            Thread.sleep(200); // some iterations of the loop, traced
            reply = target.stop();
            assertTrue(reply.startsWith("ok recording written to " + out), reply);
            assertTrue(reply.contains("restored the original bytecode of 2 classes in"), reply);
            assertFalse(reply.contains("could not be restored"), reply);

            byte[] installed = Files.readAllBytes(dir.resolve(restored(dir, "after-Point")));
            assertFalse(contains(installed, HOOKS), "Point restored");
            assertEquals(code(Files.readAllBytes(TargetProcess.TEST_CLASSES.resolve("fixture/attach/Point.class"))), code(installed));

            Map<String, Integer> calls = entries(out);
            int work = calls.getOrDefault("Early.work", 0);
            int weight = calls.getOrDefault("Point.weight", 0);
            assertTrue(work > 0 && weight > 0, calls.toString());
            // One weight() per work(); retransformed in one call, so in step but for the calls
            // running while the hooks came and went.
            assertTrue(Math.abs(work - weight) <= 2, calls.toString());

            String stderr = target.finish();
            java.util.List<String> lines = stderr.lines().toList();
            assertEquals(1, lines.size(), stderr);
            assertTrue(lines.get(0).startsWith("minitrace: cannot instrument gen.Unlinkable: "), stderr);
        }
    }

    /**
     * Each method's code as ASM prints it (by name and descriptor) and the record components:
     * independent of constant pool order, and without what the JVM does not keep of a class file
     * (invisible annotations, parameter names), which no retransformation can give back.
     */
    private static Map<String, String> code(byte[] classFile) {
        org.objectweb.asm.tree.ClassNode node = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(classFile).accept(node, 0);
        Map<String, String> out = new java.util.TreeMap<>();
        for (org.objectweb.asm.tree.MethodNode m : node.methods) {
            m.invisibleAnnotations = null;
            m.invisibleTypeAnnotations = null;
            m.invisibleParameterAnnotations = null;
            m.parameters = null;
            org.objectweb.asm.util.Textifier text = new org.objectweb.asm.util.Textifier();
            m.accept(new org.objectweb.asm.util.TraceMethodVisitor(text));
            java.io.StringWriter w = new java.io.StringWriter();
            text.print(new java.io.PrintWriter(w));
            out.put(m.name + m.desc, w.toString());
        }
        StringBuilder components = new StringBuilder();
        for (org.objectweb.asm.tree.RecordComponentNode c : node.recordComponents) {
            components.append(c.name).append(' ').append(c.descriptor).append(';');
        }
        out.put("record components", components.toString());
        return out;
    }

    /** {@code gen.Unlinkable}: {@code static Object make() { return new gen.Missing(); }}, where gen.Missing does not exist. */
    private static byte[] unlinkable() {
        return unlinkable("gen/Unlinkable", org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_SUPER,
                org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_STATIC);
    }

    private static byte[] unlinkable(String name, int access, int makeAccess) {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        cw.visit(org.objectweb.asm.Opcodes.V17, access, name, null, "java/lang/Object", null);
        org.objectweb.asm.MethodVisitor mv = cw.visitMethod(makeAccess, "make", "()Lgen/Base;", null, null);
        mv.visitCode();
        mv.visitTypeInsn(org.objectweb.asm.Opcodes.NEW, "gen/Missing");
        mv.visitInsn(org.objectweb.asm.Opcodes.DUP);
        mv.visitMethodInsn(org.objectweb.asm.Opcodes.INVOKESPECIAL, "gen/Missing", "<init>", "()V", false);
        // Returning a gen.Missing as a gen.Base makes the verifier load both to check the assignment.
        mv.visitInsn(org.objectweb.asm.Opcodes.ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** {@code gen.UnlinkableFace}: an interface whose default method returns a gen.Missing as a gen.Base (neither exists). */
    private static byte[] unlinkableInterface() {
        return unlinkable("gen/UnlinkableFace", org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_INTERFACE
                | org.objectweb.asm.Opcodes.ACC_ABSTRACT, org.objectweb.asm.Opcodes.ACC_PUBLIC);
    }

    /**
     * {@code gen.Loose}: {@code public Loose(gen.Missing m) {}} — it links (its code needs nothing
     * missing), but reflection on its constructors fails.
     */
    private static byte[] loose() {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_FRAMES);
        cw.visit(org.objectweb.asm.Opcodes.V17, org.objectweb.asm.Opcodes.ACC_PUBLIC | org.objectweb.asm.Opcodes.ACC_SUPER,
                "gen/Loose", null, "java/lang/Object", null);
        org.objectweb.asm.MethodVisitor mv = cw.visitMethod(org.objectweb.asm.Opcodes.ACC_PUBLIC, "<init>", "(Lgen/Missing;)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(org.objectweb.asm.Opcodes.ALOAD, 0);
        mv.visitMethodInsn(org.objectweb.asm.Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(org.objectweb.asm.Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** The file the probe wrote last for {@code simple} (the restoring retransformation). */
    private static String restored(Path dir, String simple) throws Exception {
        int best = -1;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (n.startsWith(simple + "-") && n.endsWith(".class")) {
                    best = Math.max(best, Integer.parseInt(n.substring(simple.length() + 1, n.length() - 6)));
                }
            }
        }
        return simple + "-" + best + ".class";
    }

    /** Entry events per "Simple.method", resolved through the recording's definitions. */
    static Map<String, Integer> entries(Path recording) throws Exception {
        Map<Integer, String> names = new HashMap<>();
        Map<Integer, Integer> counts = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            if (type.equals(EventNames.METHOD_DEFINITION)) {
                String c = e.getString("className");
                names.put(e.getInt("methodId"), c.substring(c.lastIndexOf('.') + 1) + "." + e.getString("methodName"));
            } else if (type.equals(EventNames.METHOD_ENTRY)) {
                counts.merge(e.getInt("methodId"), 1, Integer::sum);
            }
        }
        Map<String, Integer> out = new HashMap<>();
        counts.forEach((id, n) -> out.merge(names.getOrDefault(id, "?" + id), n, Integer::sum));
        return out;
    }

    static boolean contains(byte[] bytes, String text) {
        return new String(bytes, StandardCharsets.ISO_8859_1).contains(text);
    }
}
