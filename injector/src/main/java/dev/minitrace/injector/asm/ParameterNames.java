package dev.minitrace.injector.asm;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The parameter names a class file really carries: the MethodParameters attribute (written by
 * {@code javac -parameters}) first, else the LocalVariableTable (written by {@code javac -g}, the
 * Maven and Gradle default), whose entry for a parameter is the one in the parameter's slot that
 * starts at offset 0. Without either a name stays null.
 */
final class ParameterNames {
    private ParameterNames() {
    }

    /**
     * The names of the parameters of the methods {@code keys} ({@code name + descriptor}); a method
     * the class file names no parameter of is absent.
     */
    static Map<String, String[]> read(ClassReader reader, Set<String> keys) {
        Map<String, String[]> names = new HashMap<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                String key = name + descriptor;
                if (!keys.contains(key)) {
                    return null;
                }
                Type[] args = Type.getArgumentTypes(descriptor);
                int[] slots = new int[args.length];
                int slot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
                for (int i = 0; i < args.length; i++) {
                    slots[i] = slot;
                    slot += args[i].getSize();
                }
                String[] fromAttribute = new String[args.length];
                String[] fromTable = new String[args.length];
                return new MethodVisitor(Opcodes.ASM9) {
                    private int parameter;
                    /** Labels at offset 0: those visited before the first instruction (a reader's labels have no resolved offset). */
                    private final java.util.Set<Label> atStart = new java.util.HashSet<>();
                    private boolean code;

                    @Override
                    public void visitLabel(Label label) {
                        if (!code) {
                            atStart.add(label);
                        }
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        code = true;
                    }

                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        code = true;
                    }

                    @Override
                    public void visitVarInsn(int opcode, int varIndex) {
                        code = true;
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        code = true;
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String fieldName, String desc) {
                        code = true;
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String methodName, String desc, boolean isInterface) {
                        code = true;
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String indyName, String desc, org.objectweb.asm.Handle bsm, Object... args) {
                        code = true;
                    }

                    @Override
                    public void visitJumpInsn(int opcode, Label label) {
                        code = true;
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        code = true;
                    }

                    @Override
                    public void visitIincInsn(int varIndex, int increment) {
                        code = true;
                    }

                    @Override
                    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                        code = true;
                    }

                    @Override
                    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                        code = true;
                    }

                    @Override
                    public void visitMultiANewArrayInsn(String desc, int numDimensions) {
                        code = true;
                    }

                    @Override
                    public void visitParameter(String parameterName, int access) {
                        // javac writes one entry per parameter, synthetic ones included, in order.
                        if (parameter < fromAttribute.length) {
                            fromAttribute[parameter] = parameterName;
                        }
                        parameter++;
                    }

                    @Override
                    public void visitLocalVariable(String localName, String desc, String sig, Label start, Label end, int index) {
                        if (!atStart.contains(start)) {
                            return;
                        }
                        for (int i = 0; i < slots.length; i++) {
                            if (slots[i] == index && fromTable[i] == null) {
                                fromTable[i] = localName;
                            }
                        }
                    }

                    @Override
                    public void visitEnd() {
                        String[] best = new String[args.length];
                        boolean any = false;
                        // MethodParameters only counts when it has one entry per parameter: an
                        // inner class constructor's attribute may list fewer, and then the
                        // positions would not line up.
                        boolean attribute = parameter == args.length;
                        for (int i = 0; i < best.length; i++) {
                            best[i] = attribute && fromAttribute[i] != null ? fromAttribute[i] : fromTable[i];
                            any |= best[i] != null;
                        }
                        if (any) {
                            names.put(key, best);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_FRAMES);
        return names;
    }
}
