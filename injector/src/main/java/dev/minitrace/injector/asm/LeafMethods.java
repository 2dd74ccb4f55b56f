package dev.minitrace.injector.asm;

import dev.minitrace.injector.runtime.EventKind;
import java.util.Set;

/**
 * Which traced methods are leaves: methods in which nothing can be recorded between their entry
 * and their exit, so that both are written as one record by one hook at the exit
 * ({@code Trace.leaf}, {@code Trace.leafByException}) and the entry hook is left out. Decided from
 * the original bytecode alone, at rewrite time.
 *
 * <p>A leaf's code has no instruction that runs other code on the thread: no call of any kind, no
 * {@code new}, no monitor, no exception handler (a handler's catch type is resolved when it is
 * searched); and no instruction that can resolve a class other than the method's own, since a
 * first resolution can load the class (a class loader's Java code) and {@code getstatic},
 * {@code putstatic} initialize the field's class (its {@code <clinit>}): fields are reached only
 * through the own class, static ones only when declared in it (a static field inherited from an
 * interface initializes that interface), {@code checkcast}, {@code instanceof} and class constants
 * only name the own class. No backward branch either: a leaf runs straight through in a few
 * nanoseconds, so giving its entry the time of its exit changes nothing a reader sees. The
 * instructions that the instrumented event kinds would record (an array allocation, a reference
 * store, an {@code athrow}) keep a method out only when their kind is instrumented.
 *
 * <p>What a leaf may still do on the thread between its entry and its exit is throw an exception
 * the JVM makes ({@code NullPointerException}, {@code ArrayIndexOutOfBoundsException},
 * {@code ArithmeticException}, {@code ClassCastException}, {@code ArrayStoreException},
 * {@code NegativeArraySizeException}): their constructors run, and they allocate nothing, so they
 * record nothing unless their own methods are traced; the transformer then makes no leaves at all
 * ({@link #jdkThrowablesTraced}).
 */
final class LeafMethods {
    /** An instruction that never lets the method be a leaf. */
    static final int NEVER = 1;
    /** A {@code newarray}: recorded when allocations are instrumented. */
    static final int ALLOCATES = 2;
    /** An {@code aastore} or a store of a reference field: recorded when reference stores are instrumented. */
    static final int STORES_REFERENCE = 4;
    /** An {@code athrow}: recorded when exceptions are instrumented. */
    static final int THROWS = 8;

    /** The JDK classes whose constructors and methods run when the JVM throws in a leaf. */
    private static final String[] JVM_THROWABLES = {"java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException",
        "java.lang.NullPointerException", "java.lang.IndexOutOfBoundsException", "java.lang.ArrayIndexOutOfBoundsException",
        "java.lang.ArithmeticException", "java.lang.ClassCastException", "java.lang.ArrayStoreException",
        "java.lang.NegativeArraySizeException", "java.lang.Error", "java.lang.LinkageError", "java.lang.NoClassDefFoundError",
        "java.lang.ExceptionInInitializerError", "java.lang.VirtualMachineError", "java.lang.StackOverflowError",
        "java.lang.OutOfMemoryError"};

    private LeafMethods() {
    }

    /**
     * Whether a traced method whose code has {@code obstacles} (from {@link #scan}) is a leaf
     * with the instrumented {@code events}.
     */
    static boolean isLeaf(int obstacles, Set<EventKind> events) {
        return (obstacles & NEVER) == 0
                && ((obstacles & ALLOCATES) == 0 || !events.contains(EventKind.ALLOC))
                && ((obstacles & STORES_REFERENCE) == 0 || !events.contains(EventKind.FIELD))
                && ((obstacles & THROWS) == 0 || !events.contains(EventKind.EXCEPTION));
    }

