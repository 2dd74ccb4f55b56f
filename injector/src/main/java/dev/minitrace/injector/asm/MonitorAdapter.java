package dev.minitrace.injector.asm;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code monitorenter}/{@code monitorexit}: the reference is duplicated; after the
 * {@code monitorenter} {@code Trace.lockAcquire(ref, bci)} runs, and before the {@code monitorexit}
 * {@code Trace.lockRelease(ref, bci)}. javac's catch-any handlers of a synchronized block contain
 * a {@code monitorexit} too, so exceptional paths are balanced.
 */
final class MonitorAdapter extends MethodVisitor {
    private final Position position;

    MonitorAdapter(MethodVisitor next, Position position) {
        super(Opcodes.ASM9, next);
        this.position = position;
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.MONITORENTER) {
            int bci = position.bci;
            super.visitInsn(Opcodes.DUP);
            super.visitInsn(opcode);
            Hooks.objectHook(mv, "lockAcquire", bci);
        } else if (opcode == Opcodes.MONITOREXIT) {
            super.visitInsn(Opcodes.DUP);
            Hooks.objectHook(mv, "lockRelease", position.bci);
            super.visitInsn(opcode);
        } else {
            super.visitInsn(opcode);
        }
    }
}
