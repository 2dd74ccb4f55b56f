package dev.minitrace.injector.asm;

import dev.minitrace.injector.runtime.FieldRegistry;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reference stores, reported with the target they overwrite. Before a {@code putfield} of a
 * reference field, {@code holder, value} on the stack become {@code holder, value} again after
 * {@code Trace.fieldStore(holder, value, holder.field, fieldId, bci)}; before a {@code putstatic},
 * {@code Trace.staticStore(value, Class.field, fieldId, bci)}; an {@code aastore} is replaced by
 * {@code Trace.arrayStore(array, index, value, bci)}, which stores (no instruction sequence can
 * read the old element with three values on the stack). Primitive stores are left alone.
 *
 * <p>In a constructor before its {@code super(…)}/{@code this(…)} call, {@code this} is
 * uninitialized: it can be neither read from nor passed to a method, so such a {@code putfield}
 * (javac's {@code this$0} and captured variables) hands only the value to {@code Trace.initStore},
 * and right after the call {@code Trace.initStores(this, n)} records the {@code n} stores with
 * their holder. Every {@code putfield} there is taken to store into {@code this}, as javac's always do.
 */
final class ReferenceStoreAdapter extends MethodVisitor {
    private final Position position;
    private final boolean constructor;
    /** In a constructor: true until its super call; news are matched to their constructor calls. */
    private boolean beforeSuper;
    private int pendingNews;
    private int initStores;

    ReferenceStoreAdapter(MethodVisitor next, String methodName, Position position) {
        super(Opcodes.ASM9, next);
        this.position = position;
        this.constructor = "<init>".equals(methodName);
        this.beforeSuper = constructor;
    }

    private static boolean reference(String descriptor) {
        char c = descriptor.charAt(0);
        return c == 'L' || c == '[';
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        if ((opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC) && reference(descriptor)) {
            int bci = position.bci;
            int fieldId = FieldRegistry.idFor(owner, name, descriptor, opcode == Opcodes.PUTSTATIC);
            if (opcode == Opcodes.PUTSTATIC) {
                super.visitInsn(Opcodes.DUP);                                    // v v
                super.visitFieldInsn(Opcodes.GETSTATIC, owner, name, descriptor); // v v old
                Hooks.push(mv, fieldId);
                Hooks.push(mv, bci);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "staticStore",
                        "(Ljava/lang/Object;Ljava/lang/Object;II)V", false);
            } else if (beforeSuper) {
                super.visitInsn(Opcodes.DUP);                                    // this v v
                Hooks.push(mv, fieldId);
                Hooks.push(mv, bci);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "initStore", "(Ljava/lang/Object;II)V", false);
                initStores++;
            } else {
                super.visitInsn(Opcodes.DUP2);                                   // h v h v
                super.visitInsn(Opcodes.SWAP);                                   // h v v h
                super.visitInsn(Opcodes.DUP_X1);                                 // h v h v h
                super.visitFieldInsn(Opcodes.GETFIELD, owner, name, descriptor);  // h v h v old
                Hooks.push(mv, fieldId);
                Hooks.push(mv, bci);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "fieldStore",
                        "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;II)V", false);
            }
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.AASTORE) {
            Hooks.push(mv, position.bci);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "arrayStore", "([Ljava/lang/Object;ILjava/lang/Object;I)V", false);
            return;
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
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        if (opcode != Opcodes.INVOKESPECIAL || !"<init>".equals(name)) {
            return;
        }
        if (pendingNews > 0) {
            pendingNews--;
        } else if (beforeSuper) {
            beforeSuper = false;
            if (initStores > 0) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                Hooks.push(mv, initStores);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, Hooks.OWNER, "initStores", "(Ljava/lang/Object;I)V", false);
            }
        }
    }
}
