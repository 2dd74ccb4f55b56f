package dev.minitrace.injector.asm;

import java.util.HashSet;
import java.util.Set;
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
final class HandlerEntryAdapter extends InstructionVisitor {
    private final Set<Label> handlers = new HashSet<>();
    private final boolean caught;
    private final boolean handled;
    private final int methodId;
    private final Position position;
    private boolean atHandler;

    /** {@code caught}: call {@code Trace.caught()}; {@code handled}: call {@code Trace.handled}. */
    HandlerEntryAdapter(MethodVisitor next, boolean caught, boolean handled, int methodId, Position position) {
        super(next);
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

    @Override
    void beforeInstruction() {
        if (atHandler) {
            atHandler = false;
            if (caught) {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "caught", "()V", false);
            }
            if (handled) {
                mv.visitInsn(Opcodes.DUP);
                Hooks.push(mv, methodId);
                Hooks.push(mv, position.bci);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "handled", "(Ljava/lang/Object;II)V", false);
            }
        }
    }
}
