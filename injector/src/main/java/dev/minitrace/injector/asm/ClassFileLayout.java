package dev.minitrace.injector.asm;

/**
 * Where things are in a class file's bytes, for the few readers that must not go through ASM's
 * {@code ClassReader} (it rejects the bytes they work on, or does not keep what they need): the
 * offset of every constant pool entry, where the constant pool ends, and how to step over a field
 * or method.
 */
public final class ClassFileLayout {
    private final byte[] b;
    private final int[] utf8;
    /** The offset of each entry's tag byte (0 for index 0 and the second slot of a long or double). */
    private final int[] entries;
    private final int end;

    private ClassFileLayout(byte[] b, int[] utf8, int[] entries, int end) {
        this.b = b;
        this.utf8 = utf8;
        this.entries = entries;
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
        int[] entries = new int[count];
        int p = 10;
        for (int i = 1; i < count; i++) {
            entries[i] = p;
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
        return new ClassFileLayout(b, utf8, entries, p);
    }

    /** The tag of constant {@code index} (1 Utf8, 7 Class, 9 Fieldref, ...), or 0 when there is no such entry. */
    public int tag(int index) {
        return index > 0 && index < entries.length && entries[index] != 0 ? b[entries[index]] & 0xff : 0;
    }

    /**
     * The {@code n}-th (0 or 1) u2 index that constant {@code index} refers to: a Class's name, a
     * Fieldref's class and name-and-type, a NameAndType's name and descriptor.
     */
    public int reference(int index, int n) {
        return u2(b, entries[index] + 1 + 2 * n);
    }

    /** Whether Utf8 entries {@code i} and {@code j} hold the same text. */
    public boolean sameUtf8(int i, int j) {
        int a = utf8(i);
        int c = utf8(j);
        if (a == 0 || c == 0) {
            return false;
        }
        int length = u2(b, a);
        if (length != u2(b, c)) {
            return false;
        }
        for (int k = 2; k < 2 + length; k++) {
            if (b[a + k] != b[c + k]) {
                return false;
            }
        }
        return true;
    }

    /** The first byte of Utf8 entry {@code index}'s text, or -1 when it is empty or not a Utf8 entry. */
    public int firstByte(int index) {
        int at = utf8(index);
        return at == 0 || u2(b, at) == 0 ? -1 : b[at + 2] & 0xff;
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
