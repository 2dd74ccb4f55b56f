package dev.minitrace.converter.jfr;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.wire.TraceBufferFormat;
import java.util.Arrays;

/**
 * Decodes the packed records of one {@code minitrace.MethodBuffer} event (encoding:
 * {@link TraceBufferFormat}, {@code docs/trace-buffer.md}) and delivers them to a {@link RecordingSink}: method records as
 * method events, object records (lock acquire, lock release, allocation) as object events whose
 * class key is {@link RecordingSink#agentClassKey} of the record's class id.
 * Both engines use this one class, so they give the same records, sequences and times to the
 * nanosecond. An event is checked completely before any of its records is delivered: a corrupt one
 * is reported to {@link RecordingSink#corruptMethodBuffer} as a whole and none of its records is
 * used (a record after a damaged char cannot be trusted, nor can its sequence numbers). Decoded
 * records wait in reusable primitive columns: no allocation per record or per event once the
 * columns have grown to the largest event.
 */
public final class MethodBufferDecoder {
    private static final int MAX_INT_CHARS = TraceBufferFormat.MAX_INT_CHARS;
    private static final int MAX_LONG_CHARS = TraceBufferFormat.MAX_LONG_CHARS;
    /** The .mtlog record type of each object record kind (ACQUIRE, RELEASE, ALLOC; the fourth kind is corrupt). */
    private static final int[] OBJECT_TYPES = {MtlogFormat.LOCK_ACQUIRE, MtlogFormat.LOCK_RELEASE, MtlogFormat.OBJECT_ALLOC,
        MtlogFormat.OBJECT_DEATH};

    /**
     * The header chars below {@link TraceBufferFormat#HEADER_LIMIT} that break the encoding
     * ({@link TraceBufferFormat#misplacedBits}): a table, since every record's header is checked.
     */
    private static final boolean[] MISPLACED = new boolean[TraceBufferFormat.HEADER_LIMIT];

    static {
        for (int h = 0; h < MISPLACED.length; h++) {
            MISPLACED[h] = TraceBufferFormat.misplacedBits(h);
        }
    }

    private char[] chars = new char[256];
    private int[] types = new int[64];
    /** Method id of a method record, class id of an object record. */
    private int[] methodIds = new int[64];
    private int[] hashes = new int[64];
    private int[] bcis = new int[64];
    private long[] sequences = new long[64];
    private long[] ticks = new long[64];

    /** Position after the last varint read; -1 when it ran past the end or was too long. */
    private int pos;
    /** The sequence number after the last event decoded, skips included; {@link Long#MIN_VALUE} when it was corrupt. */
    private long nextSequence = Long.MIN_VALUE;
    private String problem;

    /**
     * The sequence number that follows the last event {@link #decode decoded} (its last record or
     * skip plus one): where the thread's next event starts; {@link Long#MIN_VALUE} when it was corrupt.
     */
    public long nextSequence() {
        return nextSequence;
    }

    /** A reusable char buffer of at least {@code n} chars for an engine to copy the records into. */
    public char[] buffer(int n) {
        if (chars.length < n) {
            chars = new char[Math.max(n, chars.length * 2)];
        }
        return chars;
    }

    /** Decodes {@code records} (the oracle engine's string); see {@link #decode(char[], int, long, long, int, long, long, RecordingSink)}. */
    public void decode(String records, long threadKey, long firstSequence, int recordCount, long baseTimeNanos,
            long ticksPerSecond, RecordingSink sink) {
        int n = records == null ? 0 : records.length();
        char[] c = buffer(n);
        if (n > 0) {
            records.getChars(0, n, c, 0);
        }
        decode(c, n, threadKey, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, sink);
    }

    /**
     * Decodes {@code records[0, length)} and delivers each method record to
     * {@link RecordingSink#methodEvent} with {@code threadKey} (the event's {@code tracedThread};
     * -1 when it does not resolve, which the sink counts like any event without a thread), or
     * reports the event to {@link RecordingSink#corruptMethodBuffer} when it breaks the encoding.
     *
     * @param baseTimeNanos {@code baseTime} converted as the engine converts every tick timestamp
     */
    public void decode(char[] records, int length, long threadKey, long firstSequence, int recordCount,
            long baseTimeNanos, long ticksPerSecond, RecordingSink sink) {
        int n = parse(records, length, firstSequence, recordCount, ticksPerSecond);
        if (n < 0) {
            nextSequence = Long.MIN_VALUE;
            sink.corruptMethodBuffer(threadKey, recordCount, problem);
            return;
        }
        // docs/trace-buffer.md: time(baseTime) + (long) ((ticks - baseTime) * (1e9 / ticksPerSecond))
        sink.records(threadKey, baseTimeNanos, 1e9 / ticksPerSecond, types, methodIds, hashes, bcis, sequences, ticks, 0, n);
    }

