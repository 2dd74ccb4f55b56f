package dev.minitrace.injector.attach;

import static dev.minitrace.injector.asm.ClassFileLayout.u2;
import static dev.minitrace.injector.asm.ClassFileLayout.u4;

import dev.minitrace.injector.asm.ClassFileLayout;

/**
 * Mends the class file a JVM hands to a transformer when it retransforms a record whose components
 * carry annotations it does not keep (any {@code CLASS}-retention annotation, such as a
 * {@code TYPE_USE} {@code @Nullable}): JDK 17's reconstitution of the {@code Record} attribute writes
 * each component's original attribute count but only the attributes it kept (JDK-8315575, fixed
 * in later JDKs), so the class file is malformed — ASM cannot read it, and the JVM itself refuses
 * it with a {@code ClassFormatError} when a transformer hands it back unchanged, or when it
 * restores the class from these bytes after a transformer changed it.
 *
 * <p>The attribute's length is right, and the attributes the reconstitution writes for a component
 * are only {@code Signature} and the two visible annotation attributes; the repair counts a
 * component's attributes by walking them until the next bytes are no longer one of those, and
 * accepts the result only if the components then fill the attribute exactly. Everything else is
 * the JVM's own bytes of the loaded class, so the repaired class is the one that runs (not a class
 * file found elsewhere, which a loader that generates or enhances classes may have changed).
 */
public final class RecordRepair {
    private RecordRepair() {
    }

    /**
     * The class file with its {@code Record} attribute's component counts mended, or null when it
     * needs no repair or cannot be read as a class file (the caller then keeps the JVM's bytes).
     */
    public static byte[] repaired(byte[] b) {
        try {
            return repair(b);
        } catch (RuntimeException e) {
            return null; // truncated or not a class file: nothing this repair knows about
        }
    }

    private static byte[] repair(byte[] b) {
        ClassFileLayout layout = ClassFileLayout.of(b);
        int p = layout.constantPoolEnd() + 6; // access, this, super
        p += 2 + 2 * u2(b, p);
        for (int members = 0; members < 2; members++) { // fields, methods
            int n = u2(b, p);
            p += 2;
            for (int i = 0; i < n; i++) {
                p = layout.skipMember(p);
            }
        }
        int attributes = u2(b, p);
        p += 2;
        for (int a = 0; a < attributes; a++) {
            int length = u4(b, p + 2);
            if (layout.isUtf8(u2(b, p), "Record")) {
                return mend(b, layout, p + 6, p + 6 + length);
            }
            p += 6 + length;
        }
        return null;
    }

    /** Repairs the Record attribute whose contents run from {@code start} to {@code end}. */
    private static byte[] mend(byte[] b, ClassFileLayout layout, int start, int end) {
        byte[] out = null;
        int components = u2(b, start);
        int p = start + 2;
        for (int c = 0; c < components; c++) {
            int countAt = p + 4;
            int written = u2(b, countAt);
            p += 6;
            int found = 0;
            while (found < written && p + 6 <= end && isComponentAttribute(layout, u2(b, p))) {
                p += 6 + u4(b, p + 2);
                found++;
            }
            if (found != written) {
                if (out == null) {
                    out = b.clone();
                }
                out[countAt] = (byte) (found >>> 8);
                out[countAt + 1] = (byte) found;
            }
        }
        return p == end ? out : null; // anything else is a malformation this repair does not know
    }

    private static boolean isComponentAttribute(ClassFileLayout layout, int index) {
        return layout.isUtf8(index, "Signature") || layout.isUtf8(index, "RuntimeVisibleAnnotations")
                || layout.isUtf8(index, "RuntimeVisibleTypeAnnotations");
    }
}
