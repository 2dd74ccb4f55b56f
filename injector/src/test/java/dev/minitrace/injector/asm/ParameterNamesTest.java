package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Parameter names come from what the class file really has: MethodParameters, else the LocalVariableTable, else none. */
class ParameterNamesTest {
    private static final String DESCRIPTOR = "(Ljava/lang/String;JLjava/lang/String;)V";
    private static final String KEY = "login" + DESCRIPTOR;

    /** A class with {@code void login(String, long, String)}, an instance method, with the given name sources. */
    private static ClassReader compiled(boolean methodParameters, boolean localVariables) {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "t/Auth", null, "java/lang/Object", null);
        MethodVisitor mv = w.visitMethod(Opcodes.ACC_PUBLIC, "login", DESCRIPTOR, null, null);
        if (methodParameters) {
            mv.visitParameter("userA", 0);
            mv.visitParameter("stampA", 0);
            mv.visitParameter("passwordA", 0);
        }
        mv.visitCode();
        Label start = new Label();
        Label later = new Label();
        Label end = new Label();
        mv.visitLabel(start);
        mv.visitInsn(Opcodes.NOP);
        mv.visitLabel(later);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitLabel(end);
        if (localVariables) {
            mv.visitLocalVariable("this", "Lt/Auth;", null, start, end, 0);
            mv.visitLocalVariable("user", "Ljava/lang/String;", null, start, end, 1);
            mv.visitLocalVariable("stamp", "J", null, start, end, 2);
            mv.visitLocalVariable("password", "Ljava/lang/String;", null, start, end, 4);
            // A later local in a parameter's slot (not what javac does, but a rewriter may): not a name.
            mv.visitLocalVariable("other", "Ljava/lang/String;", null, later, end, 1);
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        w.visitEnd();
        return new ClassReader(w.toByteArray());
    }

    @Test
    void localVariableTableSlotsAccountForThisAndWideParameters() {
        assertArrayEquals(new String[] {"user", "stamp", "password"}, ParameterNames.read(compiled(false, true), Set.of(KEY)).get(KEY));
    }

    @Test
    void methodParametersComeFirst() {
        assertArrayEquals(new String[] {"userA", "stampA", "passwordA"}, ParameterNames.read(compiled(true, true), Set.of(KEY)).get(KEY));
    }

    @Test
    void withoutEitherNoNameIsKnown() {
        assertEquals(Map.of(), ParameterNames.read(compiled(false, false), Set.of(KEY)));
    }

    @Test
    void onlyTheAskedMethodsAreRead() {
        assertEquals(Map.of(), ParameterNames.read(compiled(true, true), Set.of("logout()V")));
    }
}