    /**
     * Parses the records into the columns ({@code ticks} relative to {@code baseTime}).
     *
     * @return the number of method and object records, or -1 with {@link #problem} set
     */
    private int parse(char[] c, int length, long firstSequence, int recordCount, long ticksPerSecond) {
        if (recordCount < 0) {
            return fail("negative recordCount " + recordCount);
        }
        if (ticksPerSecond <= 0) {
            return fail("ticksPerSecond " + ticksPerSecond + " is not positive");
        }
        // Each record takes at least one char (a leaf record by exception: two chars for its two
        // records): a larger count cannot be right (and must not size the columns).
        if (recordCount > length) {
            return fail("recordCount " + recordCount + " does not fit " + length + " chars");
        }
        ensure(recordCount);
        long sequence = firstSequence;
        long tick = 0;
        int n = 0;
        int p = 0;
        while (p < length) {
            int h = c[p];
            if (h >= TraceBufferFormat.HEADER_LIMIT || MISPLACED[h]) {
                return fail("header char 0x" + Integer.toHexString(h) + " at char " + p + " has reserved bits set");
            }
            int at = p;
            int kind = h & TraceBufferFormat.KIND_MASK;
            boolean stamped = (h & TraceBufferFormat.STAMPED) != 0;
            if ((h & (TraceBufferFormat.OBJECT | TraceBufferFormat.HEAP)) == 0 && p + TraceBufferFormat.MAX_RECORD_CHARS <= length
                    && n + 2 <= recordCount) {
                // the common record, a method record whose values take one or two chars each, in
                // locals; any other form (or a broken one) takes the general path below
                int q = p + 1;
                int x = c[q];
                int y = c[q + 1];
                int methodId;
                if ((h & TraceBufferFormat.WIDE_ID) != 0) {
                    methodId = (x | y) < TraceBufferFormat.CHAR_LIMIT ? x | y << 7 : -1;
                    q += 2;
                } else if (x < TraceBufferFormat.VARINT_MORE) {
                    methodId = x;
                    q++;
                } else {
                    methodId = x < TraceBufferFormat.CHAR_LIMIT && y < TraceBufferFormat.VARINT_MORE
                            ? x & TraceBufferFormat.VARINT_MASK | y << TraceBufferFormat.VARINT_BITS : -1;
                    q += 2;
                }
                int bci = 0;
                if (kind == TraceBufferFormat.EXIT) {
                    bci = shortVarint(c, q);
                    q += bci >>> 16;
                    bci &= 0xFFFF;
                }
                long delta = 0;
                if (stamped) {
                    int d = shortVarint(c, q);
                    q += d >>> 16;
                    delta = d & 0xFFFF;
                }
                if (methodId >= 0 && bci != 0xFFFF && delta != 0xFFFF) {
                    tick += delta;
                    if ((h & TraceBufferFormat.LEAF) != 0) {
                        types[n] = MtlogFormat.METHOD_ENTRY;
                        methodIds[n] = methodId;
                        bcis[n] = 0;
                        sequences[n] = sequence++;
                        ticks[n] = tick;
                        n++;
                    }
                    types[n] = kind == TraceBufferFormat.ENTRY ? MtlogFormat.METHOD_ENTRY : MtlogFormat.METHOD_EXIT;
                    methodIds[n] = methodId;
                    bcis[n] = kind == TraceBufferFormat.DEFINED_EXIT ? RecordingSink.DEFINED_RETURN_BCI : bci;
                    sequences[n] = sequence++;
                    ticks[n] = tick;
                    n++;
                    p = q;
                    continue;
                }
            }
            pos = p + 1;
            if ((h & ~TraceBufferFormat.STAMPED) == TraceBufferFormat.SKIP_HEADER) {
                if (stamped) {
                    return fail("sequence skip at char " + at + " is stamped");
                }
                long skip = varint(c, length, MAX_LONG_CHARS);
                if (pos < 0) {
                    return fail(problem + " in the sequence skip at char " + at);
                }
                if (skip < 1) {
                    return fail("sequence skip at char " + at + " of " + Long.toUnsignedString(skip) + " (must be at least 1)");
                }
                sequence += skip;
                p = pos;
                continue;
            }
            if ((h & TraceBufferFormat.HEAP) != 0) {
                n = heapRecord(c, length, h, at, n, recordCount, sequence, stamped, tick);
                if (n < 0) {
                    return -1;
                }
                sequence = sequences[n - 1] + 1;
                tick = ticks[n - 1];
                p = pos;
                continue;
            }
            if ((h & TraceBufferFormat.OBJECT) != 0) {
                long classId = varint(c, length, MAX_INT_CHARS);
                long hash = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
                long bci = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
                if (pos >= 0 && stamped) {
                    tick += varint(c, length, MAX_LONG_CHARS);
                }
                if (pos < 0) {
                    return fail(problem + " in the object record at char " + at);
                }
                if (classId > 0xFFFFFFFFL || hash > 0xFFFFFFFFL || bci > 0xFFFFFFFFL) {
                    return fail("object record at char " + at + " has a value above 32 bits");
                }
                if (n == recordCount) {
                    return fail("more records than recordCount " + recordCount);
                }
                types[n] = OBJECT_TYPES[kind];
                methodIds[n] = (int) classId;
                hashes[n] = (int) hash;
                bcis[n] = (int) bci;
                sequences[n] = sequence++;
                ticks[n] = tick;
                n++;
                p = pos;
                continue;
            }
            long methodId = (h & TraceBufferFormat.WIDE_ID) != 0 ? wideId(c, length) : varint(c, length, MAX_INT_CHARS);
            long bci = 0;
            if (pos >= 0 && kind == TraceBufferFormat.EXIT) {
                bci = varint(c, length, MAX_INT_CHARS);
            }
            if (pos >= 0 && stamped) {
                tick += varint(c, length, MAX_LONG_CHARS);
            }
            if (pos < 0) {
                return fail(problem + " in the record at char " + at);
            }
            if (methodId > 0xFFFFFFFFL || bci > 0xFFFFFFFFL) {
                return fail("record at char " + at + " has a value above 32 bits");
            }
            if ((h & TraceBufferFormat.LEAF) != 0) { // a leaf call: its entry first, at the same time
                if (n + 1 >= recordCount) {
                    return fail("more records than recordCount " + recordCount);
                }
                types[n] = MtlogFormat.METHOD_ENTRY;
                methodIds[n] = (int) methodId;
                bcis[n] = 0;
                sequences[n] = sequence++;
                ticks[n] = tick;
                n++;
            } else if (n == recordCount) {
                return fail("more records than recordCount " + recordCount);
            }
            types[n] = kind == TraceBufferFormat.ENTRY ? MtlogFormat.METHOD_ENTRY : MtlogFormat.METHOD_EXIT;
            methodIds[n] = (int) methodId;
            // an exit by exception has bci 0; the definition gives a DEFINED_EXIT's, resolved when written
            bcis[n] = kind == TraceBufferFormat.DEFINED_EXIT ? RecordingSink.DEFINED_RETURN_BCI : (int) bci;
            sequences[n] = sequence++;
            ticks[n] = tick;
            n++;
            p = pos;
        }
        if (n != recordCount) {
            return fail(n + " record(s) where recordCount says " + recordCount);
        }
        nextSequence = sequence;
        return n;
    }

