package dev.minitrace.injector.asm;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * At the start of every exception handler of the original code: with method events,
 * {@code Trace.caught()}, so that a constructor unwound from inside its {@code super(…)} call gets
 * its exit before anything the catching frame does next; with exception events,
 * {@code Trace.handled(exception, methodId, handlerBci)} with the caught exception (on the stack
 * at a handler's start), whoever threw it. The calls are placed before the handler's first
 * instruction, after its label and stack map frame, and leave the operand stack as it was.
 */
final class HandlerEntryAdapter extends MethodVisitor {
    private final Set<Label> handlers = new HashSet<>();
    private final boolean caught;
    private final boolean handled;
    private final int methodId;
    private final Position position;
    private boolean atHandler;

    /** {@code caught}: call {@code Trace.caught()}; {@code handled}: call {@code Trace.handled}. */
    HandlerEntryAdapter(MethodVisitor next, boolean caught, boolean handled, int methodId, Position position) {
        super(Opcodes.ASM9, next);
        this.caught = caught;
        this.handled = handled;
        this.methodId = methodId;
        this.position = position;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        handlers.add(handler);
        super.visitTryCatchBlock(start, end, handler, type);
    }

    @Override
    public void visitLabel(Label label) {
        super.visitLabel(label);
        if (handlers.contains(label)) {
            atHandler = true;
        }
    }

    private void before() {
        if (atHandler) {
            atHandler = false;
            if (caught) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "caught", "()V", false);
            }
            if (handled) {
                super.visitInsn(Opcodes.DUP);
                Hooks.push(mv, methodId);
                Hooks.push(mv, position.bci);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "handled", "(Ljava/lang/Object;II)V", false);
            }
        }
    }

    @Override
    public void visitInsn(int opcode) {
        before();
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        before();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        before();
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        before();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        before();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        before();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {
        before();
        super.visitInvokeDynamicInsn(name, descriptor, bsm, bsmArgs);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        before();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        before();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        before();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        before();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        before();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        before();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }
}
