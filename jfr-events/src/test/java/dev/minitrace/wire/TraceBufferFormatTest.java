package dev.minitrace.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The varint both ends share, against the encoding written out in docs/trace-buffer.md. */
class TraceBufferFormatTest {
    private static String varint(long v) {
        char[] c = new char[TraceBufferFormat.MAX_LONG_CHARS];
        int n = TraceBufferFormat.putVarint(c, 0, v);
        return new String(c, 0, n);
    }

    @Test
    void sixBitGroupsLeastSignificantFirstWithAContinuationBit() {
        assertEquals("\0", varint(0));
        assertEquals("?", varint(63)); // 0x3F fits one char
        assertEquals("\u0040\u0001", varint(64)); // 0 with "more", then 1
        assertEquals("\u0045\u0043\u0001", varint(0x10C5)); // 5, 3, 1 in groups of 6 bits
    }

    @Test
    void theLargestValuesTakeTheDeclaredMostCharsAndStayBelow128() {
        assertEquals(TraceBufferFormat.MAX_INT_CHARS, varint(0xFFFFFFFFL).length());
        assertEquals(TraceBufferFormat.MAX_LONG_CHARS, varint(-1L).length());
        for (char ch : varint(-1L).toCharArray()) {
            assertTrue(ch < TraceBufferFormat.CHAR_LIMIT, Integer.toHexString(ch));
        }
    }

    @Test
    void writesAtTheGivenPositionAndReturnsThePositionAfter() {
        char[] c = {'x', 'x', 'x', 'x'};
        assertEquals(3, TraceBufferFormat.putVarint(c, 1, 65));
        assertEquals("x\u0041\u0001x", new String(c));
    }

    @Test
    void headerBitsAsDocumented() {
        // docs/trace-buffer.md: bits 0-1 kind, bit 2 stamped, bit 3 object, bit 4 heap, bit 5 leaf, bit 6 wide id
        assertEquals(0b11, TraceBufferFormat.KIND_MASK);
        assertEquals(1 << 2, TraceBufferFormat.STAMPED);
        assertEquals(1 << 3, TraceBufferFormat.OBJECT);
        assertEquals(1 << 4, TraceBufferFormat.HEAP);
        assertEquals(1 << 5, TraceBufferFormat.LEAF);
        assertEquals(1 << 6, TraceBufferFormat.WIDE_ID);
        assertEquals(1 << 7, TraceBufferFormat.HEADER_LIMIT);
        // a stamped store record: header, eight 32-bit varints, a time delta; plus a skip before it
        assertEquals(72, TraceBufferFormat.MAX_SKIP_CHARS + TraceBufferFormat.MAX_RECORD_CHARS);
    }

    @Test
    void theSkipIsHeapKindSevenAndMethodKindThreeAnExitWithoutIndex() {
        // docs/trace-buffer.md: a skip's header is 0x1B; method kind 3 is the exit by the defined return
        assertEquals(0x1B, TraceBufferFormat.SKIP_HEADER);
        assertEquals(TraceBufferFormat.SKIP, TraceBufferFormat.heapKind(TraceBufferFormat.SKIP_HEADER));
        assertEquals(TraceBufferFormat.SKIP_HEADER, TraceBufferFormat.heapHeader(TraceBufferFormat.SKIP));
        assertEquals(TraceBufferFormat.HEAP_KINDS, TraceBufferFormat.SKIP, "every other heap kind is a record");
        assertEquals(3, TraceBufferFormat.DEFINED_EXIT);
    }

    @Test
    void heapKindsUseBitsZeroOneAndThree() {
        // docs/trace-buffer.md: a heap record's kind is bits 0-1, with bit 3 as its bit 2
        assertEquals(0x10, TraceBufferFormat.heapHeader(TraceBufferFormat.THROW));
        assertEquals(0x13, TraceBufferFormat.heapHeader(TraceBufferFormat.ARRAY_STORE));
        assertEquals(0x18, TraceBufferFormat.heapHeader(4));
        for (int kind = 0; kind < 8; kind++) {
            int h = TraceBufferFormat.heapHeader(kind);
            assertTrue(h < TraceBufferFormat.HEADER_LIMIT);
            assertEquals(kind, TraceBufferFormat.heapKind(h | TraceBufferFormat.STAMPED));
        }
    }

    @Test
    void theLeafBitBelongsToExitsOnlyAndTheWideIdBitToMethodRecords() {
        int leaf = TraceBufferFormat.LEAF;
        assertFalse(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.EXIT | TraceBufferFormat.STAMPED));
        assertFalse(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.EXIT_BY_EXCEPTION));
        assertFalse(TraceBufferFormat.misplacedBits(TraceBufferFormat.ENTRY), "no leaf bit");
        assertTrue(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.ENTRY));
        assertFalse(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.DEFINED_EXIT));
        assertTrue(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.SKIP_HEADER));
        assertTrue(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.OBJECT | TraceBufferFormat.EXIT));
        assertTrue(TraceBufferFormat.misplacedBits(leaf | TraceBufferFormat.heapHeader(TraceBufferFormat.HANDLED)));
        int wide = TraceBufferFormat.WIDE_ID;
        for (int kind : new int[] {TraceBufferFormat.ENTRY, TraceBufferFormat.EXIT, TraceBufferFormat.EXIT_BY_EXCEPTION,
            TraceBufferFormat.DEFINED_EXIT}) {
            assertFalse(TraceBufferFormat.misplacedBits(wide | kind | TraceBufferFormat.STAMPED));
        }
        assertFalse(TraceBufferFormat.misplacedBits(wide | leaf | TraceBufferFormat.EXIT));
        assertTrue(TraceBufferFormat.misplacedBits(wide | TraceBufferFormat.SKIP_HEADER));
        assertFalse(TraceBufferFormat.misplacedBits(TraceBufferFormat.SKIP_HEADER));
        assertTrue(TraceBufferFormat.misplacedBits(wide | TraceBufferFormat.OBJECT | TraceBufferFormat.ALLOC));
        assertTrue(TraceBufferFormat.misplacedBits(wide | TraceBufferFormat.heapHeader(TraceBufferFormat.THROW)));
    }

    @Test
    void methodIdsThatTakeThreeVarintCharsTakeTwoCharsOfSevenBits() {
        char[] c = new char[8];
        // below 4096 a varint takes at most two chars: unchanged
        assertEquals(0, TraceBufferFormat.idForm(4095));
        assertEquals(2, TraceBufferFormat.putMethodId(c, 0, 4095));
        assertEquals(TraceBufferFormat.WIDE_ID, TraceBufferFormat.idForm(4096));
        assertEquals(TraceBufferFormat.WIDE_ID, TraceBufferFormat.idForm(16383));
        assertEquals(0, TraceBufferFormat.idForm(16384));
        assertEquals(3, TraceBufferFormat.putVarint(c, 0, 16383), "as a varint");
        assertEquals(2, TraceBufferFormat.putMethodId(c, 0, 16383));
        assertEquals(0x7F, c[0]);
        assertEquals(0x7F, c[1]);
        assertEquals(2, TraceBufferFormat.putMethodId(c, 0, 9413));
        assertEquals(9413, c[0] | c[1] << 7);
        assertTrue(c[0] < TraceBufferFormat.CHAR_LIMIT && c[1] < TraceBufferFormat.CHAR_LIMIT);
        assertEquals(3, TraceBufferFormat.putMethodId(c, 0, 16384), "a varint again");
        assertEquals(3, TraceBufferFormat.putMethodId(c, 0, 262143));
    }
}
