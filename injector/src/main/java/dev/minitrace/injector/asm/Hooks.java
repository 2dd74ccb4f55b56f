package dev.minitrace.injector.asm;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Emits calls to the runtime hooks of {@code dev.minitrace.injector.runtime.Trace}. */
final class Hooks {
    /** Internal name of the hook class. */
    static final String OWNER = "dev/minitrace/injector/runtime/Trace";

    private Hooks() {
    }

    /** Pushes an int constant with the shortest instruction. */
    static void push(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }

    /** {@code Trace.enter(id)}. */
    static void enter(MethodVisitor mv, int methodId) {
        push(mv, methodId);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "enter", "(I)V", false);
    }

    /** {@code Trace.exit(id, bci)}, or for a leaf {@code Trace.leaf(id, bci)}: its entry and this exit. */
    static void exit(MethodVisitor mv, boolean leaf, int methodId, int bci) {
        push(mv, methodId);
        push(mv, bci);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, leaf ? "leaf" : "exit", "(II)V", false);
    }

    /** {@code Trace.exitByException(id)}, or for a leaf {@code Trace.leafByException(id)}. */
    static void exitByException(MethodVisitor mv, boolean leaf, int methodId) {
        push(mv, methodId);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, leaf ? "leafByException" : "exitByException", "(I)V", false);
    }

    /** {@code Trace.lockHash(<object on the stack>)}: replaces the reference with an int. */
    static void lockHash(MethodVisitor mv) {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "lockHash", "(Ljava/lang/Object;)I", false);
    }

    /** {@code Trace.lockAcquire(<object>, <hash>, bci)}: the reference and the hash must be on the stack. */
    static void lockAcquireHashed(MethodVisitor mv, int bci) {
        push(mv, bci);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "lockAcquire", "(Ljava/lang/Object;II)V", false);
    }

    /** {@code Trace.<name>(<object on the stack>, bci)}: the object reference must be on the stack. */
    static void objectHook(MethodVisitor mv, String name, int bci) {
        push(mv, bci);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, name, "(Ljava/lang/Object;I)V", false);
    }

    /** {@code Trace.<name>(<object on the stack>, methodId, bci)}: the object reference must be on the stack. */
    static void sitedHook(MethodVisitor mv, String name, int methodId, int bci) {
        push(mv, methodId);
        push(mv, bci);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, name, "(Ljava/lang/Object;II)V", false);
    }
}
