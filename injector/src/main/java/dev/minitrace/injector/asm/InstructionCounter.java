package dev.minitrace.injector.asm;

import org.objectweb.asm.MethodVisitor;

/**
 * First visitor of a traced method: counts the instructions the class reader visits and sets
 * {@link Position#bci} to the original offset of each one before passing it on. ClassReader
 * visits exactly one instruction call per original instruction ({@code wide} and the {@code _w}
 * forms included), so the n-th call is the n-th decoded offset.
 */
final class InstructionCounter extends InstructionVisitor {
    private final int[] offsets;
    private final Position position;
    private int index;

    InstructionCounter(MethodVisitor next, int[] offsets, Position position) {
        super(next);
        this.offsets = offsets;
        this.position = position;
    }

    @Override
    void beforeInstruction() {
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
}
