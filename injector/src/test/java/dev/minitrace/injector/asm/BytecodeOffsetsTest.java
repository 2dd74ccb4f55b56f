package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/** The decoded instruction offsets agree with {@code javap -c}, an independent decoder. */
class BytecodeOffsetsTest {
    private static final Pattern INSTRUCTION = Pattern.compile("^\\s+(\\d+): [a-z]");

    /** Offsets per method with code, in class file order, as javap prints them. */
    static List<List<Integer>> javap(Path classFile) {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = javap.run(new PrintStream(out, true), System.err, "-c", "-p", classFile.toString());
        assertEquals(0, rc);
        List<List<Integer>> methods = new ArrayList<>();
        List<Integer> current = null;
        for (String line : out.toString().split("\n")) {
            if (line.trim().equals("Code:")) {
                current = new ArrayList<>();
                methods.add(current);
            } else if (current != null) {
                Matcher m = INSTRUCTION.matcher(line);
                if (m.find()) {
                    current.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        return methods;
    }

    static List<List<Integer>> decoded(byte[] bytes) {
        ClassNode node = TestClasses.node(bytes);
        BytecodeOffsets offsets = BytecodeOffsets.decode(bytes);
        List<List<Integer>> methods = new ArrayList<>();
        for (MethodNode m : node.methods) {
            int[] o = offsets.of(m.name, m.desc);
            if (o != null) {
                List<Integer> list = new ArrayList<>();
                for (int v : o) {
                    list.add(v);
                }
                methods.add(list);
                // One decoded offset per instruction ASM visits.
                int visited = 0;
                for (var n = m.instructions.getFirst(); n != null; n = n.getNext()) {
                    visited += n.getOpcode() >= 0 ? 1 : 0;
                }
                assertEquals(visited, o.length, m.name + m.desc);
            }
        }
        return methods;
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixture.verify.ControlFlow", "fixture.verify.Constructors", "fixture.verify.Functional",
        "fixture.verify.Small", "fixture.workload.Worker"})
    void agreesWithJavap(String className, @TempDir Path dir) throws Exception {
        byte[] bytes = TestClasses.bytes(className);
        Path file = dir.resolve("C.class");
        Files.write(file, bytes);
        List<List<Integer>> expected = javap(file);
        assertTrue(expected.size() > 1);
        assertEquals(expected, decoded(bytes));
    }

    @Test
    void wideInstructionsSwitchPaddingAndLongJumpsAgreeWithJavap(@TempDir Path dir) throws Exception {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/Wide", null, "java/lang/Object", null);
        for (int shift = 0; shift < 4; shift++) {
            MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m" + shift, "(I)I", null, null);
            mv.visitCode();
            for (int i = 0; i < shift; i++) {
                mv.visitInsn(Opcodes.NOP); // moves the switches' padding
            }
            mv.visitIincInsn(300, 1000); // wide iinc
            mv.visitVarInsn(Opcodes.ILOAD, 300); // wide iload
            mv.visitInsn(Opcodes.POP);
            Label a = new Label();
            Label b = new Label();
            Label end = new Label();
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            mv.visitTableSwitchInsn(1, 3, end, a, b, a);
            mv.visitLabel(a);
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            mv.visitLookupSwitchInsn(end, new int[] {-5, 70000}, new Label[] {b, end});
            mv.visitLabel(b);
            mv.visitLdcInsn(123456789L);
            mv.visitInsn(Opcodes.L2I);
            mv.visitInsn(Opcodes.IRETURN);
            mv.visitLabel(end);
            mv.visitMultiANewArrayInsn("[[I", 2);
            mv.visitInsn(Opcodes.POP);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        // A method large enough for ASM to emit goto_w.
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "far", "()V", null, null);
        mv.visitCode();
        Label top = new Label();
        mv.visitLabel(top);
        for (int i = 0; i < 12000; i++) {
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.POP);
            mv.visitInsn(Opcodes.NOP);
        }
        mv.visitJumpInsn(Opcodes.GOTO, top);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] bytes = cw.toByteArray();
        Path file = dir.resolve("Wide.class");
        Files.write(file, bytes);
        assertEquals(javap(file), decoded(bytes));
    }

    @Test
    void rejectsWhatIsNotAClassFile() {
        assertThrows(IllegalArgumentException.class, () -> BytecodeOffsets.decode(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
        assertThrows(IllegalArgumentException.class, () -> BytecodeOffsets.decode(new byte[] {(byte) 0xca, (byte) 0xfe}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BytecodeOffsets.instructionOffsets(new byte[] {0, (byte) 0xfe}, 0, 2));
        assertEquals("unknown opcode 254 at bytecode index 1", e.getMessage());
    }

    @Test
    void theOnlyReturnInstructionIsFoundAndSeveralOrNoneGiveMinusOne() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "t/Returns", null, "java/lang/Object", null);
        MethodVisitor empty = cw.visitMethod(Opcodes.ACC_STATIC, "empty", "()V", null, null);
        empty.visitCode();
        empty.visitInsn(Opcodes.RETURN); // at 0
        empty.visitMaxs(0, 0);
        empty.visitEnd();
        MethodVisitor one = cw.visitMethod(Opcodes.ACC_STATIC, "one", "(I)I", null, null);
        one.visitCode();
        one.visitVarInsn(Opcodes.ILOAD, 0);     // 0
        one.visitIntInsn(Opcodes.SIPUSH, 300); // 1
        one.visitInsn(Opcodes.IADD);            // 4
        one.visitInsn(Opcodes.IRETURN);         // 5
        one.visitMaxs(0, 0);
        one.visitEnd();
        MethodVisitor two = cw.visitMethod(Opcodes.ACC_STATIC, "two", "(I)I", null, null);
        two.visitCode();
        Label other = new Label();
        two.visitVarInsn(Opcodes.ILOAD, 0);
        two.visitJumpInsn(Opcodes.IFEQ, other);
        two.visitInsn(Opcodes.ICONST_1);
        two.visitInsn(Opcodes.IRETURN);
        two.visitLabel(other);
        two.visitInsn(Opcodes.ICONST_0);
        two.visitInsn(Opcodes.IRETURN);
        two.visitMaxs(0, 0);
        two.visitEnd();
        MethodVisitor none = cw.visitMethod(Opcodes.ACC_STATIC, "none", "()V", null, null);
        none.visitCode();
        none.visitInsn(Opcodes.ACONST_NULL);
        none.visitInsn(Opcodes.ATHROW);
        none.visitMaxs(0, 0);
        none.visitEnd();
        cw.visitEnd();
        BytecodeOffsets o = BytecodeOffsets.decode(cw.toByteArray());
        assertEquals(0, o.returnBci("empty", "()V"));
        assertEquals(5, o.returnBci("one", "(I)I"));
        assertEquals(-1, o.returnBci("two", "(I)I"));
        assertEquals(-1, o.returnBci("none", "()V"));
        assertEquals(-1, o.returnBci("missing", "()V"));
    }
}
