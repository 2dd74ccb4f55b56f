package dev.minitrace.injector.asm;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code monitorenter}/{@code monitorexit}: after the {@code monitorenter}
 * {@code Trace.lockAcquire(ref, bci)} runs, and before the {@code monitorexit}
 * {@code Trace.lockRelease(ref, bci)}. javac's catch-any handlers of a synchronized block contain
 * a {@code monitorexit} too, so exceptional paths are balanced.
 *
 * <p>Where the hooks go matters to the JIT. javac's catch-any range of a synchronized block starts
 * at the instruction after the {@code monitorenter}. A hook inserted before that range's start
 * label lies outside it, so an exception there would reach only the method-wide handler of
 * {@link MethodBoundaryAdapter}, which rethrows: a path that leaves the method holding the
 * monitor. HotSpot's monitor matching then refuses the method ("unbalanced monitors") and it runs
 * in the interpreter for good (docs/decisions.md). So for javac's shape,
 * {@code dup; astore n; monitorenter}, the acquire hook reloads local {@code n} after the range's
 * start label, inside the range, where javac's own handler releases the monitor; the operand stack
 * is then empty at the range's start. For {@code aload m; monitorexit} the release hook loads
 * {@code m} itself rather than taking a duplicate from the stack. C2 compiles such methods; C1
 * still refuses them ("error while joining with exception handler": it gives up on any call inside
 * a handler whose range covers the handler itself, as javac's does up to its {@code monitorexit}),
 * so they go from the interpreter straight to C2.
 *
 * <p>In that shape the monitor's identity hash is also taken before the {@code monitorenter}, into
 * a local of the adapter's own past the method's original ones, and handed to the acquire hook. An
 * unlocked object's hash is read from its header by the JIT's intrinsic; a locked object's needs a
 * call into the VM, and on JDK 17, where a thin lock displaces the header, hashing an object
 * locked for the first time inflates its monitor (docs/decisions.md).
 *
 * <p>The start label may also be a jump target (a loop at the top of the block): then a stack map
 * frame follows it, and the hook stays before the label, as jumps must not run it again (C2 refuses
 * that rare shape). Telling jump targets apart needs frames at every one, which class files from
 * version 51 on guarantee; older ones, and other shapes, keep a duplicate on the stack and the hook
 * right after the {@code monitorenter}.
 *
 * <p>When the block starts with a {@code new}, that instruction shares the range's start label,
 * which stack map frames name as the offset of the object until its constructor runs. The hook
 * after the label would make those frames point at the hook, which the JVM's verifier rejects
 * ("bad offset for Uninitialized"); the {@code new} gets a label of its own, and the frames are
 * given that one.
 */
final class MonitorAdapter extends InstructionVisitor {
    private final Position position;
    /** Whether a label without a stack map frame is known not to be a jump target (version 51+). */
    private final boolean framesAtTargets;
    /** The local holding the hash of the monitor being acquired: the method's original max_locals. */
    private final int hashLocal;
    private final Set<Label> tryStarts = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The bytecode index of a {@code monitorenter} whose acquire hook is not yet emitted, or -1. */
    private int pendingBci = -1;
    /** The local holding that monitor (javac's {@code dup; astore n; monitorenter}), or -1 when the hook takes a duplicate from the stack. */
    private int pendingLocal = -1;
    /** The local the previous instruction stored a reference into, or -1. */
    private int lastStore = -1;
    /** A reference load held back until the next instruction shows whether it feeds a {@code monitorexit}, or -1. */
    private int heldLoad = -1;
    /** The try-range start label after that {@code monitorenter}, held back until it is known not to be a jump target. */
    private Label heldLabel;
    /** Line numbers of the held label (ASM visits them between a label and its frame), -1 for none. */
    private int heldLine = -1;
    /** Try-range start labels that were also a {@code new}'s, with the label the {@code new} got instead. */
    private final java.util.Map<Label, Label> uninitialized = new IdentityHashMap<>();

    /**
     * @param framesAtTargets whether the class file version guarantees a stack map frame at every
     *        jump target (51 and later)
     * @param maxLocals the method's original max_locals, the first local the adapter may use
     */
    MonitorAdapter(MethodVisitor next, Position position, boolean framesAtTargets, int maxLocals) {
        super(next);
        this.position = position;
        this.framesAtTargets = framesAtTargets;
        this.hashLocal = maxLocals;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        tryStarts.add(start);
        super.visitTryCatchBlock(start, end, handler, type);
    }

    @Override
    public void visitInsn(int opcode) {
        int stored = lastStore;
        if (opcode == Opcodes.MONITOREXIT && heldLoad >= 0) {
            // javac's shape (aload n; monitorexit): the hook loads the local itself, so nothing of
            // the block waits on the operand stack under its call, which C1 needs to join the
            // block's handler when it inlines the hook.
            int local = heldLoad;
            heldLoad = -1;
            flush();
            mv.visitVarInsn(Opcodes.ALOAD, local);
            Hooks.objectHook(mv, "lockRelease", position.bci);
            mv.visitVarInsn(Opcodes.ALOAD, local);
            mv.visitInsn(opcode);
            return;
        }
        flush();
        if (opcode == Opcodes.MONITORENTER) {
            if (stored >= 0 && framesAtTargets) {
                // javac's shape: the hook reloads the local once inside the try range, so the
                // operand stack is empty at the range's start, as C1 needs to join its handler.
                mv.visitInsn(Opcodes.DUP);
                Hooks.lockHash(mv);
                mv.visitVarInsn(Opcodes.ISTORE, hashLocal);
                mv.visitInsn(opcode);
                pendingLocal = stored;
                pendingBci = position.bci;
            } else {
                mv.visitInsn(Opcodes.DUP);
                mv.visitInsn(opcode);
                Hooks.objectHook(mv, "lockAcquire", position.bci);
            }
        } else if (opcode == Opcodes.MONITOREXIT) {
            mv.visitInsn(Opcodes.DUP);
            Hooks.objectHook(mv, "lockRelease", position.bci);
            mv.visitInsn(opcode);
        } else {
            mv.visitInsn(opcode);
        }
    }

    @Override
    public void visitLabel(Label label) {
        if (pendingBci >= 0 && heldLabel == null && framesAtTargets && tryStarts.contains(label)) {
            heldLabel = label;
            return;
        }
        flush();
        super.visitLabel(label);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        Label label = pendingBci >= 0 ? heldLabel : null;
        flush();
        if (opcode == Opcodes.NEW && label != null) {
            Label own = new Label();
            mv.visitLabel(own);
            uninitialized.put(label, own);
        }
        super.visitTypeInsn(opcode, type);
    }

    /** {@code types} with each label of {@link #uninitialized} replaced (the same array when none is). */
    private Object[] relabel(Object[] types, int count) {
        if (uninitialized.isEmpty() || types == null) {
            return types;
        }
        Object[] out = types;
        for (int i = 0; i < count; i++) {
            Label own = types[i] instanceof Label l ? uninitialized.get(l) : null;
            if (own != null) {
                if (out == types) {
                    out = types.clone();
                }
                out[i] = own;
            }
        }
        return out;
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        local = relabel(local, numLocal);
        stack = relabel(stack, numStack);
        if (heldLabel != null) {
            // A jump target: the hook before the label, as without a try range.
            Label label = heldLabel;
            heldLabel = null;
            emitAcquire();
            super.visitLabel(label);
            releaseLine(label);
        } else {
            flush();
        }
        super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitLineNumber(int line, Label start) {
        if (heldLabel != null && start == heldLabel && heldLine < 0) {
            heldLine = line;
            return;
        }
        flush();
        super.visitLineNumber(line, start);
    }

    private void releaseLine(Label label) {
        if (heldLine >= 0) {
            super.visitLineNumber(heldLine, label);
            heldLine = -1;
        }
    }

    @Override
    void beforeInstruction() {
        flush();
    }

    /** Emits the pending acquire hook: after the held label if there is one, else here. */
    private void flush() {
        lastStore = -1;
        if (heldLoad >= 0) {
            int local = heldLoad;
            heldLoad = -1;
            mv.visitVarInsn(Opcodes.ALOAD, local);
        }
        if (heldLabel != null) {
            Label label = heldLabel;
            heldLabel = null;
            super.visitLabel(label);
            releaseLine(label);
        }
        if (pendingBci >= 0) {
            emitAcquire();
        }
    }

    private void emitAcquire() {
        mv.visitVarInsn(Opcodes.ALOAD, pendingLocal);
        mv.visitVarInsn(Opcodes.ILOAD, hashLocal);
        Hooks.lockAcquireHashed(mv, pendingBci);
        pendingBci = -1;
        pendingLocal = -1;
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        flush();
        if (opcode == Opcodes.ALOAD && framesAtTargets) {
            heldLoad = varIndex;
            return;
        }
        mv.visitVarInsn(opcode, varIndex);
        lastStore = opcode == Opcodes.ASTORE ? varIndex : -1;
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        flush();
        super.visitMaxs(maxStack, maxLocals);
    }
}