    /** Whether the JDK part of a selection may trace the classes the JVM constructs for its own exceptions. */
    static boolean jdkThrowablesTraced(dev.minitrace.injector.filter.MethodSelector selector) {
        dev.minitrace.injector.filter.MethodSelector jdk = selector == null ? null : selector.forJdk();
        if (jdk == null) {
            return false;
        }
        for (String name : JVM_THROWABLES) {
            if (jdk.mayTraceClass(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The obstacles to being a leaf in one method's code.
     *
     * @param b the class file
     * @param cp its constant pool
     * @param thisClass the constant index of the class itself
     * @param staticFields the class's own static fields, as pairs of name and descriptor indexes
     * @param access the method's access flags
     * @param constructor whether the method is a constructor ({@code <init>} always calls another)
     * @param code where the code's bytes start in {@code b}
     * @param offsets the instructions' offsets in the code
     * @param handlers the length of the exception table
     */
    static int scan(byte[] b, ClassFileLayout cp, int thisClass, int[] staticFields, int access, boolean constructor, int code,
            int[] offsets, int handlers) {
        if (constructor || handlers > 0 || (access & 0x0020) != 0) { // ACC_SYNCHRONIZED: a monitor around the body
            return NEVER;
        }
        int obstacles = 0;
        for (int pc : offsets) {
            int at = code + pc;
            int op = b[at] & 0xff;
            switch (op) {
                case 0x12 -> obstacles |= constant(cp, thisClass, b[at + 1] & 0xff); // ldc
                case 0x13, 0x14 -> obstacles |= constant(cp, thisClass, ClassFileLayout.u2(b, at + 1)); // ldc_w, ldc2_w
                case 0x53 -> obstacles |= STORES_REFERENCE; // aastore
                case 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xc6, 0xc7 ->
                    obstacles |= (short) ClassFileLayout.u2(b, at + 1) <= 0 ? NEVER : 0; // a branch back: a loop
                case 0xc8 -> obstacles |= ClassFileLayout.u4(b, at + 1) <= 0 ? NEVER : 0; // goto_w
                case 0xaa, 0xab -> obstacles |= switchBack(b, code, pc) ? NEVER : 0;
                case 0xb2, 0xb3 -> obstacles |= staticField(cp, thisClass, staticFields, ClassFileLayout.u2(b, at + 1), op == 0xb3);
                case 0xb4, 0xb5 -> obstacles |= field(cp, thisClass, ClassFileLayout.u2(b, at + 1), op == 0xb5);
                case 0xbc -> obstacles |= ALLOCATES; // newarray of a primitive type: no class to resolve
                case 0xbf -> obstacles |= THROWS;
                case 0xc0, 0xc1 -> obstacles |= ownClass(cp, thisClass, ClassFileLayout.u2(b, at + 1)) ? 0 : NEVER;
                case 0xc4 -> obstacles |= (b[at + 1] & 0xff) == 0xa9 ? NEVER : 0; // wide ret
                default -> {
                    // invoke*, new, anewarray, multianewarray, monitors, jsr, ret and the rest above
                    // the plain instructions
                    if (op >= 0xa8 && op <= 0xa9 || op >= 0xb6 && op <= 0xbb || op == 0xbd || op >= 0xc2 && op != 0xc4) {
                        obstacles |= NEVER;
                    }
                }
            }
            if ((obstacles & NEVER) != 0) {
                return obstacles;
            }
        }
        return obstacles;
    }

    /** A loaded constant: numbers and strings resolve no class; a class constant only the own one. */
    private static int constant(ClassFileLayout cp, int thisClass, int index) {
        int tag = cp.tag(index);
        return tag >= 3 && tag <= 6 || tag == 8 || tag == 7 && ownClass(cp, thisClass, index) ? 0 : NEVER;
    }

    private static boolean ownClass(ClassFileLayout cp, int thisClass, int classIndex) {
        return classIndex == thisClass
                || cp.tag(classIndex) == 7 && cp.sameUtf8(cp.reference(classIndex, 0), cp.reference(thisClass, 0));
    }

    /** {@code getfield}, {@code putfield}: only through the own class (a superclass's field is resolved from a loaded class). */
    private static int field(ClassFileLayout cp, int thisClass, int fieldref, boolean store) {
        if (cp.tag(fieldref) != 9 || !ownClass(cp, thisClass, cp.reference(fieldref, 0))) {
            return NEVER;
        }
        return store && reference(cp, fieldref) ? STORES_REFERENCE : 0;
    }

    /** {@code getstatic}, {@code putstatic}: only of a static field the class declares itself. */
    private static int staticField(ClassFileLayout cp, int thisClass, int[] staticFields, int fieldref, boolean store) {
        if (cp.tag(fieldref) != 9 || !ownClass(cp, thisClass, cp.reference(fieldref, 0))) {
            return NEVER;
        }
        int nameAndType = cp.reference(fieldref, 1);
        int name = cp.reference(nameAndType, 0);
        int descriptor = cp.reference(nameAndType, 1);
        for (int i = 0; i < staticFields.length; i += 2) {
            if (cp.sameUtf8(staticFields[i], name) && cp.sameUtf8(staticFields[i + 1], descriptor)) {
                return store && reference(cp, fieldref) ? STORES_REFERENCE : 0;
            }
        }
        return NEVER;
    }

    private static boolean reference(ClassFileLayout cp, int fieldref) {
        int first = cp.firstByte(cp.reference(cp.reference(fieldref, 1), 1));
        return first == 'L' || first == '[';
    }

    /** Whether a {@code tableswitch} or {@code lookupswitch} at {@code pc} has a target at or before itself. */
    private static boolean switchBack(byte[] b, int code, int pc) {
        int p = code + ((pc + 4) & ~3);
        if (ClassFileLayout.u4(b, p) <= 0) {
            return true; // default
        }
        if ((b[code + pc] & 0xff) == 0xaa) {
            int count = ClassFileLayout.u4(b, p + 8) - ClassFileLayout.u4(b, p + 4) + 1;
            for (int i = 0; i < count; i++) {
                if (ClassFileLayout.u4(b, p + 12 + 4 * i) <= 0) {
                    return true;
                }
            }
            return false;
        }
        int pairs = ClassFileLayout.u4(b, p + 4);
        for (int i = 0; i < pairs; i++) {
            if (ClassFileLayout.u4(b, p + 12 + 8 * i) <= 0) {
                return true;
            }
        }
        return false;
    }
}
