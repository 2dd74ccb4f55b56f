package dev.minitrace.injector.asm;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Allocation sites, reported once the object exists: for {@code new X; dup; …; invokespecial
 * X.<init>} the reference left on the stack after the matching constructor call is duplicated and
 * passed to {@code Trace.alloc(ref, bciOfNew)}; arrays ({@code newarray}, {@code anewarray},
 * {@code multianewarray}) are passed to {@code Trace.allocArray} right after the instruction. A {@code new} that is not
 * immediately followed by {@code dup} leaves no reference behind and is not reported. Pending
 * {@code new}s are matched to constructor calls as a stack (javac nests them); a constructor call
 * with no pending {@code new} is a {@code super(…)}/{@code this(…)} call.
 *
 * <p>In a method whose entries are not traced ({@code alloc-scope=all}) the hooks also get the
 * method's id, since no entry record tells the reader whose bytecode index it is.
 */
final class AllocationAdapter extends MethodVisitor {
    private final Position position;
    private int[] pendingBci = new int[8];
    private boolean[] pendingTracked = new boolean[8];
    private int pending;
    private boolean afterNew;
    /** The id of the untraced method whose allocations these are, or -1 in a traced method. */
    private final int siteMethod;

    AllocationAdapter(MethodVisitor next, Position position) {
        this(next, position, -1);
    }

    /** For the untraced method {@code siteMethod} (an id), or a traced one when -1. */
    AllocationAdapter(MethodVisitor next, Position position, int siteMethod) {
        super(Opcodes.ASM9, next);
        this.position = position;
        this.siteMethod = siteMethod;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        afterNew = false;
        if (opcode == Opcodes.NEW) {
            if (pending == pendingBci.length) {
                pendingBci = java.util.Arrays.copyOf(pendingBci, pending * 2);
                pendingTracked = java.util.Arrays.copyOf(pendingTracked, pending * 2);
            }
            pendingBci[pending] = position.bci;
            pendingTracked[pending] = false;
            pending++;
            afterNew = true;
            super.visitTypeInsn(opcode, type);
        } else if (opcode == Opcodes.ANEWARRAY) {
            int bci = position.bci;
            super.visitTypeInsn(opcode, type);
            reportArray(bci);
        } else {
            super.visitTypeInsn(opcode, type);
        }
    }

    @Override
    public void visitInsn(int opcode) {
        if (afterNew && opcode == Opcodes.DUP) {
            pendingTracked[pending - 1] = true;
        }
        afterNew = false;
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        afterNew = false;
        int bci = position.bci;
        super.visitIntInsn(opcode, operand);
        if (opcode == Opcodes.NEWARRAY) {
            reportArray(bci);
        }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        afterNew = false;
        int bci = position.bci;
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
        reportArray(bci);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        afterNew = false;
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        if (opcode == Opcodes.INVOKESPECIAL && "<init>".equals(name) && pending > 0) {
            pending--;
            if (pendingTracked[pending]) {
                reportTop(pendingBci[pending]);
            }
        }
    }

    private void reportTop(int bci) {
        super.visitInsn(Opcodes.DUP);
        if (siteMethod >= 0) {
            Hooks.sitedHook(mv, "allocAt", siteMethod, bci);
        } else {
            Hooks.objectHook(mv, "alloc", bci);
        }
    }

    /** An array's hook also records its length. */
    private void reportArray(int bci) {
        super.visitInsn(Opcodes.DUP);
        if (siteMethod >= 0) {
            Hooks.sitedHook(mv, "allocArrayAt", siteMethod, bci);
        } else {
            Hooks.objectHook(mv, "allocArray", bci);
        }
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        afterNew = false;
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        afterNew = false;
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {
        afterNew = false;
        super.visitInvokeDynamicInsn(name, descriptor, bsm, bsmArgs);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        afterNew = false;
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        afterNew = false;
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        afterNew = false;
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        afterNew = false;
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        afterNew = false;
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }
}