    /**
     * Parses the heap record at {@code at} (header {@code h}) into its parts at {@code n}, one
     * sequence number each (docs/trace-buffer.md): the site (method id or field id or index, and
     * bytecode index), then one part per object (class id, -1 for null, and identity hash).
     *
     * @return the number of records after it, or -1 with {@link #problem} set
     */
    private int heapRecord(char[] c, int length, int h, int at, int n, int recordCount, long sequence, boolean stamped, long tick) {
        int kind = TraceBufferFormat.heapKind(h);
        if (kind >= TraceBufferFormat.HEAP_KINDS) {
            return fail("heap record at char " + at + " has the reserved kind " + kind);
        }
        boolean store = TraceBufferFormat.heapObjects(kind) == 3;
        int parts = TraceBufferFormat.heapParts(kind);
        long id = varint(c, length, MAX_INT_CHARS);
        long bci = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
        if (n + parts > recordCount) {
            return fail("more records than recordCount " + recordCount);
        }
        if (kind == TraceBufferFormat.RECEIVER || kind == TraceBufferFormat.SITE) {
            // one record: the receiver (its method is the entry just before), or the site of the
            // allocation record that follows (its object part is always null)
            boolean site = kind == TraceBufferFormat.SITE;
            long classPlusOne = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
            long hash = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
            if (pos >= 0 && stamped) {
                tick += varint(c, length, MAX_LONG_CHARS);
            }
            if (pos < 0) {
                return fail(problem + " in the heap record at char " + at);
            }
            if (id > 0xFFFFFFFFL || bci > 0xFFFFFFFFL || classPlusOne > 0x100000000L || hash > 0xFFFFFFFFL
                    || site && (classPlusOne != 0 || hash != 0)) {
                return fail("heap record at char " + at + " has a value out of range");
            }
            types[n] = site ? MtlogFormat.ALLOC_SITE : MtlogFormat.METHOD_RECEIVER;
            methodIds[n] = site ? (int) id : (int) (classPlusOne - 1);
            hashes[n] = (int) hash;
            bcis[n] = site ? (int) bci : 0;
            sequences[n] = sequence;
            ticks[n] = tick;
            return n + 1;
        }
        if (kind == TraceBufferFormat.ARRAY_ALLOC) {
            // two records: the allocation (class id, hash, bytecode index), then the length (the record's id)
            long classPlusOne = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
            long hash = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
            if (pos >= 0 && stamped) {
                tick += varint(c, length, MAX_LONG_CHARS);
            }
            if (pos < 0) {
                return fail(problem + " in the heap record at char " + at);
            }
            if (id > 0x7FFFFFFFL || bci > 0xFFFFFFFFL || classPlusOne > 0x100000000L || hash > 0xFFFFFFFFL) {
                return fail("heap record at char " + at + " has a value out of range");
            }
            if (classPlusOne == 0) {
                return fail("array allocation at char " + at + " has no array");
            }
            types[n] = MtlogFormat.OBJECT_ALLOC;
            methodIds[n] = (int) (classPlusOne - 1);
            hashes[n] = (int) hash;
            bcis[n] = (int) bci;
            types[n + 1] = MtlogFormat.ARRAY_LENGTH;
            methodIds[n + 1] = (int) id;
            hashes[n + 1] = 0;
            bcis[n + 1] = 0;
            for (int i = 0; i < parts; i++) {
                sequences[n + i] = sequence + i;
                ticks[n + i] = tick;
            }
            return n + parts;
        }
        for (int i = 1; i < parts && pos >= 0; i++) { // the objects, one part each
            long classPlusOne = varint(c, length, MAX_INT_CHARS);
            long hash = pos >= 0 ? varint(c, length, MAX_INT_CHARS) : 0;
            if (classPlusOne > 0x100000000L || hash > 0xFFFFFFFFL) {
                return fail("heap record at char " + at + " has a value above 32 bits");
            }
            types[n + i] = store ? MtlogFormat.STORE_HOLDER + i - 1 : MtlogFormat.EXCEPTION_OBJECT;
            methodIds[n + i] = (int) (classPlusOne - 1); // -1: null
            hashes[n + i] = (int) hash;
            bcis[n + i] = 0;
        }
        if (pos >= 0 && stamped) {
            tick += varint(c, length, MAX_LONG_CHARS);
        }
        if (pos < 0) {
            return fail(problem + " in the heap record at char " + at);
        }
        if (id > 0xFFFFFFFFL || bci > 0xFFFFFFFFL) {
            return fail("heap record at char " + at + " has a value above 32 bits");
        }
        types[n] = switch (kind) {
            case TraceBufferFormat.THROW -> MtlogFormat.EXCEPTION_THROW;
            case TraceBufferFormat.HANDLED -> MtlogFormat.EXCEPTION_HANDLED;
            case TraceBufferFormat.FIELD_STORE -> MtlogFormat.FIELD_STORE;
            default -> MtlogFormat.ARRAY_STORE;
        };
        methodIds[n] = (int) id;
        hashes[n] = 0;
        bcis[n] = (int) bci;
        for (int i = 0; i < parts; i++) {
            sequences[n + i] = sequence + i;
            ticks[n + i] = tick;
        }
        return n + parts;
    }

