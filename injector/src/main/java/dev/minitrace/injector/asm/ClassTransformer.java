package dev.minitrace.injector.asm;

import dev.minitrace.injector.filter.MethodSelector;
import dev.minitrace.injector.runtime.EventKind;
import dev.minitrace.injector.runtime.MethodRegistry;
import dev.minitrace.injector.runtime.Redaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites one class file: selects the traced methods, reserves their ids, and passes each through
 * the chain {@link InstructionCounter} → {@link HandlerEntryAdapter} → {@link ThrowAdapter} →
 * {@link ReferenceStoreAdapter} → {@link SynchronizedMethodAdapter} → {@link MethodBoundaryAdapter} →
 * {@link MonitorAdapter} → {@link AllocationAdapter} → writer
 * (each present only when its events are instrumented). Untraced methods are copied unchanged.
 * Original stack map frames are kept and only the handlers' frames are added, so no class is ever
 * loaded or read to compute frames. Stateless apart from the configuration; thread-safe.
 *
 * <p>With {@code allocEverywhere} ({@code alloc-scope=all}) every other method that allocates gets
 * an id too and only its allocation sites rewritten, reported with that id
 * ({@link AllocationAdapter}); its entries and exits are not traced.
 */
public final class ClassTransformer {
    private final MethodSelector selector;
    /** The kinds whose sites are instrumented. */
    private final Set<EventKind> events;
    /** Methods whose calls are captured (never constructors or static initializers); null: none. */
    private final MethodSelector capture;
    /** What captures never write: its parameter rules are applied here, once per rewritten method. */
    private final Redaction redaction;
    /** Whether the allocation sites of untraced methods are rewritten too ({@code alloc-scope=all}). */
    private final boolean allocEverywhere;
    /** Whether traced methods that are leaves get one hook at their exit only ({@link LeafMethods}). */
    private final boolean leaves;

    /** Creates a transformer for the given selection and event kinds. */
    public ClassTransformer(MethodSelector selector, Set<EventKind> events) {
        this(selector, events, null);
    }

    /** Creates a transformer for the given selection, event kinds and captured methods ({@code capture} may be null). */
    public ClassTransformer(MethodSelector selector, Set<EventKind> events, MethodSelector capture) {
        this(selector, events, capture, Redaction.defaults());
    }

    /** As above, with the redaction rules of the captured methods' parameters. */
    public ClassTransformer(MethodSelector selector, Set<EventKind> events, MethodSelector capture, Redaction redaction) {
        this(selector, events, capture, redaction, false);
    }

    /**
     * As above; {@code selector} may be null (no method traced), and with {@code allocEverywhere}
     * the allocation sites of every untraced method are rewritten too.
     */
    public ClassTransformer(MethodSelector selector, Set<EventKind> events, MethodSelector capture, Redaction redaction,
            boolean allocEverywhere) {
        this.allocEverywhere = allocEverywhere && events.contains(EventKind.ALLOC);
        this.redaction = redaction;
        this.selector = selector;
        this.events = Set.copyOf(events);
        this.capture = capture;
        // A leaf's exceptions run the JDK's constructors between its entry and its exit: no leaves when those are traced.
        this.leaves = events.contains(EventKind.METHOD) && !LeafMethods.jdkThrowablesTraced(selector);
    }

    private boolean needsAnnotations() {
        return selector != null && selector.needsAnnotations() || (capture != null && capture.needsAnnotations());
    }

    /**
     * The outcome of a rewrite: the new bytes and the ids given to its traced methods, with each
     * one's only return instruction ({@link BytecodeOffsets#returnBci}, -1 when none).
     */
    public record Result(byte[] bytes, int[] ids, List<String[]> methods, List<Integer> access, int[] returnBcis) {
    }

    /** Where a rewrite gets the id of each traced method. */
    public interface MethodIds {
        /** The id of {@code className.name descriptor}; {@code className} uses dots. */
        int idFor(String className, String name, String descriptor);
    }

    /** Fresh ids, reserved in {@link MethodRegistry} one by one (for a class nobody rewrote before). */
    public static final MethodIds FRESH_IDS = new MethodIds() { // not a lambda: premain creates it (see Enablement.COMMIT_ALL)
        @Override
        public int idFor(String className, String name, String descriptor) {
            return MethodRegistry.reserve(1);
        }
    };

    /** {@link #transform(byte[], MethodIds)} with {@link #FRESH_IDS}. */
    public Result transform(byte[] classBytes) {
        return transform(classBytes, FRESH_IDS);
    }

