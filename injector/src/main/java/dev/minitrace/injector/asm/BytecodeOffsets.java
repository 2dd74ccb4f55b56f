package dev.minitrace.injector.asm;

import java.util.HashMap;
import java.util.Map;

/**
 * The original bytecode index of every instruction of every method, decoded from the Code
 * attributes of the class file (ASM does not expose instruction offsets). The n-th instruction a
 * {@link org.objectweb.asm.ClassReader} visits in a method is the n-th entry of its array. The same
 * walk over the instructions finds what keeps each method from being a leaf ({@link LeafMethods}).
 */
public final class BytecodeOffsets {
    private final Map<String, int[]> byMethod;
    private final Map<String, Integer> maxLocals;
    private final Map<String, Integer> leafObstacles;
    private final Map<String, Integer> returnBcis;

    private BytecodeOffsets(Map<String, int[]> byMethod, Map<String, Integer> maxLocals, Map<String, Integer> leafObstacles,
            Map<String, Integer> returnBcis) {
        this.byMethod = byMethod;
        this.maxLocals = maxLocals;
        this.leafObstacles = leafObstacles;
        this.returnBcis = returnBcis;
    }

    /**
     * The bytecode index of the method's only return instruction ({@code ireturn} … {@code return}),
     * or -1 when it has none, several, or no code: its exits by that instruction need not carry
     * the index ({@code docs/trace-buffer.md}, {@code DEFINED_EXIT}).
     */
    public int returnBci(String name, String descriptor) {
        Integer n = returnBcis.get(name + descriptor);
        return n == null ? -1 : n;
    }

    /** What in the method's code keeps it from being a leaf ({@link LeafMethods#scan}); {@link LeafMethods#NEVER} when it has no code. */
    int leafObstacles(String name, String descriptor) {
        Integer n = leafObstacles.get(name + descriptor);
        return n == null ? LeafMethods.NEVER : n;
    }

    /** Offsets of the method {@code name + descriptor}, or null when it has no code. */
    public int[] of(String name, String descriptor) {
        return byMethod.get(name + descriptor);
    }

    /**
     * The {@code max_locals} of the method's Code attribute: the first local index the original
     * code never uses, where an adapter may keep a value of its own. -1 when it has no code.
     */
    public int maxLocals(String name, String descriptor) {
        Integer n = maxLocals.get(name + descriptor);
        return n == null ? -1 : n;
    }

    /**
     * Decodes a class file.
     *
     * @throws IllegalArgumentException when the class file is malformed (names the offset)
     */
    public static BytecodeOffsets decode(byte[] b) {
        try {
            Decoder decoder = new Decoder(b);
            return new BytecodeOffsets(decoder.run(), decoder.maxLocals, decoder.leafObstacles, decoder.returnBcis);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("truncated class file (" + b.length + " bytes)", e);
        }
    }

    /** Lengths of the fixed-size instructions; 0 for tableswitch, lookupswitch, wide and unused opcodes. */
    private static final byte[] LENGTH = new byte[256];

    static {
        for (int op = 0; op <= 0xc9; op++) {
            LENGTH[op] = 1;
        }
        LENGTH[0x10] = 2; // bipush
        LENGTH[0x11] = 3; // sipush
        LENGTH[0x12] = 2; // ldc
        LENGTH[0x13] = 3; // ldc_w
        LENGTH[0x14] = 3; // ldc2_w
        for (int op = 0x15; op <= 0x19; op++) {
            LENGTH[op] = 2; // xload index
        }
        for (int op = 0x36; op <= 0x3a; op++) {
            LENGTH[op] = 2; // xstore index
        }
        LENGTH[0x84] = 3; // iinc
        for (int op = 0x99; op <= 0xa8; op++) {
            LENGTH[op] = 3; // if*, goto, jsr
        }
        LENGTH[0xa9] = 2; // ret
        LENGTH[0xaa] = 0; // tableswitch
        LENGTH[0xab] = 0; // lookupswitch
        for (int op = 0xb2; op <= 0xb8; op++) {
            LENGTH[op] = 3; // field access, invokevirtual/special/static
        }
        LENGTH[0xb9] = 5; // invokeinterface
        LENGTH[0xba] = 5; // invokedynamic
        LENGTH[0xbb] = 3; // new
        LENGTH[0xbc] = 2; // newarray
        LENGTH[0xbd] = 3; // anewarray
        LENGTH[0xc0] = 3; // checkcast
        LENGTH[0xc1] = 3; // instanceof
        LENGTH[0xc4] = 0; // wide
        LENGTH[0xc5] = 4; // multianewarray
        LENGTH[0xc6] = 3; // ifnull
        LENGTH[0xc7] = 3; // ifnonnull
        LENGTH[0xc8] = 5; // goto_w
        LENGTH[0xc9] = 5; // jsr_w
    }

