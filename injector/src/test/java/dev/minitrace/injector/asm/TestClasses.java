package dev.minitrace.injector.asm;

import dev.minitrace.injector.filter.MethodSelector;
import dev.minitrace.injector.runtime.EventKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.util.Printer;

/** Helpers for the injector's bytecode tests: class bytes, rewriting, loading and listing instructions. */
final class TestClasses {
    private TestClasses() {
    }

    /** The class file of a class on the test class path, by binary name. */
    static byte[] bytes(String className) {
        String resource = className.replace('.', '/') + ".class";
        try (InputStream in = TestClasses.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no class file for " + className);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A transformer tracing everything with all events. */
    static ClassTransformer allEvents() {
        return new ClassTransformer(new MethodSelector(List.of(), List.of()), EnumSet.allOf(EventKind.class));
    }

    /** The class node of class bytes. */
    static ClassNode node(byte[] bytes) {
        ClassNode node = new ClassNode();
        new ClassReader(bytes).accept(node, 0);
        return node;
    }

    /** The method {@code name} (first with that name) of a class node. */
    static MethodNode method(ClassNode node, String name) {
        for (MethodNode m : node.methods) {
            if (m.name.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no method " + name + " in " + node.name);
    }

    /** The instructions of a method as text, one per instruction, without labels, frames and line numbers. */
    static List<String> insns(MethodNode m) {
        List<String> out = new ArrayList<>();
        for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n.getOpcode() < 0) {
                continue;
            }
            String op = Printer.OPCODES[n.getOpcode()].toLowerCase(java.util.Locale.ROOT);
            if (n instanceof MethodInsnNode mi) {
                op += " " + mi.owner.substring(mi.owner.lastIndexOf('/') + 1) + "." + mi.name;
            } else if (n instanceof IntInsnNode ii) {
                op += " " + ii.operand;
            } else if (n instanceof VarInsnNode vi) {
                op += " " + vi.var;
            } else if (n instanceof TypeInsnNode ti) {
                op += " " + ti.desc;
            } else if (n instanceof FieldInsnNode fi) {
                op += " " + fi.name;
            } else if (n instanceof LdcInsnNode li) {
                op += " " + (li.cst instanceof Type t ? t.getInternalName() : li.cst);
            }
            out.add(op);
        }
        return out;
    }

    /** The method {@code name} of {@code className} passed through the counter and {@code adapter} only. */
    static MethodNode rewrite(String className, String name,
            java.util.function.BiFunction<org.objectweb.asm.MethodVisitor, Position, org.objectweb.asm.MethodVisitor> adapter) {
        byte[] bytes = bytes(className);
        BytecodeOffsets offsets = BytecodeOffsets.decode(bytes);
        MethodNode[] out = new MethodNode[1];
        new ClassReader(bytes).accept(new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
            @Override
            public org.objectweb.asm.MethodVisitor visitMethod(int access, String n, String desc, String sig, String[] ex) {
                if (!n.equals(name)) {
                    return null;
                }
                MethodNode m = new MethodNode(access, n, desc, sig, ex);
                out[0] = m;
                Position position = new Position();
                return new InstructionCounter(adapter.apply(m, position), offsets.of(n, desc), position);
            }
        }, 0);
        if (out[0] == null) {
            throw new IllegalArgumentException("no method " + name + " in " + className);
        }
        return out[0];
    }

    /**
     * A child-first loader for classes whose names start with {@code prefix}: it defines them from
     * the test class path, rewritten by {@code transformer} when it is not null. Everything else
     * (the runtime hooks included) comes from the parent.
     */
    static final class FixtureLoader extends ClassLoader {
        private final String prefix;
        private final ClassTransformer transformer;
        final Map<String, byte[]> rewritten = new ConcurrentHashMap<>();
        final Map<String, ClassTransformer.Result> results = new ConcurrentHashMap<>();
        private final Map<String, byte[]> extra;

        FixtureLoader(String prefix, ClassTransformer transformer) {
            this(prefix, transformer, Map.of());
        }

        FixtureLoader(String prefix, ClassTransformer transformer, Map<String, byte[]> extra) {
            super(TestClasses.class.getClassLoader());
            this.prefix = prefix;
            this.transformer = transformer;
            this.extra = extra;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (!name.startsWith(prefix)) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = extra.containsKey(name) ? extra.get(name) : bytes(name);
                    if (transformer != null) {
                        ClassTransformer.Result r = transformer.transform(b);
                        if (r != null) {
                            b = r.bytes();
                            rewritten.put(name, b);
                            results.put(name, r);
                        }
                    }
                    c = defineClass(name, b, 0, b.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            String cls = name.endsWith(".class") ? name.substring(0, name.length() - 6).replace('/', '.') : null;
            if (cls != null && extra.containsKey(cls)) {
                return new java.io.ByteArrayInputStream(extra.get(cls));
            }
            return super.getResourceAsStream(name);
        }
    }
}
