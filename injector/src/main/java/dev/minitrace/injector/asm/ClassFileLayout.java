package dev.minitrace.injector.asm;

/**
 * Where things are in a class file's bytes, for the few readers that must not go through ASM's
 * {@code ClassReader} (it rejects the bytes they work on, or does not keep what they need): the
 * offset of every {@code CONSTANT_Utf8} entry, where the constant pool ends, and how to step over
 * a field or method.
 */
public final class ClassFileLayout {
    private final byte[] b;
    private final int[] utf8;
    private final int end;

    private ClassFileLayout(byte[] b, int[] utf8, int end) {
        this.b = b;
        this.utf8 = utf8;
        this.end = end;
    }

    /**
     * Reads the constant pool of {@code b}.
     *
     * @throws IllegalArgumentException for bytes that are not a class file (bad magic, unknown tag)
     * @throws ArrayIndexOutOfBoundsException for a truncated one
     */
    public static ClassFileLayout of(byte[] b) {
        if (u4(b, 0) != 0xCAFEBABE) {
            throw new IllegalArgumentException("not a class file (bad magic)");
        }
        int count = u2(b, 8);
        int[] utf8 = new int[count];
        int p = 10;
        for (int i = 1; i < count; i++) {
            int tag = b[p] & 0xff;
            switch (tag) {
                case 1 -> {
                    utf8[i] = p + 1;
                    p += 3 + u2(b, p + 1);
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> p += 5;
                case 5, 6 -> {
                    p += 9;
                    i++;
                }
                case 7, 8, 16, 19, 20 -> p += 3;
                case 15 -> p += 4;
                default -> throw new IllegalArgumentException("unknown constant pool tag " + tag + " at offset " + p);
            }
        }
        return new ClassFileLayout(b, utf8, p);
    }

    /** The offset just after the constant pool (the access flags). */
    public int constantPoolEnd() {
        return end;
    }

    /** The offset of Utf8 entry {@code index}'s length, or 0 when that entry is not a Utf8 one. */
    public int utf8(int index) {
        return index > 0 && index < utf8.length ? utf8[index] : 0;
    }

    /** Whether constant {@code index} is the Utf8 entry {@code s} (ASCII). */
    public boolean isUtf8(int index, String s) {
        int at = utf8(index);
        if (at == 0 || u2(b, at) != s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (b[at + 2 + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The offset after the field or method that starts at {@code p}. */
    public int skipMember(int p) {
        int attributes = u2(b, p + 6);
        int a = p + 8;
        for (int j = 0; j < attributes; j++) {
            a += 6 + u4(b, a + 2);
        }
        return a;
    }

    /** The unsigned 16-bit value at {@code p}. */
    public static int u2(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }

    /** The 32-bit value at {@code p}. */
    public static int u4(byte[] b, int p) {
        return ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
    }
}
