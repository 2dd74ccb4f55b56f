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
 *
 * <p>With {@code alloc-scope=all} the calls that make a new object in the JVM rather than by an
 * instruction are reported too, at the call's bytecode index, with the result: an array's
 * {@code clone()}, {@code super.clone()} ({@code Object.clone}, which copies the object) and
 * {@code java.lang.reflect.Array.newInstance} (which {@code Arrays.copyOf} of any array but an
 * {@code Object[]} uses), {@code Constructor.newInstance}, {@code Unsafe.allocateInstance} and
 * {@code Unsafe.allocateUninitializedArray} (see {@link #madeByCall}); and the capturing lambdas
 * an {@code invokedynamic} makes ({@link #madeByIndy}).
 */
final class AllocationAdapter extends MethodVisitor {
    private final Position position;
    private int[] pendingBci = new int[8];
    private boolean[] pendingTracked = new boolean[8];
    private int pending;
    private boolean afterNew;
    /** The id of the untraced method whose allocations these are, or -1 in a traced method. */
    private final int siteMethod;
    /** Whether the calls of {@link #madeByCall} are reported too ({@code alloc-scope=all}). */
    private final boolean calls;

    AllocationAdapter(MethodVisitor next, Position position) {
        this(next, position, -1, false);
    }

    /**
     * For the untraced method {@code siteMethod} (an id), or a traced one when -1; {@code calls}:
     * also the calls that allocate ({@link #madeByCall}).
     */
    AllocationAdapter(MethodVisitor next, Position position, int siteMethod, boolean calls) {
        super(Opcodes.ASM9, next);
        this.position = position;
        this.siteMethod = siteMethod;
        this.calls = calls;
    }

    /** A call that returns a new object: {@link #NOT_MADE} (no), {@link #MADE_OBJECT} or {@link #MADE_ARRAY}. */
    static int madeByCall(int opcode, String owner, String name, String descriptor) {
        if ("clone".equals(name) && "()Ljava/lang/Object;".equals(descriptor)) {
            if (opcode == Opcodes.INVOKEVIRTUAL && owner.startsWith("[")) {
                return MADE_ARRAY;
            }
            if (opcode == Opcodes.INVOKESPECIAL && "java/lang/Object".equals(owner)) {
                return MADE_OBJECT; // super.clone(): the JVM's copy; an array's clone is the case above
            }
        }
        if (opcode == Opcodes.INVOKESTATIC && "java/lang/reflect/Array".equals(owner) && "newInstance".equals(name)) {
            return MADE_ARRAY;
        }
        if (opcode == Opcodes.INVOKEVIRTUAL && "newInstance".equals(name) && "java/lang/reflect/Constructor".equals(owner)
                && "([Ljava/lang/Object;)Ljava/lang/Object;".equals(descriptor)) {
            // a new object each call; its accessors (jdk.internal.reflect, java.lang.invoke) are never rewritten, so it is
            // counted here only. Class.newInstance is not: it calls Constructor.newInstance, which is.
            return MADE_OBJECT;
        }
        if (opcode == Opcodes.INVOKEVIRTUAL && ("jdk/internal/misc/Unsafe".equals(owner) || "sun/misc/Unsafe".equals(owner))) {
            if ("allocateInstance".equals(name) && "(Ljava/lang/Class;)Ljava/lang/Object;".equals(descriptor)) {
                return MADE_OBJECT;
            }
            if ("allocateUninitializedArray".equals(name) && "(Ljava/lang/Class;I)Ljava/lang/Object;".equals(descriptor)) {
                return MADE_ARRAY; // the byte[] of a string concatenation's String (StringConcatHelper.newArray)
            }
        }
        return NOT_MADE;
    }

    /**
     * Whether an {@code invokedynamic} returns a new object: a lambda or method reference that
     * captures values ({@code LambdaMetafactory} with arguments). Its proxy class is hidden and
     * the instance is made in {@code java.lang.invoke} ({@code DirectMethodHandle.allocateInstance}),
     * neither of which is rewritten; one that captures nothing returns the same instance every time.
     */
    static boolean madeByIndy(String descriptor, Handle bootstrap) {
        return "java/lang/invoke/LambdaMetafactory".equals(bootstrap.getOwner())
                && ("metafactory".equals(bootstrap.getName()) || "altMetafactory".equals(bootstrap.getName()))
                && !descriptor.startsWith("()");
    }

    static final int NOT_MADE = 0;
    static final int MADE_OBJECT = 1;
    static final int MADE_ARRAY = 2;

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
        int made = calls ? madeByCall(opcode, owner, name, descriptor) : NOT_MADE;
        if (made != NOT_MADE) {
            int bci = position.bci;
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            if (made == MADE_ARRAY) {
                reportArray(bci);
            } else {
                reportTop(bci);
            }
            return;
        }
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
        int bci = position.bci;
        super.visitInvokeDynamicInsn(name, descriptor, bsm, bsmArgs);
        if (calls && madeByIndy(descriptor, bsm)) {
            reportTop(bci);
        }
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