    /** The offset of the only return instruction among the instructions at {@code offsets} of {@code code[start…]}, or -1. */
    static int onlyReturn(byte[] code, int start, int[] offsets) {
        int found = -1;
        for (int pc : offsets) {
            int op = code[start + pc] & 0xff;
            if (op >= 0xac && op <= 0xb1) { // ireturn … return
                if (found >= 0) {
                    return -1;
                }
                found = pc;
            }
        }
        return found;
    }

    /**
     * The offsets of the instructions in {@code code[start, start + length)}.
     *
     * @throws IllegalArgumentException on an unknown opcode (names it and its offset)
     */
    static int[] instructionOffsets(byte[] code, int start, int length) {
        int[] offsets = new int[Math.max(16, length / 2)];
        int n = 0;
        int pc = 0;
        while (pc < length) {
            if (n == offsets.length) {
                offsets = java.util.Arrays.copyOf(offsets, n * 2);
            }
            offsets[n++] = pc;
            int op = code[start + pc] & 0xff;
            int len = LENGTH[op];
            if (len == 0) {
                switch (op) {
                    case 0xaa -> {
                        int p = (pc + 4) & ~3;
                        int low = readInt(code, start + p + 4);
                        int high = readInt(code, start + p + 8);
                        len = p - pc + 12 + 4 * (high - low + 1);
                    }
                    case 0xab -> {
                        int p = (pc + 4) & ~3;
                        int pairs = readInt(code, start + p + 4);
                        len = p - pc + 8 + 8 * pairs;
                    }
                    case 0xc4 -> len = (code[start + pc + 1] & 0xff) == 0x84 ? 6 : 4;
                    default -> throw new IllegalArgumentException("unknown opcode " + op + " at bytecode index " + pc);
                }
            }
            pc += len;
        }
        return java.util.Arrays.copyOf(offsets, n);
    }

    private static int readInt(byte[] b, int i) {
        return ((b[i] & 0xff) << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
    }

    /** A minimal class file walker: constant pool, fields, methods and their Code attributes. */
    private static final class Decoder {
        private final byte[] b;
        private ClassFileLayout layout;
        final Map<String, Integer> maxLocals = new HashMap<>();
        final Map<String, Integer> leafObstacles = new HashMap<>();
        final Map<String, Integer> returnBcis = new HashMap<>();

        Decoder(byte[] b) {
            this.b = b;
        }

        private int u2(int i) {
            return ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }

        private int u4(int i) {
            return readInt(b, i);
        }

        private String utf8(int index) {
            int off = layout.utf8(index);
            int len = u2(off);
            return modifiedUtf8(off + 2, len);
        }

        private String modifiedUtf8(int off, int len) {
            char[] chars = new char[len];
            int n = 0;
            int end = off + len;
            int i = off;
            while (i < end) {
                int c = b[i++] & 0xff;
                if (c < 0x80) {
                    chars[n++] = (char) c;
                } else if ((c & 0xe0) == 0xc0) {
                    chars[n++] = (char) (((c & 0x1f) << 6) | (b[i++] & 0x3f));
                } else {
                    chars[n++] = (char) (((c & 0x0f) << 12) | ((b[i++] & 0x3f) << 6) | (b[i++] & 0x3f));
                }
            }
            return new String(chars, 0, n);
        }

        Map<String, int[]> run() {
            layout = ClassFileLayout.of(b);
            int p = layout.constantPoolEnd();
            int thisClass = u2(p + 2);
            p += 6; // access, this, super
            p += 2 + 2 * u2(p); // interfaces
            int fields = u2(p);
            p += 2;
            int[] statics = new int[2 * fields]; // name and descriptor of each static field
            int staticCount = 0;
            for (int i = 0; i < fields; i++) {
                if ((u2(p) & 0x0008) != 0) {
                    statics[staticCount++] = u2(p + 2);
                    statics[staticCount++] = u2(p + 4);
                }
                p = layout.skipMember(p);
            }
            statics = java.util.Arrays.copyOf(statics, staticCount);
            int methods = u2(p);
            p += 2;
            Map<String, int[]> result = new HashMap<>();
            for (int i = 0; i < methods; i++) {
                int access = u2(p);
                boolean constructor = layout.isUtf8(u2(p + 2), "<init>");
                String key = utf8(u2(p + 2)) + utf8(u2(p + 4));
                int attributes = u2(p + 6);
                int a = p + 8;
                for (int j = 0; j < attributes; j++) {
                    int length = u4(a + 2);
                    if ("Code".equals(utf8(u2(a)))) {
                        int codeLength = u4(a + 10);
                        maxLocals.put(key, u2(a + 8));
                        int[] offsets = instructionOffsets(b, a + 14, codeLength);
                        result.put(key, offsets);
                        returnBcis.put(key, onlyReturn(b, a + 14, offsets));
                        leafObstacles.put(key, LeafMethods.scan(b, layout, thisClass, statics, access, constructor, a + 14, offsets,
                                u2(a + 14 + codeLength)));
                    }
                    a += 6 + length;
                }
                p = a;
            }
            return result;
        }
    }
}