    /**
     * Reads the varint at {@link #pos}: 6 bits per char, least significant first, bit 6 set when
     * another char follows. Sets {@link #pos} after it, or to -1 (with {@link #problem}) when it
     * runs past {@code length}, is longer than {@code maxChars} or has a char of 128 or more.
     */
    private long varint(char[] c, int length, int maxChars) {
        int p = pos;
        if (p < length) {
            int x = c[p];
            if (x < TraceBufferFormat.VARINT_MORE) { // one char, no continuation: most method ids, bytecode indexes and tick deltas
                pos = p + 1;
                return x;
            }
            if (p + 1 < length && x < TraceBufferFormat.CHAR_LIMIT) {
                int y = c[p + 1];
                if (y < TraceBufferFormat.VARINT_MORE) { // two chars: most of the rest (every caller allows at least two)
                    pos = p + 2;
                    return (x & TraceBufferFormat.VARINT_MASK) | (long) y << TraceBufferFormat.VARINT_BITS;
                }
            }
        }
        return longVarint(c, length, maxChars);
    }

    /**
     * The varint at {@code c[p]} when it takes one or two chars (the caller has two more chars):
     * its value (below 2^12) plus its chars times 2^16; 0xFFFF (no chars) when it is longer or broken.
     */
    private static int shortVarint(char[] c, int p) {
        int x = c[p];
        if (x < TraceBufferFormat.VARINT_MORE) {
            return 1 << 16 | x;
        }
        int y = c[p + 1];
        if (x < TraceBufferFormat.CHAR_LIMIT && y < TraceBufferFormat.VARINT_MORE) {
            return 2 << 16 | x & TraceBufferFormat.VARINT_MASK | y << TraceBufferFormat.VARINT_BITS;
        }
        return 0xFFFF;
    }

