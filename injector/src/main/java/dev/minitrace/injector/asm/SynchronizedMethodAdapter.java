package dev.minitrace.injector.asm;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The monitor of a {@code synchronized} method ({@code this}, or the class object for a static
 * method): {@code Trace.lockAcquire(monitor, 0)} right after the method entry hook, and
 * {@code Trace.lockRelease(monitor, 0)} before every return and in a catch-all handler that
 * rethrows. Placed before {@link MethodBoundaryAdapter} in the chain, so the release comes before
 * the exit event and the entry event before the acquire.
 */
final class SynchronizedMethodAdapter extends MethodVisitor {
    private final String owner;
    private final boolean isStatic;
    private final boolean frames;
    private final Label start = new Label();

    SynchronizedMethodAdapter(MethodVisitor next, String owner, boolean isStatic, boolean frames) {
        super(Opcodes.ASM9, next);
        this.owner = owner;
        this.isStatic = isStatic;
        this.frames = frames;
    }

    private void loadMonitor() {
        if (isStatic) {
            super.visitLdcInsn(Type.getObjectType(owner));
        } else {
            super.visitVarInsn(Opcodes.ALOAD, 0);
        }
    }

    @Override
    public void visitCode() {
        super.visitCode();
        loadMonitor();
        Hooks.objectHook(mv, "lockAcquire", 0);
        super.visitLabel(start);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
            loadMonitor();
            Hooks.objectHook(mv, "lockRelease", 0);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        Label end = new Label();
        Label handler = new Label();
        super.visitLabel(end);
        super.visitTryCatchBlock(start, end, handler, null);
        super.visitLabel(handler);
        if (frames) {
            Object[] locals = isStatic ? new Object[0] : new Object[] {owner};
            super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
        }
        loadMonitor();
        Hooks.objectHook(mv, "lockRelease", 0);
        super.visitInsn(Opcodes.ATHROW);
        super.visitMaxs(maxStack, maxLocals);
    }
}
