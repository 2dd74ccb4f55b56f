package dev.minitrace.converter.jfr.fast;

import static dev.minitrace.converter.jfr.fast.EventPlan.F0;
import static dev.minitrace.converter.jfr.fast.EventPlan.F1;
import static dev.minitrace.converter.jfr.fast.EventPlan.F2;
import static dev.minitrace.converter.jfr.fast.EventPlan.F3;
import static dev.minitrace.converter.jfr.fast.EventPlan.F4;
import static dev.minitrace.converter.jfr.fast.EventPlan.F6;
import static dev.minitrace.converter.jfr.fast.EventPlan.SLOT_DURATION;
import static dev.minitrace.converter.jfr.fast.EventPlan.SLOT_START;
import static dev.minitrace.converter.jfr.fast.EventPlan.SLOT_THREAD;

import dev.minitrace.converter.util.LongIntMap;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Parses one chunk held in memory: metadata, then all constant pools, then the events in file
 * order. Per metadata it maps the numeric type id of each wanted event to its {@link EventPlan}
 * (compiled from the metadata, never a hard-coded layout); every other event is skipped by its
 * size prefix without being decoded. One instance per thread; it reuses its tables across chunks.
 *
 * <p>Which decoder reads an event depends only on the layout, chosen once per metadata
 * ({@link Decoder}): straight-line code for the agent's own trace events ({@link #traceEvent}),
 * one loop when every field is a single varint or byte ({@link #decodeFlat}), and the op plan for
 * anything else ({@link #decodePlan}: strings, arrays, nested values, tick conversions,
 * fixed-width integers). The last two decode into the kind's slots and hand them to the sink by
 * the one dispatch over the kinds, {@link #deliver}; the straight-line decoder keeps its values in
 * locals and calls the sink itself, so that its values stay in registers
 * (docs/decisions.md, "Straight-line decoding of the agent's events, each decoder delivering itself").
 *
 * <p>The decoders, the two event loops (varint and fixed-width framing) and the dispatch share
 * the per-chunk state (slots, type-id table, time base): on the converter's hottest path the JIT
 * must compile decoder and dispatch together, with no call through another object per event.
 */
final class ChunkParser {
    private static final JfrEventKind[] KINDS = JfrEventKind.values();
    private static final int DIRECT_TYPE_IDS = 1 << 16;

    private final boolean[] wanted;
    private final ConstantPoolReader poolReader = new ConstantPoolReader();
    private final ChunkConstants constants = new ChunkConstants();

    // Per metadata (reused while consecutive chunks carry the same type system).
    private int[] kindByTypeId = new int[0];
    private LongIntMap kindByLargeTypeId;
    private final int[][] ops = new int[KINDS.length][];
    /** Per kind, the flat plan, or null when a field needs more than one varint or byte. */
    private final EventPlan.Flat[] flatPlans = new EventPlan.Flat[KINDS.length];
    /**
     * Per kind, the number of own fields (2 or 4) when the chunk's metadata gives the minitrace
     * trace event exactly the layout of the agent's event classes: start time, duration, thread,
     * stack trace, then the kind's fields in declaration order, each a single varint or, for
     * {@code MethodExit.exceptional}, a byte. 0 for any other kind or layout.
     */
    private final int[] traceLayoutFields = new int[KINDS.length];
    private final JfrType[] typeOfKind = new JfrType[KINDS.length];
    /** Per kind, the decoded values of the current event; the last cell takes the fields nobody reads. */
    private final long[][] slots = new long[KINDS.length][];
    private final String[][] stringSlots = new String[KINDS.length][];
    private Metadata lastMetadata;
    private long lastMetadataId;
    private long lastMetadataCrc;
    private long lastMetadataSize;
    private boolean lastCompressed;

    // Per chunk.
    private long startTicks;
    private long startNanos;
    private double divisor;
    private boolean unitDivisor;
    private long delivered;
    /**
     * The chars of the string fields read with {@link EventPlan#OP_CHARS} (MethodBuffer: 0 = records, 1 =
     * traced thread name), reused from event to event.
     */
    private final char[][] chars = {new char[256], new char[64]};
    private final int[] charCount = new int[2];

    ChunkParser(boolean[] wantedKinds) {
        this.wanted = wantedKinds.clone();
        for (int k = 0; k < KINDS.length; k++) {
            slots[k] = new long[EventPlan.slotCount(KINDS[k]) + 1];
            stringSlots[k] = new String[KINDS[k].fields.length];
        }
    }

    /** @return events delivered by this parser so far */
    long delivered() {
        return delivered;
    }

    /** How the current metadata's events of a kind are decoded; see the class comment. */
    enum Decoder {
        /** Not wanted, or not in the metadata. */
        NONE,
        /** The agent's trace event layout, by straight-line code. */
        TRACE_LAYOUT,
        /** Single varints and bytes, by the flat loop. */
        FLAT,
        /** Anything else, by the op plan. */
        PLAN
    }

    /** The decoder the last chunk's metadata chose for {@code kind} (the op plan for every kind of a chunk with fixed-width integers). */
    Decoder decoderOf(JfrEventKind kind) {
        int k = kind.ordinal();
        if (ops[k] == null) {
            return Decoder.NONE;
        }
        if (!lastCompressed) {
            return Decoder.PLAN;
        }
        return traceLayoutFields[k] != 0 ? Decoder.TRACE_LAYOUT : flatPlans[k] != null ? Decoder.FLAT : Decoder.PLAN;
    }

    /**
     * @param timeHeader the header whose start ticks, start nanos and frequency convert ticks
     */
    void parse(ChunkInput in, ChunkHeader h, ChunkHeader timeHeader, JfrEventSink sink) throws IOException {
        this.startTicks = timeHeader.startTicks();
        this.startNanos = timeHeader.startNanos();
        this.divisor = timeHeader.tickDivisor();
        this.unitDivisor = divisor == 1.0;
        long metadataOffset = h.metadataOffset();
        if (metadataOffset < ChunkHeader.SIZE || metadataOffset >= in.chunkSize) {
            throw in.errorAtChunkOffset(0, "Metadata offset " + metadataOffset + " outside the chunk of " + in.chunkSize + " bytes");
        }
        in.island(metadataOffset, 16);
        long metadataSize = in.readInt();
        if (metadataSize <= 0 || metadataSize > in.chunkSize - metadataOffset) {
            throw in.error(0, "Metadata event size " + metadataSize + " outside the chunk", null);
        }
        in.island(metadataOffset, metadataSize);
        final int metadataStart = 0;
        in.readInt();
        // Consecutive chunks of one recording usually carry the same metadata: when the type
        // system's bytes are identical (a CRC over everything after the metadata id, plus the id
        // and the encoding), reuse the parsed types and compiled plans, as the JDK does by id.
        in.readLong(); // type id, checked by Metadata.read
        in.readLong(); // start time
        in.readLong(); // duration
        long metadataId = in.readLong();
        int bodyStart = Math.min(in.pos, metadataStart + (int) metadataSize);
        CRC32 crc = new CRC32();
        crc.update(in.buf, bodyStart, metadataStart + (int) metadataSize - bodyStart);
        long checksum = crc.getValue();
        Metadata metadata;
        if (lastMetadata != null && metadataId == lastMetadataId && checksum == lastMetadataCrc
                && metadataSize == lastMetadataSize && in.compressed == lastCompressed) {
            metadata = lastMetadata;
        } else {
            in.pos = metadataStart;
            lastMetadata = null;
            try {
                metadata = Metadata.read(in);
            } catch (JfrFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                throw in.error(metadataStart, "Corrupt metadata event: " + e, e);
            }
            compile(metadata, in);
            lastMetadata = metadata;
            lastMetadataId = metadataId;
            lastMetadataCrc = checksum;
            lastMetadataSize = metadataSize;
            lastCompressed = in.compressed;
        }
        poolReader.read(in, h, metadata, constants);
        in.trimIsland();
        try {
            sink.onChunkStart(h, constants);
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
        if (in.compressed) {
            readEventsCompressed(in, sink);
        } else {
            readEvents(in, sink);
        }
        try {
            sink.onChunkEnd(h);
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
    }

    private void compile(Metadata metadata, ChunkInput in) throws JfrFormatException {
        long maxId = -1;
        for (JfrEventKind kind : KINDS) {
            int k = kind.ordinal();
            JfrType t = metadata.byName(kind.eventName());
            typeOfKind[k] = null;
            ops[k] = null;
            flatPlans[k] = null;
            traceLayoutFields[k] = 0;
            if (t != null && wanted[k]) {
                EventPlan plan = EventPlan.compile(kind, t, slots[k].length - 1, in);
                typeOfKind[k] = t;
                ops[k] = plan.ops();
                flatPlans[k] = plan.flat();
                traceLayoutFields[k] = plan.traceLayoutFields();
                maxId = Math.max(maxId, t.id);
            }
            Arrays.fill(slots[k], 0L);
            Arrays.fill(stringSlots[k], null);
        }
        kindByLargeTypeId = null;
        if (maxId < DIRECT_TYPE_IDS) {
            int n = (int) maxId + 1;
            if (kindByTypeId.length < n) {
                kindByTypeId = new int[n];
            }
            Arrays.fill(kindByTypeId, -1);
        } else {
            kindByTypeId = new int[0];
            kindByLargeTypeId = new LongIntMap(KINDS.length);
        }
        for (int k = 0; k < KINDS.length; k++) {
            JfrType t = typeOfKind[k];
            if (t != null) {
                if (kindByLargeTypeId == null) {
                    kindByTypeId[(int) t.id] = k;
                } else {
                    kindByLargeTypeId.put(t.id, k);
                }
            }
        }
    }

    /** The event loop of chunks with fixed-width integers: every event through the op plan. */
    private void readEvents(ChunkInput in, JfrEventSink sink) throws IOException {
        in.window(ChunkHeader.SIZE, 0);
        while (in.base + in.pos < in.chunkSize) {
            if (in.pos + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
                in.window(in.base + in.pos, 0);
            }
            int pos = in.pos;
            long size = in.readInt();
            long left = in.chunkSize - in.base - pos;
            if (size <= 0 || size > left) {
                throw in.error(pos, "Event size " + size + " outside the chunk (" + left + " bytes left)", null);
            }
            long typeId = in.readLong(); // the header is in the window: SLACK bytes from pos are
            int kind = kindOf(typeId);
            if (kind < 0) {
                // skipped by its size, never loaded
                long next = pos + size;
                if (next + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
                    in.window(in.base + next, 0);
                } else {
                    in.pos = (int) next;
                }
                continue;
            }
            if (pos + size + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
                in.window(in.base + pos, size + ChunkInput.SLACK);
                pos = 0;
                in.readInt();
                in.readLong();
            }
            int end = pos + (int) size;
            planEvent(in, kind, end, pos, sink);
            in.pos = end;
        }
    }

    /** The kind of events of type {@code typeId}, or -1 for a type that is not wanted. */
    private int kindOf(long typeId) {
        if (kindByLargeTypeId == null) {
            return typeId >= 0 && typeId < kindByTypeId.length ? kindByTypeId[(int) typeId] : -1;
        }
        return kindByLargeTypeId.get(typeId);
    }

    /**
     * The hot loop for compressed chunks: a local position and plain array reads; one-byte values
     * (most fields) take a shortcut, longer ones the SWAR decoder ({@link ChunkInput#varint},
     * {@link ChunkInput#varintLength}: one 8-byte load, no per-byte loop). Measured here, this beats
     * both a byte-at-a-time loop and SWAR for every field (whose longer dependency chain costs
     * more than the one-byte branch mispredicts), and a variant that first found every varint end
     * of the event with a stop-bit mask. Positions are in the current window; {@code base} is its
     * chunk offset.
     */
    private void readEventsCompressed(ChunkInput in, JfrEventSink sink) throws IOException {
        final int[] direct = kindByTypeId;
        final LongIntMap large = kindByLargeTypeId;
        final long chunkSize = in.chunkSize;
        in.window(ChunkHeader.SIZE, 0);
        byte[] b = in.buf;
        int limit = in.limit;
        long base = in.base;
        int pos = 0;
        while (base + pos < chunkSize) {
            if (pos + ChunkInput.SLACK > limit && base + limit < chunkSize) {
                in.window(base + pos, 0);
                b = in.buf;
                limit = in.limit;
                base = in.base;
                pos = 0;
            }
            int p = pos;
            long size;
            byte x = b[p];
            if (x >= 0) {
                size = x;
                p++;
            } else {
                size = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
            long left = chunkSize - base - pos;
            if (size <= 0 || size > left) {
                throw in.error(pos, "Event size " + size + " outside the chunk (" + left + " bytes left)", null);
            }
            // The header (size and type id, at most 18 bytes) is in the window: SLACK bytes from pos are.
            long typeId;
            x = b[p];
            if (x >= 0) {
                typeId = x;
                p++;
            } else {
                typeId = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
            int kind;
            if (large == null) {
                kind = typeId >= 0 && typeId < direct.length ? direct[(int) typeId] : -1;
            } else {
                kind = large.get(typeId);
            }
            if (kind < 0) {
                // Skipped by its size, never loaded: a chunk's constant pools can be one event of 70 MB.
                long next = pos + size;
                if (next + ChunkInput.SLACK > limit && base + limit < chunkSize) {
                    in.window(base + next, 0);
                    b = in.buf;
                    limit = in.limit;
                    base = in.base;
                    pos = 0;
                } else {
                    pos = (int) next;
                }
                continue;
            }
            if (pos + size + ChunkInput.SLACK > limit && base + limit < chunkSize) {
                // The event crosses the window: move the window to it (grown if the event is larger).
                in.window(base + pos, size + ChunkInput.SLACK);
                b = in.buf;
                limit = in.limit;
                base = in.base;
                p -= pos;
                pos = 0;
            }
            int end = pos + (int) size;
            EventPlan.Flat plan = flatPlans[kind];
            if (traceLayoutFields[kind] != 0) {
                traceEvent(in, b, p, pos, end, kind, sink);
            } else if (plan != null) {
                flatEvent(in, b, p, pos, end, kind, plan, sink);
            } else {
                in.pos = p;
                planEvent(in, kind, end, pos, sink);
            }
            pos = end;
        }
    }

    private static final int METHOD_ENTRY = JfrEventKind.METHOD_ENTRY.ordinal();
    private static final int METHOD_EXIT = JfrEventKind.METHOD_EXIT.ordinal();
    private static final int LOCK_ACQUIRE = JfrEventKind.LOCK_ACQUIRE.ordinal();
    private static final int LOCK_RELEASE = JfrEventKind.LOCK_RELEASE.ordinal();
    private static final int OBJECT_ALLOC = JfrEventKind.OBJECT_ALLOC.ordinal();

    // Each decoder's event method decodes and delivers: the JIT then compiles the decoder and the
    // dispatch together and keeps the decoded values in registers up to the sink call, which it
    // cannot do across the event loop, too large to take them in (docs/decisions.md).

    /**
     * An event of the agent's trace layout ({@link #traceLayoutFields}: start time, duration,
     * thread, stack trace, then two or four own fields, each one varint or, for {@code
     * MethodExit.exceptional}, a byte), the bulk of a recording made with {@code methods=events}.
     * Decoded into locals and handed to the sink by its own small dispatch over the five trace
     * kinds instead of through the slots and {@link #deliver}: the values then never leave
     * registers (docs/decisions.md, "Straight-line decoding of the agent's events, each decoder delivering itself"). Reads use the chunk limit, not the event end: a field that
     * overruns is caught before anything is delivered.
     */
    private void traceEvent(ChunkInput in, byte[] b, int p, int pos, int end, int kind, JfrEventSink sink)
            throws JfrFormatException {
        long start;
        long thread;
        long f0;
        long f1;
        long f2 = 0;
        long f3 = 0;
        byte x = b[p];
        if (x >= 0) {
            start = x;
            p++;
        } else {
            start = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        x = b[p]; // duration: not used for trace events
        p += x >= 0 ? 1 : ChunkInput.varintLength(b, p);
        x = b[p];
        if (x >= 0) {
            thread = x;
            p++;
        } else {
            thread = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        x = b[p]; // stack trace: not used
        p += x >= 0 ? 1 : ChunkInput.varintLength(b, p);
        x = b[p];
        if (x >= 0) {
            f0 = x;
            p++;
        } else {
            f0 = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        x = b[p];
        if (x >= 0) {
            f1 = x;
            p++;
        } else {
            f1 = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        if (traceLayoutFields[kind] == 4) {
            x = b[p];
            if (kind == METHOD_EXIT) {
                f2 = x; // MethodExit.exceptional: one byte
                p++;
            } else if (x >= 0) {
                f2 = x;
                p++;
            } else {
                f2 = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
            x = b[p];
            if (x >= 0) {
                f3 = x;
                p++;
            } else {
                f3 = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
        }
        checkEnd(in, p, pos, end, kind);
        long t = toNanos(start);
        try {
            // The casts and argument orders of deliver's methodEntry ... objectAlloc.
            if (kind == METHOD_ENTRY) {
                sink.onMethodEntry(thread, t, (int) f0, f1);
            } else if (kind == METHOD_EXIT) {
                sink.onMethodExit(thread, t, (int) f0, (int) f1, f2 != 0, f3);
            } else if (kind == LOCK_ACQUIRE) {
                sink.onLockAcquire(thread, t, f0, (int) f1, (int) f2, f3);
            } else if (kind == LOCK_RELEASE) {
                sink.onLockRelease(thread, t, f0, (int) f1, (int) f2, f3);
            } else if (kind == OBJECT_ALLOC) {
                sink.onObjectAlloc(thread, t, f0, (int) f1, (int) f2, f3);
            } else {
                throw new IllegalStateException("no trace-layout delivery for " + KINDS[kind].name());
            }
        } catch (SinkFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
        delivered++;
    }

    /** An event of single varints and bytes, by {@link #decodeFlat}. */
    private void flatEvent(ChunkInput in, byte[] b, int p, int pos, int end, int kind, EventPlan.Flat plan, JfrEventSink sink)
            throws JfrFormatException {
        checkEnd(in, decodeFlat(b, p, plan, slots[kind]), pos, end, kind);
        deliver(kind, sink);
    }

    /** Any other event, at {@code in.pos}, by {@link #decodePlan}. */
    private void planEvent(ChunkInput in, int kind, int end, int pos, JfrEventSink sink) throws JfrFormatException {
        decodePlan(in, kind, end, pos);
        deliver(kind, sink);
    }

    /** Fails when the fields read up to {@code p} overrun the event's declared {@code end}. */
    private void checkEnd(ChunkInput in, int p, int pos, int end, int kind) throws JfrFormatException {
        if (p > end) {
            throw in.error(pos, "Corrupt event " + typeOfKind[kind].name + ": fields overrun its declared end by "
                    + (p - end) + " bytes", null);
        }
    }

    /** Decodes the fields of a {@link EventPlan.Flat} into {@code s}; returns the position after them. */
    private static int decodeFlat(byte[] b, int p, EventPlan.Flat plan, long[] s) {
        final int n = plan.count();
        final long byteMask = plan.byteMask();
        final int[] slotOf = plan.slotOfField();
        for (int i = 0; i < n; i++) {
            byte x = b[p];
            if (x >= 0 || (byteMask >>> i & 1) != 0) {
                s[slotOf[i]] = x;
                p++;
            } else {
                s[slotOf[i]] = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
        }
        return p;
    }

    /** Decodes the event's fields at {@code in.pos} with the op plan into the kind's slots. */
    private void decodePlan(ChunkInput in, int kind, int end, int eventStart) throws JfrFormatException {
        final int[] plan = ops[kind];
        final long[] s = slots[kind];
        charCount[0] = 0; // no records, no name unless this event's plan reads them
        charCount[1] = 0;
        try {
            // Reads use the chunk limit, not the event end, so the unrolled varint path stays
            // hot; a field that overruns its event is caught right after the plan.
            for (int op : plan) {
                switch (op & 0xFF) {
                    case EventPlan.OP_I64 -> s[op >>> 8] = in.readLong();
                    case EventPlan.OP_I32 -> s[op >>> 8] = in.readInt();
                    case EventPlan.OP_TIMESTAMP -> s[op >>> 8] = startNanos + (long) ((in.readLong() - startTicks) / divisor);
                    case EventPlan.OP_TIMESPAN -> s[op >>> 8] = (long) (in.readLong() / divisor);
                    case EventPlan.OP_SKIP_I64 -> in.skipInteger(8);
                    case EventPlan.OP_SKIP_I32 -> in.skipInteger(4);
                    case EventPlan.OP_BYTE -> s[op >>> 8] = in.readByte();
                    case EventPlan.OP_I16 -> s[op >>> 8] = in.readShort();
                    case EventPlan.OP_CHAR -> s[op >>> 8] = in.readChar();
                    case EventPlan.OP_SKIP_I16 -> in.skipInteger(2);
                    case EventPlan.OP_SKIP_1 -> in.skip(1);
                    case EventPlan.OP_STRING -> stringSlots[kind][op >>> 8] = readStringField(in);
                    case EventPlan.OP_CHARS -> readCharsField(in, op >>> 8);
                    case EventPlan.OP_SKIP_FIELD -> Values.skipField(in, typeOfKind[kind].fields[op >>> 8]);
                    default -> throw new IllegalStateException("op " + op);
                }
            }
            if (in.pos > end) {
                throw in.error(eventStart, "Fields overrun the event's declared end by " + (in.pos - end) + " bytes", null);
            }
        } catch (JfrFormatException e) {
            throw new JfrFormatException(in.chunkIndex, in.chunkFileOffset + eventStart,
                    "Corrupt event " + typeOfKind[kind].name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a string field into {@link #chars} without making a String for the inline encodings
     * (MethodBuffer records are inline: char array of varints, or UTF-8 / Latin-1 bytes). The
     * chars are exactly those {@code RecordingFile} would give: a UTF-8 string with a byte of 128
     * or more (never written by the agent) and a constant-pool reference are decoded to a String.
     */
    private void readCharsField(ChunkInput in, int k) throws JfrFormatException {
        int at = in.pos;
        byte encoding = in.readByte();
        switch (encoding) {
            case ChunkInput.STRING_NULL, ChunkInput.STRING_EMPTY -> charCount[k] = 0;
            case ChunkInput.STRING_CHAR_ARRAY -> {
                int n = in.readInt();
                in.require(n, "char-array string"); // each char takes at least one byte
                char[] c = charBuffer(k, n);
                int i = 0;
                if (in.compressed) {
                    // A char below 128 is a one-byte varint: copy those straight (all of a
                    // MethodBuffer's chars are), decode the rest one by one.
                    byte[] b = in.buf;
                    int p = in.pos;
                    int max = Math.min(n, in.limit - p);
                    while (i < max && b[p + i] >= 0) {
                        c[i] = (char) b[p + i];
                        i++;
                    }
                    in.pos = p + i;
                }
                for (; i < n; i++) {
                    c[i] = in.readChar();
                }
                charCount[k] = n;
            }
            case ChunkInput.STRING_LATIN1, ChunkInput.STRING_UTF8 -> {
                int n = in.readInt();
                in.require(n, "string");
                char[] c = charBuffer(k, n);
                byte[] b = in.buf;
                int p = in.pos;
                boolean ascii = true;
                for (int i = 0; i < n; i++) {
                    byte x = b[p + i];
                    ascii &= x >= 0;
                    c[i] = (char) (x & 0xFF);
                }
                charCount[k] = n;
                if (!ascii && encoding == ChunkInput.STRING_UTF8) {
                    copyChars(k, new String(b, p, n, java.nio.charset.StandardCharsets.UTF_8));
                }
                in.pos = p + n;
            }
            case ChunkInput.STRING_CONSTANT_POOL -> copyChars(k, constants.string(in.readLong()));
            default -> throw in.error(at, "Unknown string encoding " + encoding, null);
        }
    }

    private char[] charBuffer(int k, int n) {
        if (chars[k].length < n) {
            chars[k] = new char[Math.max(n, chars[k].length * 2)];
        }
        return chars[k];
    }

    private void copyChars(int k, String s) {
        int n = s == null ? 0 : s.length();
        if (n > 0) {
            s.getChars(0, n, charBuffer(k, n), 0);
        }
        charCount[k] = n;
    }

    /** A string field; a constant-pool reference is resolved in this chunk's pools. */
    private String readStringField(ChunkInput in) throws JfrFormatException {
        int at = in.pos;
        byte encoding = in.readByte();
        return encoding == ChunkInput.STRING_CONSTANT_POOL ? constants.string(in.readLong()) : in.readStringBody(encoding, at);
    }

    private long toNanos(long ticks) {
        long delta = ticks - startTicks;
        // With nanosecond ticks (the usual case) the JDK's double division by 1.0 is exact for
        // |delta| < 2^53 (104 days): skip it, the result is bit-for-bit the same.
        if (unitDivisor && (delta + (1L << 53)) >>> 54 == 0) {
            return startNanos + delta;
        }
        return startNanos + (long) (delta / divisor);
    }

    /**
     * Hands the decoded event of {@code kind} to the sink: the one dispatch over the kinds. Each
     * kind's method knows which sink method it calls with which slots (the kind's fields in the
     * order {@link JfrEventKind} lists them); times as {@code RecordedEvent}: start =
     * convert(start ticks), duration = convert(end ticks) - convert(start ticks). A method per kind
     * keeps this small enough for the JIT to inline into the decoders' event methods.
     */
    private void deliver(int kind, JfrEventSink sink) {
        final long[] s = slots[kind];
        try {
            switch (KINDS[kind]) {
                case METHOD_ENTRY -> methodEntry(s, sink);
                case METHOD_EXIT -> methodExit(s, sink);
                case LOCK_ACQUIRE -> lockAcquire(s, sink);
                case LOCK_RELEASE -> lockRelease(s, sink);
                case OBJECT_ALLOC -> objectAlloc(s, sink);
                case METHOD_BUFFER -> methodBuffer(s, sink);
                case METHOD_DEFINITION -> methodDefinition(s, stringSlots[kind], sink);
                case CLASS_DEFINITION -> classDefinition(s, stringSlots[kind], sink);
                case FIELD_DEFINITION -> sink.onFieldDefinition(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0],
                        stringSlots[kind][2], stringSlots[kind][3], stringSlots[kind][4], s[F1] != 0);
                case EXCEPTION_THROW, EXCEPTION_HANDLED -> sink.onException(s[SLOT_THREAD], toNanos(s[SLOT_START]),
                        KINDS[kind] == JfrEventKind.EXCEPTION_HANDLED, (int) s[F0], (int) s[F1], s[F2], (int) s[F3], s[F4]);
                case OBJECT_DEATH -> sink.onObjectDeath(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], (int) s[F1], s[F2]);
                case ARRAY_LENGTH -> sink.onArrayLength(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], s[F1]);
                case METHOD_RECEIVER -> sink.onMethodReceiver(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], (int) s[F1], s[F2]);
                case REFERENCE_STORE -> sink.onReferenceStore(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], (int) s[F1],
                        (int) s[F2], s[F3], (int) s[F4], s[F0 + 5], (int) s[F6], s[F0 + 7], (int) s[F0 + 8], s[F0 + 9]);
                case GARBAGE_COLLECTION -> garbageCollection(s, sink);
                case GC_PHASE_PAUSE -> gcPhasePause(s, stringSlots[kind], sink);
                case DATA_LOSS -> dataLoss(s, sink);
                case METHOD_TRACE -> methodTrace(s, sink);
                case THREAD_START -> threadStart(s, sink);
                case THREAD_END -> threadEnd(s, sink);
                default -> throw new IllegalStateException(KINDS[kind].name());
            }
        } catch (SinkFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
        delivered++;
    }

    /** methodId, sequence. */
    private void methodEntry(long[] s, JfrEventSink sink) {
        sink.onMethodEntry(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], s[F1]);
    }

    /** methodId, bytecodeIndex, exceptional, sequence. */
    private void methodExit(long[] s, JfrEventSink sink) {
        sink.onMethodExit(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], (int) s[F1], s[F2] != 0, s[F3]);
    }

    /** monitorClass, identityHash, bytecodeIndex, sequence. */
    private void lockAcquire(long[] s, JfrEventSink sink) {
        sink.onLockAcquire(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], (int) s[F1], (int) s[F2], s[F3]);
    }

    /** monitorClass, identityHash, bytecodeIndex, sequence. */
    private void lockRelease(long[] s, JfrEventSink sink) {
        sink.onLockRelease(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], (int) s[F1], (int) s[F2], s[F3]);
    }

    /** objectClass, identityHash, bytecodeIndex, sequence. */
    private void objectAlloc(long[] s, JfrEventSink sink) {
        sink.onObjectAlloc(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], (int) s[F1], (int) s[F2], s[F3]);
    }

    /** tracedThread, firstSequence, recordCount, baseTime, ticksPerSecond, records (chars 0), tracedThreadId, tracedThreadName (chars 1). */
    private void methodBuffer(long[] s, JfrEventSink sink) {
        sink.onMethodBuffer(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], s[F1], (int) s[F2], toNanos(s[F3]), s[F4],
                chars[0], charCount[0], s[F6], chars[1], charCount[1]);
    }

    /** methodId, modifiers, then the strings className, methodName, descriptor, then returnBci (0 when the recording has none). */
    private void methodDefinition(long[] s, String[] str, JfrEventSink sink) {
        sink.onMethodDefinition(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], str[2], str[3], str[4], (int) s[F1],
                (int) s[F0 + 5]);
    }

    /** classId, the string className, instanceSize, elementSize, objectAlignment (0 when the recording has none). */
    private void classDefinition(long[] s, String[] str, JfrEventSink sink) {
        sink.onClassDefinition(s[SLOT_THREAD], toNanos(s[SLOT_START]), (int) s[F0], str[1], (int) s[F0 + 2], (int) s[F0 + 3],
                (int) s[F0 + 4]);
    }

    /** gcId, name, cause (constant-pool keys), sumOfPauses, longestPause. */
    private void garbageCollection(long[] s, JfrEventSink sink) {
        sink.onGarbageCollection(s[SLOT_THREAD], toNanos(s[SLOT_START]), duration(s), s[F0],
                constants.gcName(s[F1]), constants.gcCause(s[F2]), s[F3], s[F4]);
    }

    /** gcId, then the string name. */
    private void gcPhasePause(long[] s, String[] str, JfrEventSink sink) {
        sink.onGcPhasePause(s[SLOT_THREAD], toNanos(s[SLOT_START]), duration(s), s[F0], str[1]);
    }

    /** amount, total. */
    private void dataLoss(long[] s, JfrEventSink sink) {
        sink.onDataLoss(toNanos(s[SLOT_START]), s[F0], s[F1]);
    }

    /** method. */
    private void methodTrace(long[] s, JfrEventSink sink) {
        sink.onMethodTrace(s[SLOT_THREAD], toNanos(s[SLOT_START]), duration(s), s[F0]);
    }

    /** thread, parentThread. */
    private void threadStart(long[] s, JfrEventSink sink) {
        sink.onThreadStart(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0], s[F1]);
    }

    /** thread. */
    private void threadEnd(long[] s, JfrEventSink sink) {
        sink.onThreadEnd(s[SLOT_THREAD], toNanos(s[SLOT_START]), s[F0]);
    }

    private long duration(long[] s) {
        long durationTicks = s[SLOT_DURATION];
        return durationTicks == 0 ? 0 : toNanos(s[SLOT_START] + durationTicks) - toNanos(s[SLOT_START]);
    }

    /**
     * Carries an unchecked exception thrown by the sink through the parser, so that the reader
     * rethrows it unchanged instead of mistaking it for malformed input.
     */
    static final class SinkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SinkFailure(RuntimeException cause) {
            super(cause);
        }

        RuntimeException sinkException() {
            return (RuntimeException) getCause();
        }
    }
}
