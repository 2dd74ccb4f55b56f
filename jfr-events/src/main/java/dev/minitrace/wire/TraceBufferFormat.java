package dev.minitrace.wire;

/**
 * The packed records of a {@code minitrace.MethodBuffer} event ({@code docs/trace-buffer.md}): the
 * bits of a record's header char and the 6-bit varint that follows it. The agent's
 * {@code TraceBuffer} writes and counts records with these, the converter's
 * {@code MethodBufferDecoder} reads them, so the two ends cannot drift apart.
 *
 * <p>A record is a header char, then varints. A varint is little-endian groups of
 * {@value #VARINT_BITS} bits, one group per char, {@link #VARINT_MORE} set when another char
 * follows; every char stays below {@value #CHAR_LIMIT} so JFR stores the string one byte per char.
 */
public final class TraceBufferFormat {
    /** Header bits 0-1: the kind of a method record or of an object record. */
    public static final int KIND_MASK = 3;
    /** Header bit 2: a time delta (ticks, unsigned varint) ends the record. */
    public static final int STAMPED = 4;
    /** Header bit 3: an object record (monitor or allocation) rather than a method record or skip. */
    public static final int OBJECT = 8;
    /**
     * Header bit 4: a heap record (exception, reference store). Its kind is bits 0-1 plus bit 3 as
     * bit 2 ({@link #heapKind}).
     */
    public static final int HEAP = 0x10;
    /**
     * Header bit 5, only in a method record of kind {@link #EXIT}, {@link #EXIT_BY_EXCEPTION} or {@link #DEFINED_EXIT}: a
     * leaf call, the method's entry immediately followed by that exit, as one record. It takes two
     * sequence numbers and decodes to the entry (bytecode index 0), then the exit, at the same time.
     */
    public static final int LEAF = 0x20;
    /**
     * Header bit 6, only in a method record (any kind): the method id is not a varint but {@link #WIDE_ID_CHARS} chars of
     * 7 bits, least significant first. The agent writes it for ids from {@link #WIDE_ID_FROM} up to
     * {@link #WIDE_ID_LIMIT}, which take three chars as a varint.
     */
    public static final int WIDE_ID = 0x40;
    /** A header char at or above this is corrupt. */
    public static final int HEADER_LIMIT = 0x80;
    /** Chars of a {@link #WIDE_ID} method id. */
    public static final int WIDE_ID_CHARS = 2;
    /** The smallest method id the agent writes as a {@link #WIDE_ID}: below it a varint takes at most two chars. */
    public static final int WIDE_ID_FROM = 1 << 2 * 6;
    /** Method ids below this fit a {@link #WIDE_ID}. */
    public static final int WIDE_ID_LIMIT = 1 << 2 * 7;

    /** Method record kind: method entry; then the method id. */
    public static final int ENTRY = 0;
    /**
     * Method record kind: exit by a return instruction; then the method id and the instruction's
     * bytecode index (the agent writes {@link #DEFINED_EXIT} instead when the index is the method's
     * {@code returnBci}).
     */
    public static final int EXIT = 1;
    /** Method record kind: exit by an exception; then the method id. */
    public static final int EXIT_BY_EXCEPTION = 2;
    /**
     * Method record kind: exit by the return instruction whose bytecode index the method's
     * {@code minitrace.MethodDefinition} gives ({@code returnBci}, the method's only return
     * instruction); then the method id, and no bytecode index. Takes the {@link #STAMPED},
     * {@link #LEAF} and {@link #WIDE_ID} bits as {@link #EXIT} does.
     */
    public static final int DEFINED_EXIT = 3;

    /** Object record kind: monitor acquired; then class id, identity hash, bytecode index. */
    public static final int ACQUIRE = 0;
    /** Object record kind: monitor about to be released; fields as {@link #ACQUIRE}. */
    public static final int RELEASE = 1;
    /** Object record kind: object allocated and constructed; fields as {@link #ACQUIRE}. */
    public static final int ALLOC = 2;
    /**
     * Object record kind: an object whose allocation was recorded was reclaimed (found unreachable
     * by a collection); fields as {@link #ACQUIRE}, bytecode index 0. Written by the death thread.
     */
    public static final int DEATH = 3;

