package dev.minitrace.injector.asm;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * First visitor of a traced method: counts the instructions the class reader visits and sets
 * {@link Position#bci} to the original offset of each one before passing it on. ClassReader
 * visits exactly one instruction call per original instruction ({@code wide} and the {@code _w}
 * forms included), so the n-th call is the n-th decoded offset.
 */
final class InstructionCounter extends MethodVisitor {
    private final int[] offsets;
    private final Position position;
    private int index;

    InstructionCounter(MethodVisitor next, int[] offsets, Position position) {
        super(Opcodes.ASM9, next);
        this.offsets = offsets;
        this.position = position;
    }

    private void step() {
        if (index >= offsets.length) {
            throw new IllegalStateException("more instructions visited than decoded (" + offsets.length + ")");
        }
        position.bci = offsets[index++];
    }

    @Override
    public void visitEnd() {
        if (index != offsets.length) {
            throw new IllegalStateException("visited " + index + " instructions but decoded " + offsets.length);
        }
        super.visitEnd();
    }

    @Override
    public void visitInsn(int opcode) {
        step();
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        step();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        step();
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        step();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        step();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        step();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {
        step();
        super.visitInvokeDynamicInsn(name, descriptor, bsm, bsmArgs);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        step();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        step();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        step();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        step();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        step();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        step();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }
}
