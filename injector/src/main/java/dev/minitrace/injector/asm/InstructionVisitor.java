package dev.minitrace.injector.asm;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A visitor that must act before every instruction, whatever its kind: ASM has a visit method per
 * instruction format, and each adapter that counted or inserted "before the next instruction"
 * overrode all thirteen. Subclasses implement {@link #beforeInstruction()}; an override of one of
 * these methods that emits its own code calls {@code mv} directly, so as not to run it twice.
 */
abstract class InstructionVisitor extends MethodVisitor {
    InstructionVisitor(MethodVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Runs before each original instruction is passed on. */
    abstract void beforeInstruction();

    @Override
    public void visitInsn(int opcode) {
        beforeInstruction();
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        beforeInstruction();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        beforeInstruction();
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        beforeInstruction();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        beforeInstruction();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        beforeInstruction();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {
        beforeInstruction();
        super.visitInvokeDynamicInsn(name, descriptor, bsm, bsmArgs);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        beforeInstruction();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        beforeInstruction();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        beforeInstruction();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        beforeInstruction();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        beforeInstruction();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        beforeInstruction();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }
}
