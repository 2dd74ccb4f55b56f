package dev.minitrace.injector.asm;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Capture of a method named by {@code capture=} (never a constructor or static initializer):
 * <pre>
 *   if (Capture.on) Capture.enter(id, this|null, new Object[] {args…});   // at the start
 *       (a parameter redacted by position or name: Redaction.REDACTED in its place)
 *   Capture.returnedX(value, id[, kind]) before each return (the value duplicated)
 *   catch-all handler: Capture.threw(exception, id); athrow
 * </pre>
 * It is the innermost adapter of the chain (next to the writer), so the code it adds is never seen
 * by the other adapters (its argument array is not reported as an allocation). The branch at the
 * start lands on a {@code F_SAME} frame — the locals are still the method's parameters there —
 * followed by a {@code nop}, so that a frame of the original first instruction keeps an offset of
 * its own. The handler's frame has no locals, like {@link MethodBoundaryAdapter}'s.
 */
final class CaptureAdapter extends MethodVisitor {
    /** Internal name of the capture hooks. */
    static final String OWNER = "dev/minitrace/injector/runtime/Capture";

    private final int methodId;
    private final boolean isStatic;
    private final String descriptor;
    private final boolean frames;
    private final Label start = new Label();
    /** Parameters (0-based) replaced by {@code Redaction.REDACTED} in the argument array; null: none. */
    private final boolean[] redacted;

    CaptureAdapter(MethodVisitor next, int methodId, int access, String descriptor, boolean frames) {
        this(next, methodId, access, descriptor, frames, null);
    }

    CaptureAdapter(MethodVisitor next, int methodId, int access, String descriptor, boolean frames, boolean[] redacted) {
        super(Opcodes.ASM9, next);
        this.methodId = methodId;
        this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
        this.descriptor = descriptor;
        this.frames = frames;
        this.redacted = redacted;
    }

    /** Owner of the placeholder of a redacted parameter. */
    static final String REDACTION = "dev/minitrace/injector/runtime/Redaction";

    @Override
    public void visitCode() {
        super.visitCode();
        Label skip = new Label();
        super.visitFieldInsn(Opcodes.GETSTATIC, OWNER, "on", "Z");
        super.visitJumpInsn(Opcodes.IFEQ, skip);
        Hooks.push(mv, methodId);
        if (isStatic) {
            super.visitInsn(Opcodes.ACONST_NULL);
        } else {
            super.visitVarInsn(Opcodes.ALOAD, 0);
        }
        Type[] args = Type.getArgumentTypes(descriptor);
        Hooks.push(mv, args.length);
        super.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < args.length; i++) {
            super.visitInsn(Opcodes.DUP);
            Hooks.push(mv, i);
            if (redacted != null && redacted[i]) {
                // The value never reaches the hooks, so neither its toString nor its text can leak.
                super.visitFieldInsn(Opcodes.GETSTATIC, REDACTION, "REDACTED", "Ljava/lang/Object;");
            } else {
                super.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slot);
                box(args[i]);
            }
            super.visitInsn(Opcodes.AASTORE);
            slot += args[i].getSize();
        }
        super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "enter", "(ILjava/lang/Object;[Ljava/lang/Object;)V", false);
        super.visitLabel(skip);
        if (frames) {
            super.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
        }
        super.visitInsn(Opcodes.NOP);
        super.visitLabel(start);
    }

    private void box(Type t) {
        String owner;
        switch (t.getSort()) {
            case Type.BOOLEAN -> owner = "java/lang/Boolean";
            case Type.CHAR -> owner = "java/lang/Character";
            case Type.BYTE -> owner = "java/lang/Byte";
            case Type.SHORT -> owner = "java/lang/Short";
            case Type.INT -> owner = "java/lang/Integer";
            case Type.LONG -> owner = "java/lang/Long";
            case Type.FLOAT -> owner = "java/lang/Float";
            case Type.DOUBLE -> owner = "java/lang/Double";
            default -> {
                return;
            }
        }
        super.visitMethodInsn(Opcodes.INVOKESTATIC, owner, "valueOf", "(" + t.getDescriptor() + ")L" + owner + ";", false);
    }

    @Override
    public void visitInsn(int opcode) {
        switch (opcode) {
            case Opcodes.RETURN -> {
                Hooks.push(mv, methodId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedVoid", "(I)V", false);
            }
            case Opcodes.IRETURN -> {
                super.visitInsn(Opcodes.DUP);
                Hooks.push(mv, methodId);
                Hooks.push(mv, Type.getReturnType(descriptor).getDescriptor().charAt(0));
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedInt", "(IIC)V", false);
            }
            case Opcodes.LRETURN -> {
                super.visitInsn(Opcodes.DUP2);
                Hooks.push(mv, methodId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedLong", "(JI)V", false);
            }
            case Opcodes.FRETURN -> {
                super.visitInsn(Opcodes.DUP);
                Hooks.push(mv, methodId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedFloat", "(FI)V", false);
            }
            case Opcodes.DRETURN -> {
                super.visitInsn(Opcodes.DUP2);
                Hooks.push(mv, methodId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedDouble", "(DI)V", false);
            }
            case Opcodes.ARETURN -> {
                super.visitInsn(Opcodes.DUP);
                Hooks.push(mv, methodId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "returnedObject", "(Ljava/lang/Object;I)V", false);
            }
            default -> {
                // not a return
            }
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        Label end = new Label();
        super.visitLabel(end);
        Label handler = new Label();
        super.visitTryCatchBlock(start, end, handler, null);
        super.visitLabel(handler);
        if (frames) {
            super.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
        }
        super.visitInsn(Opcodes.DUP);
        Hooks.push(mv, methodId);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "threw", "(Ljava/lang/Throwable;I)V", false);
        super.visitInsn(Opcodes.ATHROW);
        super.visitMaxs(maxStack, maxLocals);
    }
}
