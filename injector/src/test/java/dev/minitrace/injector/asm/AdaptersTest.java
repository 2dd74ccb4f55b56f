package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/** Each method visitor emits exactly the instructions it is meant to, and nothing else. */
class AdaptersTest {
    private static final String SMALL = "fixture.verify.Small";

    private static List<FrameNode> frames(MethodNode m) {
        List<FrameNode> out = new java.util.ArrayList<>();
        for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof FrameNode f) {
                out.add(f);
            }
        }
        return out;
    }

    @Test
    void boundaryAdapterAddsEntryExitAndACatchAllHandler() {
        MethodNode m = TestClasses.rewrite(SMALL, "plain", (next, pos) -> new MethodBoundaryAdapter(next, 42, "plain", true, pos));
        assertEquals(List.of("bipush 42", "invokestatic Trace.enter", "iload 1", "iconst_1", "iadd",
                "bipush 42", "iconst_3", "invokestatic Trace.exit", "ireturn",
                "bipush 42", "invokestatic Trace.exitByException", "athrow"), TestClasses.insns(m));
        assertEquals(1, m.tryCatchBlocks.size());
        assertNull(m.tryCatchBlocks.get(0).type, "catch-all");
        FrameNode handlerFrame = frames(m).get(0);
        assertEquals(Opcodes.F_FULL, handlerFrame.type);
        assertEquals(List.of(), handlerFrame.local);
        assertEquals(List.of("java/lang/Throwable"), handlerFrame.stack);
    }

    @Test
    void boundaryAdapterSplitsConstructorHandlersAroundTheSuperCall() {
        MethodNode m = TestClasses.rewrite(SMALL, "<init>", (next, pos) -> new MethodBoundaryAdapter(next, 7, "<init>", true, pos));
        assertEquals(List.of("bipush 7", "invokestatic Trace.enter", "aload 0",
                "bipush 7", "invokestatic Trace.superCall", "invokespecial Object.<init>",
                "bipush 7", "invokestatic Trace.superReturned",
                "bipush 7", "iconst_4", "invokestatic Trace.exit", "return",
                "bipush 7", "invokestatic Trace.exitByException", "athrow",
                "bipush 7", "invokestatic Trace.exitByException", "athrow"), TestClasses.insns(m));
        assertEquals(2, m.tryCatchBlocks.size());
        List<FrameNode> frames = frames(m);
        assertEquals(List.of(Opcodes.UNINITIALIZED_THIS), frames.get(0).local, "first range: this not yet initialized");
        assertEquals(List.of(), frames.get(1).local);
        // The first range ends right before the super call, the second starts right after it.
        TryCatchBlockNode first = m.tryCatchBlocks.get(0);
        TryCatchBlockNode second = m.tryCatchBlocks.get(1);
        assertEquals(Opcodes.INVOKESPECIAL, nextInsn(first.end).getOpcode());
        assertEquals(Opcodes.INVOKESPECIAL, previousInsn(second.start).getOpcode());
    }

    private static AbstractInsnNode nextInsn(AbstractInsnNode n) {
        while (n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    private static AbstractInsnNode previousInsn(AbstractInsnNode n) {
        n = n.getPrevious();
        while (n.getOpcode() < 0) {
            n = n.getPrevious();
        }
        return n;
    }

    @Test
    void synchronizedMethodAdapterReportsTheMonitorOnEveryExit() {
        MethodNode m = TestClasses.rewrite(SMALL, "syncMethod",
                (next, pos) -> new SynchronizedMethodAdapter(next, "fixture/verify/Small", false, true));
        assertEquals(List.of("aload 0", "iconst_0", "invokestatic Trace.lockAcquire", "iconst_1",
                "aload 0", "iconst_0", "invokestatic Trace.lockRelease", "ireturn",
                "aload 0", "iconst_0", "invokestatic Trace.lockRelease", "athrow"), TestClasses.insns(m));
        assertEquals(List.of("fixture/verify/Small"), frames(m).get(0).local);
        MethodNode s = TestClasses.rewrite(SMALL, "syncStatic",
                (next, pos) -> new SynchronizedMethodAdapter(next, "fixture/verify/Small", true, true));
        assertEquals(List.of("ldc fixture/verify/Small", "iconst_0", "invokestatic Trace.lockAcquire",
                "ldc fixture/verify/Small", "iconst_0", "invokestatic Trace.lockRelease", "return",
                "ldc fixture/verify/Small", "iconst_0", "invokestatic Trace.lockRelease", "athrow"), TestClasses.insns(s));
    }

    @Test
    void monitorAdapterReportsEnterAfterAndExitBeforeWithTheirBytecodeIndexes() {
        // block's max_locals is 4 (this, the argument, javac's copy of the monitor, the exception)
        MethodNode m = TestClasses.rewrite(SMALL, "block", (next, pos) -> new MonitorAdapter(next, pos, true, 4));
        assertEquals(List.of("aload 1", "dup", "astore 2", "dup", "invokestatic Trace.lockHash", "istore 4", "monitorenter",
                "aload 2", "iload 4", "iconst_3", "invokestatic Trace.lockAcquire",
                "iconst_1", "aload 2", "bipush 6", "invokestatic Trace.lockRelease", "aload 2", "monitorexit", "ireturn",
                "astore 3", "aload 2", "bipush 10", "invokestatic Trace.lockRelease", "aload 2", "monitorexit",
                "aload 3", "athrow"), TestClasses.insns(m));
        // The acquire hook is inside javac's catch-any range, whose handler releases the monitor:
        // outside it, the JIT would see a path that leaves the method holding it.
        org.objectweb.asm.tree.TryCatchBlockNode range = m.tryCatchBlocks.get(0);
        int acquire = -1;
        for (int i = 0; i < m.instructions.size(); i++) {
            if (m.instructions.get(i) instanceof org.objectweb.asm.tree.MethodInsnNode call && call.name.equals("lockAcquire")) {
                acquire = i;
            }
        }
        assertTrue(m.instructions.indexOf(range.start) < acquire && acquire < m.instructions.indexOf(range.end),
                "lockAcquire outside the synchronized block's range");
    }

    @Test
    void allocationAdapterReportsConstructedObjectsAndArraysWithTheirBytecodeIndexes() {
        MethodNode alloc = TestClasses.rewrite(SMALL, "alloc", (next, pos) -> new AllocationAdapter(next, pos));
        assertEquals(List.of("new java/lang/StringBuilder", "dup", "ldc x", "invokespecial StringBuilder.<init>",
                "dup", "iconst_0", "invokestatic Trace.alloc", "areturn"), TestClasses.insns(alloc));
        MethodNode array = TestClasses.rewrite(SMALL, "array", (next, pos) -> new AllocationAdapter(next, pos));
        assertEquals(List.of("iload 1", "newarray 10", "dup", "iconst_1", "invokestatic Trace.allocArray", "areturn"),
                TestClasses.insns(array), "an array goes to its own hook, which records its length");
        MethodNode nested = TestClasses.rewrite(SMALL, "nested", (next, pos) -> new AllocationAdapter(next, pos));
        assertEquals(List.of("new java/util/ArrayList", "dup", "new java/util/ArrayList", "dup",
                "invokespecial ArrayList.<init>", "dup", "iconst_4", "invokestatic Trace.alloc",
                "invokespecial ArrayList.<init>", "dup", "iconst_0", "invokestatic Trace.alloc", "areturn"),
                TestClasses.insns(nested));
        MethodNode statement = TestClasses.rewrite(SMALL, "statement", (next, pos) -> new AllocationAdapter(next, pos));
        assertEquals(List.of("new java/lang/Object", "dup", "invokespecial Object.<init>", "dup", "iconst_0",
                "invokestatic Trace.alloc", "pop", "aconst_null", "areturn"), TestClasses.insns(statement),
                "an object allocated by a statement is reported before javac's pop");
        MethodNode ctor = TestClasses.rewrite(SMALL, "<init>", (next, pos) -> new AllocationAdapter(next, pos));
        assertEquals(List.of("aload 0", "invokespecial Object.<init>", "return"), TestClasses.insns(ctor),
                "super() is not an allocation");
    }

    @Test
    void handlerEntryAdapterCallsCaughtFirstInEveryOriginalHandler() {
        MethodNode m = TestClasses.rewrite(SMALL, "catches", (next, pos) -> new HandlerEntryAdapter(next, true, false, 0, pos));
        assertEquals(List.of("aload 0", "iconst_1", "invokevirtual Small.plain", "ireturn",
                "invokestatic Trace.caught", "astore 1", "iconst_0", "ireturn"), TestClasses.insns(m));
    }

    @Test
    void everyEmittedHookExistsInTheRuntimeWithThatSignature() throws Exception {
        assertEquals(dev.minitrace.injector.runtime.Trace.class.getName().replace('.', '/'), Hooks.OWNER);
        Class<?> trace = dev.minitrace.injector.runtime.Trace.class;
        Object[][] hooks = {
            {"enter", new Class<?>[] {int.class}}, {"exit", new Class<?>[] {int.class, int.class}},
            {"exitByException", new Class<?>[] {int.class}}, {"superCall", new Class<?>[] {int.class}},
            {"superReturned", new Class<?>[] {int.class}}, {"caught", new Class<?>[0]},
            {"lockAcquire", new Class<?>[] {Object.class, int.class}}, {"lockRelease", new Class<?>[] {Object.class, int.class}},
            {"alloc", new Class<?>[] {Object.class, int.class}}, {"allocArray", new Class<?>[] {Object.class, int.class}},
        };
        for (Object[] h : hooks) {
            var m = trace.getMethod((String) h[0], (Class<?>[]) h[1]);
            assertEquals(void.class, m.getReturnType(), m.getName());
            org.junit.jupiter.api.Assertions.assertTrue(java.lang.reflect.Modifier.isStatic(m.getModifiers()), m.getName());
        }
    }
}