    /**
     * Heap record kind: an exception is thrown by {@code athrow}; then method id, bytecode index,
     * exception object. Takes {@link #THROW_PARTS} sequence numbers.
     */
    public static final int THROW = 0;
    /** Heap record kind: an exception handler starts; then method id, handler bytecode index, exception object. */
    public static final int HANDLED = 1;
    /**
     * Heap record kind: a reference stored to a field; then field id (the agent's, resolved by
     * {@code minitrace.FieldDefinition}), bytecode index, holder object (null for a static field),
     * old target, new target. Takes {@link #STORE_PARTS} sequence numbers.
     */
    public static final int FIELD_STORE = 2;
    /** Heap record kind: a reference stored to an array element; then index, bytecode index, array, old target, new target. */
    public static final int ARRAY_STORE = 3;
    /**
     * Heap record kind: the receiver of the instance method whose entry record comes just before;
     * then method id, bytecode index 0, the receiver. Takes one sequence number.
     */
    public static final int RECEIVER = 4;
    /**
     * Heap record kind: an array allocated (and the allocation record of any other object is the
     * object record {@link #ALLOC}); then its length, the bytecode index of the allocating
     * instruction, the array. Takes two sequence numbers: the allocation, then the length.
     */
    public static final int ARRAY_ALLOC = 5;
    /**
     * Heap record kind: the allocation record that follows (an {@link #ALLOC} object record or an
     * {@link #ARRAY_ALLOC}) was made by the instruction at the bytecode index in the method of the
     * id, a method whose entries are not traced (agent option {@code alloc-scope=all}); then
     * method id, bytecode index, no object (written as null). Takes one sequence number.
     */
    public static final int SITE = 6;
    /** Heap kinds below this are heap records; kind {@link #SKIP} is the sequence skip. */
    public static final int HEAP_KINDS = 7;
    /**
     * Heap kind 7, the sequence skip: the next n sequence numbers belong to other events of the
     * thread; then n (at least 1). Never stamped; not a record (no sequence number of its own, not
     * counted).
     */
    public static final int SKIP = 7;
    /** The header char of a {@link #SKIP}. */
    public static final int SKIP_HEADER = HEAP | OBJECT | KIND_MASK;
    /** Sequence numbers (and decoded records) of a throw or handler record: the site, then the exception; also of an array allocation. */
    public static final int THROW_PARTS = 2;
    /** Sequence numbers (and decoded records) of a store record: the site, then holder, old and new target. */
    public static final int STORE_PARTS = 4;

    /** Payload bits per varint char. */
    public static final int VARINT_BITS = 6;
    /** The payload of a varint char. */
    public static final int VARINT_MASK = 0x3F;
    /** Set in a varint char when another char of the same varint follows. */
    public static final int VARINT_MORE = 0x40;
    /** Every char of the records is below this. */
    public static final int CHAR_LIMIT = 0x80;
    /** Most chars of a varint holding a 32-bit value (ids, hashes, bytecode indexes). */
    public static final int MAX_INT_CHARS = 6;
    /** Most chars of a varint holding a 64-bit value (time deltas, skips). */
    public static final int MAX_LONG_CHARS = 11;
    /** Most chars of a skip: header and a 64-bit varint. */
    public static final int MAX_SKIP_CHARS = 1 + MAX_LONG_CHARS;
    /**
     * Chars of one thread's buffer, committed as one event when full: also the most records a thread
     * can hold that JFR has not seen yet (every record takes at least one char).
     */
    public static final int MAX_BUFFER_CHARS = 2048;
    /**
     * Most chars of one record: a stamped store record (header, eight 32-bit varints: id, bytecode
     * index and three objects of two each, a time delta).
     */
    public static final int MAX_RECORD_CHARS = 1 + 8 * MAX_INT_CHARS + MAX_LONG_CHARS;

    private TraceBufferFormat() {
    }

    /**
     * Whether {@link #LEAF} is set where it has no meaning (not a method record of an exit kind),
     * or {@link #WIDE_ID} (not a method record): corrupt.
     */
    public static boolean misplacedBits(int h) {
        boolean method = (h & (OBJECT | HEAP)) == 0;
        return (h & LEAF) != 0 && (!method || (h & KIND_MASK) == ENTRY) || (h & WIDE_ID) != 0 && !method;
    }

    /** The header bit of method id {@code id}: {@link #WIDE_ID} when it is written as one, else 0. */
    public static int idForm(int id) {
        return id >= WIDE_ID_FROM && id < WIDE_ID_LIMIT ? WIDE_ID : 0;
    }

    /**
     * Writes method id {@code id} at {@code c[p]} in the form {@link #idForm} gives it.
     *
     * @return the position after it
     */
    public static int putMethodId(char[] c, int p, int id) {
        if (idForm(id) != 0) {
            c[p] = (char) (id & 0x7F);
            c[p + 1] = (char) (id >>> 7);
            return p + WIDE_ID_CHARS;
        }
        return putVarint(c, p, id & 0xFFFFFFFFL);
    }

    /** The objects a heap record of {@code kind} carries: three for a store, else one. */
    public static int heapObjects(int kind) {
        return kind == FIELD_STORE || kind == ARRAY_STORE ? 3 : 1;
    }

    /** The sequence numbers (and decoded records) a heap record of {@code kind} takes. */
    public static int heapParts(int kind) {
        return kind == RECEIVER || kind == SITE ? 1 : heapObjects(kind) + 1;
    }

    /** The header bits of heap record kind {@code kind} (0-7), without {@link #STAMPED}. */
    public static int heapHeader(int kind) {
        return HEAP | (kind & KIND_MASK) | (kind & 4) << 1;
    }

    /** The kind of heap record header {@code h} (which has {@link #HEAP} set). */
    public static int heapKind(int h) {
        return (h & KIND_MASK) | (h & OBJECT) >> 1;
    }

    /**
     * Writes {@code v} (treated as unsigned) as a varint at {@code c[p]}.
     *
     * @return the position after it
     */
    public static int putVarint(char[] c, int p, long v) {
        while ((v & ~(long) VARINT_MASK) != 0) {
            c[p++] = (char) (VARINT_MORE | (v & VARINT_MASK));
            v >>>= VARINT_BITS;
        }
        c[p++] = (char) v;
        return p;
    }
}
