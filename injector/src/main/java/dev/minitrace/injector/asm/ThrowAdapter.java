package dev.minitrace.injector.asm;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Every {@code athrow} of the original code first passes its exception to
 * {@code Trace.thrown(exception, methodId, bci)}. Placed before the adapters that add their own
 * rethrowing handlers, so only the program's own throws are reported.
 */
final class ThrowAdapter extends MethodVisitor {
    private final int methodId;
    private final Position position;

    ThrowAdapter(MethodVisitor next, int methodId, Position position) {
        super(Opcodes.ASM9, next);
        this.methodId = methodId;
        this.position = position;
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.ATHROW) {
            super.visitInsn(Opcodes.DUP);
            Hooks.push(mv, methodId);
            Hooks.push(mv, position.bci);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "thrown", "(Ljava/lang/Object;II)V", false);
        }
        super.visitInsn(opcode);
    }
}
