package dev.minitrace.injector.attach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.RecordComponentVisitor;
import org.objectweb.asm.TypePath;

/**
 * {@link RecordRepair} on the class file JDK 17 makes of {@code fixture.attach.Point} when it is
 * retransformed: the component {@code name}'s class-retention type annotation dropped, its
 * attribute count left at 1 (JDK-8315575). Made here from javac's class file: ASM drops the
 * invisible annotation (a valid class file, what the JDK should have written), then the count is
 * set back to 1.
 */
class RecordRepairTest {
    @Test
    void theMalformedCountIsMendedToExactlyTheValidClassFile() throws Exception {
        byte[] valid = withoutInvisibleComponentAnnotations(javacBytes("fixture/attach/Point.class"));
        byte[] malformed = withFirstComponentCount(valid, 1);
        assertThrows(IllegalArgumentException.class, () -> new ClassReader(malformed).accept(new ClassVisitor(Opcodes.ASM9) { }, 0),
                "the JDK 17 shape ASM cannot read");
        byte[] mended = RecordRepair.repaired(malformed);
        assertNotNull(mended);
        assertArrayEquals(valid, mended);
    }

    @Test
    void aValidOrForeignClassFileIsLeftAlone() throws Exception {
        byte[] javac = javacBytes("fixture/attach/Point.class");
        assertNull(RecordRepair.repaired(javac), "javac's record, invisible annotation and all");
        assertNull(RecordRepair.repaired(withoutInvisibleComponentAnnotations(javac)));
        assertNull(RecordRepair.repaired(javacBytes("fixture/attach/Early.class")), "no Record attribute");
        assertNull(RecordRepair.repaired(Arrays.copyOf(javac, javac.length / 2)), "truncated");
        assertNull(RecordRepair.repaired(new byte[] {1, 2, 3}));
    }

    private static byte[] javacBytes(String resource) throws Exception {
        try (InputStream in = RecordRepairTest.class.getClassLoader().getResourceAsStream(resource)) {
            return in.readAllBytes();
        }
    }

    private static byte[] withoutInvisibleComponentAnnotations(byte[] classFile) {
        ClassWriter w = new ClassWriter(0);
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public RecordComponentVisitor visitRecordComponent(String name, String descriptor, String signature) {
                return new RecordComponentVisitor(Opcodes.ASM9, super.visitRecordComponent(name, descriptor, signature)) {
                    @Override
                    public org.objectweb.asm.AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String desc,
                            boolean visible) {
                        return visible ? super.visitTypeAnnotation(typeRef, typePath, desc, visible) : null;
                    }
                };
            }
        }, 0);
        return w.toByteArray();
    }

    /** Sets the attribute count of the Record attribute's first component (found by the Utf8 "Record" and the component name "name"). */
    private static byte[] withFirstComponentCount(byte[] classFile, int count) {
        ClassReader r = new ClassReader(classFile);
        int record = -1;
        int name = -1;
        for (int i = 1; i < r.getItemCount(); i++) {
            int at = r.getItem(i);
            if (at > 0 && classFile[at - 1] == 1) {
                String s = readUtf8(classFile, at);
                record = "Record".equals(s) ? i : record;
                name = "name".equals(s) ? i : name;
            }
        }
        for (int p = 0; p + 14 < classFile.length; p++) {
            if (u2(classFile, p) == record && u2(classFile, p + 6) == 2 && u2(classFile, p + 8) == name) {
                byte[] out = classFile.clone();
                out[p + 12] = (byte) (count >>> 8);
                out[p + 13] = (byte) count;
                return out;
            }
        }
        throw new AssertionError("no Record attribute found");
    }

    private static String readUtf8(byte[] b, int at) {
        return new String(b, at + 2, u2(b, at), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int u2(byte[] b, int p) {
        return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }
}
