package dev.minitrace.converter;

import java.util.Arrays;

/**
 * The {@code returnBci} of each agent method id ({@code minitrace.MethodDefinition}): the bytecode
 * index of an exit record that leaves it out ({@code docs/trace-buffer.md}, {@code DEFINED_EXIT}).
 * The collector's thread defines, the writer's thread reads: a record is handed to the writer only
 * after its chunk's definitions were delivered (at the chunk's end, or after the engine's first
 * pass over a chunk whose records go early), and a slot, once set, never changes.
 */
final class MethodReturns {
    private static final int PAGE_BITS = 12;
    private static final int PAGE_SIZE = 1 << PAGE_BITS;

    /** Per page of ids, each id's bytecode index plus one; 0 when no definition gave one. */
    private volatile int[][] pages = new int[16][];

    /** Method {@code methodId} (unsigned) returns at {@code returnBci}; -1 (none) leaves it unknown, a known index is kept. */
    void define(int methodId, int returnBci) {
        if (returnBci < 0) {
            return;
        }
        long id = methodId & 0xFFFFFFFFL;
        int page = (int) (id >>> PAGE_BITS);
        int[][] p = pages;
        if (page >= p.length) {
            p = Arrays.copyOf(p, Math.max(page + 1, p.length * 2));
        }
        int[] slots = p[page];
        if (slots == null) {
            slots = new int[PAGE_SIZE];
            p[page] = slots;
        }
        int slot = (int) (id & (PAGE_SIZE - 1));
        if (slots[slot] == 0) {
            slots[slot] = returnBci + 1;
        }
        pages = p; // publishes the slot to the writer's thread
    }

    /** The bytecode index method {@code id} (unsigned) returns at, or -1 when no definition gave one. */
    int returnBci(long id) {
        int[][] p = pages;
        int page = (int) (id >>> PAGE_BITS);
        if (page < p.length && p[page] != null) {
            return p[page][(int) (id & (PAGE_SIZE - 1))] - 1;
        }
        return -1;
    }
}