    /** Reads the {@link TraceBufferFormat#WIDE_ID} method id    /** Reads the {@link TraceBufferFormat#WIDE_ID} method id at {@link #pos}, as {@link #varint} does a varint. */
    private long wideId(char[] c, int length) {
        int p = pos;
        if (p + TraceBufferFormat.WIDE_ID_CHARS > length) {
            problem = "a method id runs past the end";
            pos = -1;
            return 0;
        }
        int low = c[p];
        int high = c[p + 1];
        if ((low | high) >= TraceBufferFormat.CHAR_LIMIT) {
            problem = "a method id char at char " + p + " is not below 128";
            pos = -1;
            return 0;
        }
        pos = p + TraceBufferFormat.WIDE_ID_CHARS;
        return low | high << 7;
    }

    /** {@link #varint} of more than one char, or a broken one. */
    private long longVarint(char[] c, int length, int maxChars) {
        long value = 0;
        int p = pos;
        for (int i = 0; i < maxChars; i++) {
            if (p >= length) {
                problem = "a varint runs past the end";
                pos = -1;
                return 0;
            }
            int x = c[p++];
            if (x >= TraceBufferFormat.CHAR_LIMIT) {
                problem = "char 0x" + Integer.toHexString(x) + " at char " + (p - 1) + " is not below 128";
                pos = -1;
                return 0;
            }
            value |= (long) (x & TraceBufferFormat.VARINT_MASK) << (TraceBufferFormat.VARINT_BITS * i);
            if ((x & TraceBufferFormat.VARINT_MORE) == 0) {
                pos = p;
                return value;
            }
        }
        problem = "a varint longer than " + maxChars + " chars";
        pos = -1;
        return 0;
    }

    private int fail(String why) {
        problem = why;
        return -1;
    }

    private void ensure(int n) {
        if (types.length < n) {
            int size = Math.max(n, types.length * 2);
            types = Arrays.copyOf(types, size);
            methodIds = Arrays.copyOf(methodIds, size);
            hashes = Arrays.copyOf(hashes, size);
            bcis = Arrays.copyOf(bcis, size);
            sequences = Arrays.copyOf(sequences, size);
            ticks = Arrays.copyOf(ticks, size);
        }
    }
}
