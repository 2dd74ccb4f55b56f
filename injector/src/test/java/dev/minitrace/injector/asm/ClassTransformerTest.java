package dev.minitrace.injector.asm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.injector.AgentOptions;
import dev.minitrace.injector.runtime.MethodRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class ClassTransformerTest {

    private static ClassTransformer transformer(String options) {
        AgentOptions o = AgentOptions.parse(options);
        return new ClassTransformer(o.selector(), o.events());
    }

    private static List<String> traced(ClassTransformer.Result r) {
        return r.methods().stream().map(m -> m[1]).toList();
    }

    @Test
    void annotationFiltersReadClassRetentionAnnotationsFromTheBytes() {
        ClassTransformer t = transformer("include=@fixture.verify.Traced");
        assertEquals(List.of("marked"), traced(t.transform(TestClasses.bytes("fixture.verify.Annotated"))));
        assertEquals(List.of("<init>", "a"), traced(t.transform(TestClasses.bytes("fixture.verify.Annotated$Whole"))));
        assertNull(t.transform(TestClasses.bytes("fixture.verify.Small")), "nothing annotated: untouched");
    }

    @Test
    void methodFiltersAndExcludesSelectMethods() {
        ClassTransformer t = transformer("include=fixture.verify.Small::*c*,exclude=::catches");
        assertEquals(List.of("syncMethod", "syncStatic", "block", "alloc"), traced(t.transform(TestClasses.bytes("fixture.verify.Small"))));
    }

    @Test
    void eventsChooseTheAdapters() {
        byte[] small = TestClasses.bytes("fixture.verify.Small");
        List<String> lockOnly = TestClasses.insns(TestClasses.method(TestClasses.node(transformer("events=lock").transform(small).bytes()), "alloc"));
        assertEquals(TestClasses.insns(TestClasses.method(TestClasses.node(small), "alloc")), lockOnly, "no lock in alloc(): unchanged");
        List<String> allocOnly = TestClasses.insns(TestClasses.method(TestClasses.node(transformer("events=alloc").transform(small).bytes()), "block"));
        assertEquals(TestClasses.insns(TestClasses.method(TestClasses.node(small), "block")), allocOnly, "no allocation in block(): unchanged");
    }

    @Test
    void freshIdsAreNewForEveryRewriteAndDistinct() {
        ClassTransformer.Result a = transformer(null).transform(TestClasses.bytes("fixture.verify.Small"));
        ClassTransformer.Result b = transformer(null).transform(TestClasses.bytes("fixture.verify.Small"));
        java.util.Set<Integer> all = new java.util.HashSet<>();
        for (int id : a.ids()) {
            all.add(id);
        }
        for (int id : b.ids()) {
            all.add(id);
        }
        assertEquals(a.ids().length + b.ids().length, all.size());
    }

    @Test
    void aClassRewrittenAgainKeepsItsMethodsIds() {
        ClassLoader loader = new ClassLoader(null) {
        };
        ClassTransformer.MethodIds ids = (cls, name, desc) -> MethodRegistry.idFor(loader, cls, name, desc);
        byte[] small = TestClasses.bytes("fixture.verify.Small");
        // First only block() is selected, then (a recording's filter changed) every method.
        ClassTransformer.Result first = transformer("include=fixture.verify.Small::block").transform(small, ids);
        ClassTransformer.Result again = transformer(null).transform(small, ids);
        java.util.Map<String, Integer> before = new java.util.HashMap<>();
        for (int i = 0; i < first.ids().length; i++) {
            before.put(first.methods().get(i)[1] + first.methods().get(i)[2], first.ids()[i]);
        }
        for (int i = 0; i < again.ids().length; i++) {
            String key = again.methods().get(i)[1] + again.methods().get(i)[2];
            if (before.containsKey(key)) {
                assertEquals(before.get(key), again.ids()[i], key);
            }
        }
        assertEquals(1, before.size(), before::toString);
        assertTrue(again.ids().length > 1, "more methods the second time");
        java.util.Set<Integer> distinct = new java.util.HashSet<>();
        for (int id : again.ids()) {
            distinct.add(id);
        }
        assertEquals(again.ids().length, distinct.size(), "one id per method");
        ClassLoader other = new ClassLoader(null) {
        };
        ClassTransformer.Result elsewhere = transformer(null).transform(small,
                (cls, name, desc) -> MethodRegistry.idFor(other, cls, name, desc));
        for (int id : elsewhere.ids()) {
            assertFalse(before.containsValue(id), "the same class of another loader has its own ids");
        }
    }

    @Test
    void aMethodThatGrowsTooLargeFailsTheWholeClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "gen/Big", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "big", "()V", null, null);
        mv.visitCode();
        for (int i = 0; i < 14000; i++) {
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
            mv.visitInsn(Opcodes.POP);
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] big = cw.toByteArray();
        assertThrows(MethodTooLargeException.class, () -> transformer(null).transform(big));
        assertEquals(1, traced(transformer("events=method").transform(big)).size(), "without alloc events it fits");
    }
}