    /**
     * Rewrites {@code classBytes}, or returns null when no method of it is traced. Ids come from
     * {@code ids} (reserved in {@link MethodRegistry}) but are not defined: the caller defines them
     * once it keeps the result.
     *
     * @throws RuntimeException (ASM's MethodTooLargeException among others) when the class cannot
     *     be rewritten; the caller leaves it unchanged
     */
    public Result transform(byte[] classBytes, MethodIds ids) {
        ClassReader reader = new ClassReader(classBytes);
        if ((reader.getAccess() & Opcodes.ACC_MODULE) != 0) {
            return null;
        }
        String internalName = reader.getClassName();
        String className = internalName.replace('/', '.');
        boolean maybeTraced = selector != null && selector.mayTraceClass(className);
        boolean maybeCaptured = capture != null && capture.mayTraceClass(className);
        if (!maybeTraced && !maybeCaptured && !allocEverywhere) {
            return null;
        }
        Plan plan = new Plan();
        reader.accept(plan, allocEverywhere ? ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG : ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        Map<String, Integer> localIndex = new HashMap<>();
        java.util.Set<String> boundaries = new java.util.HashSet<>();
        Map<String, boolean[]> captured = new HashMap<>();
        List<String[]> traced = new ArrayList<>();
        List<Integer> access = new ArrayList<>();
        for (int i = 0; i < plan.names.size(); i++) {
            int acc = plan.access.get(i);
            String name = plan.names.get(i);
            if ((acc & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || isOtherToolsMember(acc, name)) {
                continue;
            }
            String key = name + plan.descriptors.get(i);
            boolean isTraced = maybeTraced && selector.traces(className, plan.classAnnotations, name, plan.methodAnnotations.get(i));
            boolean isCaptured = maybeCaptured && name.charAt(0) != '<'
                    && capture.traces(className, plan.classAnnotations, name, plan.methodAnnotations.get(i));
            boolean sited = !isTraced && allocEverywhere && plan.allocates.get(i);
            if (!isTraced && !isCaptured && !sited) {
                continue;
            }
            if (isTraced) {
                boundaries.add(key);
            }
            if (isCaptured) {
                captured.put(key, null);
            }
            localIndex.put(key, traced.size());
            traced.add(new String[] {className, name, plan.descriptors.get(i)});
            access.add(acc);
        }
        if (traced.isEmpty()) {
            return null;
        }
        if (!captured.isEmpty() && redaction.hasParameterRules()) {
            redactParameters(reader, className, plan, captured);
        }
        BytecodeOffsets offsets = BytecodeOffsets.decode(classBytes);
        int[] methodIds = new int[traced.size()];
        int[] returnBcis = new int[traced.size()];
        for (int i = 0; i < methodIds.length; i++) {
            String[] m = traced.get(i);
            methodIds[i] = ids.idFor(m[0], m[1], m[2]);
            returnBcis[i] = offsets.returnBci(m[1], m[2]);
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new Rewriter(writer, localIndex, boundaries, captured, methodIds, offsets), 0);
        return new Result(writer.toByteArray(), methodIds, traced, access, returnBcis);
    }

    /**
     * A method another instrumentation tool added to the class, which a trace of the program
     * leaves out: JaCoCo's synthetic {@code $jacocoInit} (its documentation asks other tools to
     * ignore its {@code $jacoco} members). Its code still runs and is left as it is.
     */
    static boolean isOtherToolsMember(int access, String name) {
        return (access & Opcodes.ACC_SYNTHETIC) != 0 && name.startsWith("$jacoco");
    }

    /**
     * Decides, for each captured method, which parameters are never handed to the hooks. Names
     * come from the MethodParameters attribute ({@code javac -parameters}) or else from the
     * LocalVariableTable ({@code javac -g}); a class file with neither gives the name rules
     * nothing to match, and only position rules apply to it.
     */
    private void redactParameters(ClassReader reader, String className, Plan plan, Map<String, boolean[]> captured) {
        Map<String, String[]> names = redaction.hasNameRules() ? ParameterNames.read(reader, captured.keySet()) : Map.of();
        for (int i = 0; i < plan.names.size(); i++) {
            String key = plan.names.get(i) + plan.descriptors.get(i);
            if (captured.containsKey(key)) {
                int count = org.objectweb.asm.Type.getArgumentTypes(plan.descriptors.get(i)).length;
                captured.put(key, redaction.redactedParameters(className, plan.classAnnotations, plan.names.get(i),
                        plan.methodAnnotations.get(i), count, names.get(key)));
            }
        }
    }

    /** First pass: methods, their access flags and (when filters need them) annotations. */
    private final class Plan extends ClassVisitor {
        final List<String> names = new ArrayList<>();
        final List<String> descriptors = new ArrayList<>();
        final List<Integer> access = new ArrayList<>();
        final List<List<String>> methodAnnotations = new ArrayList<>();
        final List<String> classAnnotations = new ArrayList<>();
        /** Per method, whether its code has an allocation instruction (only looked for with allocEverywhere). */
        final List<Boolean> allocates = new ArrayList<>();

        Plan() {
            super(Opcodes.ASM9);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (needsAnnotations()) {
                classAnnotations.add(annotationName(descriptor));
            }
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int acc, String name, String descriptor, String signature, String[] exceptions) {
            names.add(name);
            descriptors.add(descriptor);
            access.add(acc);
            List<String> annotations = new ArrayList<>(0);
            methodAnnotations.add(annotations);
            int index = allocates.size();
            allocates.add(false);
            boolean annotated = needsAnnotations();
            if (!annotated && !allocEverywhere) {
                return null;
            }
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                    if (annotated) {
                        annotations.add(annotationName(desc));
                    }
                    return null;
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    if (opcode == Opcodes.NEW || opcode == Opcodes.ANEWARRAY) {
                        allocates.set(index, true);
                    }
                }

                @Override
                public void visitIntInsn(int opcode, int operand) {
                    if (opcode == Opcodes.NEWARRAY) {
                        allocates.set(index, true);
                    }
                }

                @Override
                public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
                    allocates.set(index, true);
                }

                @Override
                public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
                    if (AllocationAdapter.madeByCall(opcode, owner, name, descriptor) != AllocationAdapter.NOT_MADE) {
                        allocates.set(index, true);
                    }
                }

                @Override
                public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... bsmArgs) {
                    if (AllocationAdapter.madeByIndy(descriptor, bsm)) {
                        allocates.set(index, true);
                    }
                }
            };
        }
    }

    private static String annotationName(String descriptor) {
        return descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
    }

    /** Second pass: wraps each traced method's writer in the adapter chain. */
    private final class Rewriter extends ClassVisitor {
        private final Map<String, Integer> localIndex;
        private final java.util.Set<String> boundaries;
        private final Map<String, boolean[]> captured;
        private final int[] ids;
        private final BytecodeOffsets offsets;
        private String owner;
        private boolean frames;
        /** Version 51 and later: every jump target has a stack map frame (no fallback to type inference). */
        private boolean framesAtTargets;
        private boolean classLiterals;

        Rewriter(ClassVisitor next, Map<String, Integer> localIndex, java.util.Set<String> boundaries,
                Map<String, boolean[]> captured, int[] ids, BytecodeOffsets offsets) {
            super(Opcodes.ASM9, next);
            this.localIndex = localIndex;
            this.boundaries = boundaries;
            this.captured = captured;
            this.ids = ids;
            this.offsets = offsets;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            int major = version & 0xffff;
            frames = major >= Opcodes.V1_6;
            framesAtTargets = major >= Opcodes.V1_7;
            classLiterals = major >= Opcodes.V1_5;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            Integer index = localIndex.get(name + descriptor);
            if (index == null) {
                return mv;
            }
            int[] code = offsets.of(name, descriptor);
            if (code == null) {
                throw new IllegalStateException("no Code attribute for " + name + descriptor);
            }
            Position position = new Position();
            if (captured.containsKey(name + descriptor)) {
                // Innermost: the other adapters never see the capture code.
                mv = new CaptureAdapter(mv, ids[index], access, descriptor, frames, captured.get(name + descriptor));
            }
            if (!boundaries.contains(name + descriptor)) {
                if (allocEverywhere) {
                    mv = new AllocationAdapter(mv, position, ids[index], true);
                }
                return new InstructionCounter(mv, code, position);
            }
            if (events.contains(EventKind.ALLOC)) {
                mv = new AllocationAdapter(mv, position, -1, allocEverywhere);
            }
            if (events.contains(EventKind.LOCK)) {
                mv = new MonitorAdapter(mv, position, framesAtTargets, offsets.maxLocals(name, descriptor));
            }
            if (events.contains(EventKind.METHOD)) {
                boolean receiver = events.contains(EventKind.RECEIVER) && (access & Opcodes.ACC_STATIC) == 0;
                // A receiver record follows the entry, capture events surround the body: not leaves.
                boolean leaf = leaves && !receiver && !captured.containsKey(name + descriptor)
                        && LeafMethods.isLeaf(offsets.leafObstacles(name, descriptor), events);
                mv = new MethodBoundaryAdapter(mv, ids[index], name, frames, position, receiver, leaf);
            }
            boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
            if (events.contains(EventKind.LOCK) && (access & Opcodes.ACC_SYNCHRONIZED) != 0 && (!isStatic || classLiterals)) {
                mv = new SynchronizedMethodAdapter(mv, owner, isStatic, frames);
            }
            // Before the adapters that add handlers and athrows of their own: only the program's are reported.
            if (events.contains(EventKind.FIELD)) {
                mv = new ReferenceStoreAdapter(mv, name, position);
            }
            if (events.contains(EventKind.EXCEPTION)) {
                mv = new ThrowAdapter(mv, ids[index], position);
            }
            if (events.contains(EventKind.METHOD) || events.contains(EventKind.EXCEPTION)) {
                mv = new HandlerEntryAdapter(mv, events.contains(EventKind.METHOD), events.contains(EventKind.EXCEPTION),
                        ids[index], position);
            }
            return new InstructionCounter(mv, code, position);
        }
    }
}
