package dev.minitrace.injector.runtime;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;

/**
 * The JVM's own shallow sizes of objects ({@link Instrumentation#getObjectSize}), for the
 * {@code minitrace.ClassDefinition} events: Elephant Tracks' allocation lines carry a size. A class's
 * instances all have one size, measured on the first recorded instance. An array's size depends on
 * its length, so an array class gets its layout instead, found by measuring probe arrays once:
 * size(length) = base + length × element size, rounded up to the object alignment. No
 * {@code sun.misc.Unsafe}: its layout queries warn on JDK 24 and later.
 */
final class ObjectSizes {
    private static volatile Instrumentation instrumentation;
    /** Measured once: object alignment, or 0 before. */
    private static int alignment;

    private ObjectSizes() {
    }

    /** The agent's instrumentation, which measures; before this every size is 0 (unknown). */
    static void use(Instrumentation inst) {
        instrumentation = inst;
    }

    /** The shallow size of {@code o} in bytes, or 0 when it cannot be measured. */
    static int of(Object o) {
        Instrumentation inst = instrumentation;
        if (inst == null) {
            return 0;
        }
        try {
            long size = inst.getObjectSize(o);
            return size > 0 && size <= Integer.MAX_VALUE ? (int) size : 0;
        } catch (Throwable t) {
            return 0;
        }
    }

    /** The object alignment in bytes (every size is a multiple of it), or 0 when it cannot be measured. */
    static synchronized int alignment() {
        if (alignment == 0 && instrumentation != null) {
            // a byte array's size steps by the alignment as its length grows by one byte at a time
            int first = of(new byte[0]);
            for (int n = 1; n <= 4096 && first > 0; n++) {
                int size = of(new byte[n]);
                if (size != first) {
                    alignment = size - first;
                    break;
                }
            }
        }
        return alignment;
    }

    /**
     * The layout of array class {@code type}: {@code {base, element size}}, or zeros when it cannot
     * be measured. With element size s and size(0) = S0, the first length n whose size exceeds
     * S0 gives base = S0 − (n − 1)·s: elements are aligned to their size and S0 is a multiple of
     * the alignment, so only that base fits every length.
     */
    static int[] arrayLayout(Class<?> type) {
        int align = alignment();
        Class<?> component = type.getComponentType();
        if (align <= 0 || component == null) {
            return new int[2];
        }
        int scale = elementSize(component);
        int empty = of(Array.newInstance(component, 0));
        for (int n = 1; n <= 4096 && scale > 0 && empty > 0; n++) {
            int size = of(Array.newInstance(component, n));
            if (size != empty) {
                return new int[] {empty - (n - 1) * scale, scale};
            }
        }
        return new int[2];
    }

    /** Bytes per element of an array of {@code component}; a reference's size is measured (4 with compressed oops). */
    private static int elementSize(Class<?> component) {
        if (component == boolean.class || component == byte.class) {
            return 1;
        }
        if (component == char.class || component == short.class) {
            return 2;
        }
        if (component == int.class || component == float.class) {
            return 4;
        }
        if (component == long.class || component == double.class) {
            return 8;
        }
        int span = 1024;
        int diff = of(new Object[span]) - of(new Object[0]);
        return diff <= 0 ? 0 : (diff + span / 2) / span;
    }
}
