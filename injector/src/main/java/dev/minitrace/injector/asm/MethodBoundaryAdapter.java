package dev.minitrace.injector.asm;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Method entry and exit: {@code Trace.enter(id)} at the very start, {@code Trace.exit(id, bci)}
 * before every return instruction, and a catch-all handler around the body that calls
 * {@code Trace.exitByException(id)} and rethrows.
 *
 * <p>Constructors get two handler ranges: the verifier does not let one handler cover code where
 * {@code this} is uninitialized together with code where it is initialized. The first range ends
 * just before the {@code super(…)}/{@code this(…)} call and its handler's frame keeps local 0 as
 * {@code uninitializedThis} (allowed because the handler ends in {@code athrow}); the second range
 * starts right after the call. The call itself cannot be covered: HotSpot (17 and 25 alike) checks
 * a handler covering it against the initialized {@code this} with the "this uninitialized" flag
 * still set, which no stack map frame can accept. Instead the call is bracketed by
 * {@code Trace.superCall(id)}/{@code Trace.superReturned(id)}; a constructor still "in super" when
 * a frame outside it exits or catches is given its exceptional exit then (see {@code Trace}).
 * A constructor whose super call is not found exactly once (not javac output) gets no exception
 * handler, only entry and normal exits.
 *
 * <p>Handlers are registered last, so every handler of the original code takes precedence. Their
 * frames are full frames with no locals (or only {@code uninitializedThis}), which every
 * instruction's frame is assignable to; original frames are kept as they are, so no class is ever
 * loaded to compute frames.
 *
 * <p>A leaf ({@link LeafMethods}: nothing can be recorded between its entry and its exit) gets no
 * entry hook: {@code Trace.leaf(id, bci)} before every return and {@code Trace.leafByException(id)}
 * in the handler write the entry and the exit as one record.
 */
final class MethodBoundaryAdapter extends MethodVisitor {
    private final int methodId;
    private final boolean constructor;
    private final boolean frames;
    private final Position position;
    /** Enter through {@code Trace.enterWith(this, id)}: an instance method with receivers traced. */
    private final boolean receiver;
    /** A leaf: one hook at each exit writes the entry too. */
    private final boolean leaf;
    private final Label start = new Label();
    private Label beforeSuper;
    private Label afterSuper;
    private int superCalls;
    private int pendingNews;

    /**
     * @param frames whether the class file carries stack map frames (version 50 and later)
     */
    MethodBoundaryAdapter(MethodVisitor next, int methodId, String methodName, boolean frames, Position position) {
        this(next, methodId, methodName, frames, position, false);
    }

    /**
     * @param receiver whether the entry passes {@code this} ({@code Trace.enterWith}); only for an
     *     instance method that is not a constructor, whose {@code this} is initialized at entry
     */
    MethodBoundaryAdapter(MethodVisitor next, int methodId, String methodName, boolean frames, Position position, boolean receiver) {
        this(next, methodId, methodName, frames, position, receiver, false);
    }

    /** @param leaf whether the method is a leaf (never a constructor, never with receivers traced) */
    MethodBoundaryAdapter(MethodVisitor next, int methodId, String methodName, boolean frames, Position position, boolean receiver,
            boolean leaf) {
        super(Opcodes.ASM9, next);
        this.leaf = leaf;
        this.receiver = receiver && !"<init>".equals(methodName);
        this.methodId = methodId;
        this.constructor = "<init>".equals(methodName);
        this.frames = frames;
        this.position = position;
    }

    @Override
    public void visitCode() {
        super.visitCode();
        if (leaf) {
            // the exit hooks write the entry
        } else if (receiver) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            Hooks.push(mv, methodId);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "enterWith", "(Ljava/lang/Object;I)V", false);
        } else {
            Hooks.enter(mv, methodId);
        }
        super.visitLabel(start);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
            Hooks.exit(mv, leaf, methodId, position.bci);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        if (opcode == Opcodes.NEW) {
            pendingNews++;
        }
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        if (opcode != Opcodes.INVOKESPECIAL || !"<init>".equals(name)) {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        } else if (pendingNews > 0) {
            pendingNews--;
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        } else if (constructor) {
            superCalls++;
            Hooks.push(mv, methodId);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "superCall", "(I)V", false);
            if (beforeSuper == null) {
                beforeSuper = new Label();
                super.visitLabel(beforeSuper);
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            if (afterSuper == null) {
                afterSuper = new Label();
                super.visitLabel(afterSuper);
            }
            Hooks.push(mv, methodId);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "superReturned", "(I)V", false);
        } else {
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        Label end = new Label();
        super.visitLabel(end);
        if (!constructor) {
            handler(start, end, false);
        } else if (superCalls == 1) {
            handler(start, beforeSuper, true);
            handler(afterSuper, end, false);
        }
        super.visitMaxs(maxStack, maxLocals);
    }

    private void handler(Label from, Label to, boolean uninitializedThis) {
        Label handler = new Label();
        super.visitTryCatchBlock(from, to, handler, null);
        super.visitLabel(handler);
        if (frames) {
            Object[] locals = uninitializedThis ? new Object[] {Opcodes.UNINITIALIZED_THIS} : new Object[0];
            super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
        }
        Hooks.exitByException(mv, leaf, methodId);
        super.visitInsn(Opcodes.ATHROW);
    }
}
