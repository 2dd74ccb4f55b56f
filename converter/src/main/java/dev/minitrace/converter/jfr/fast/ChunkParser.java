package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.LongIntMap;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Parses one chunk held in memory: metadata, then all constant pools, then the events in file
 * order. Per chunk it maps the numeric type id of each wanted event to a compiled field plan
 * (from the metadata, never a hard-coded layout); every other event is skipped by its size
 * prefix without being decoded. One instance per thread; it reuses its tables across chunks.
 */
final class ChunkParser {
    // Plan op codes (low 8 bits); the slot or field index is in the bits above.
    private static final int OP_I64 = 1;
    private static final int OP_I32 = 2;
    private static final int OP_I16 = 3;
    private static final int OP_CHAR = 4;
    private static final int OP_BYTE = 5;
    private static final int OP_TIMESTAMP = 6;
    private static final int OP_TIMESPAN = 7;
    private static final int OP_STRING = 8;
    private static final int OP_SKIP_I64 = 9;
    private static final int OP_SKIP_I32 = 10;
    private static final int OP_SKIP_I16 = 11;
    private static final int OP_SKIP_1 = 12;
    private static final int OP_SKIP_FIELD = 13;
    private static final int OP_CHARS = 14;

    /** Slots common to all kinds: start time, duration, event thread. */
    private static final int SLOT_START = 0;
    private static final int SLOT_DURATION = 1;
    private static final int SLOT_THREAD = 2;
    private static final int FIRST_FIELD_SLOT = 3;

    private static final JfrEventKind[] KINDS = JfrEventKind.values();

    static {
        // deliverFast switches on these ordinals as constants: keep them in step with the enum.
        if (JfrEventKind.METHOD_ENTRY.ordinal() != 0 || JfrEventKind.METHOD_EXIT.ordinal() != 1
                || JfrEventKind.LOCK_ACQUIRE.ordinal() != 2 || JfrEventKind.LOCK_RELEASE.ordinal() != 3
                || JfrEventKind.OBJECT_ALLOC.ordinal() != 4) {
            throw new ExceptionInInitializerError("JfrEventKind order changed; update ChunkParser.deliverFast");
        }
    }
    private static final int DIRECT_TYPE_IDS = 1 << 16;

    private final boolean[] wanted;
    private final ConstantPoolReader poolReader = new ConstantPoolReader();
    private final ChunkConstants constants = new ChunkConstants();

    // Per chunk state.
    private int[] kindByTypeId = new int[0];
    private LongIntMap kindByLargeTypeId;
    private final int[][] ops = new int[KINDS.length][];
    /**
     * Per kind, the flat plan for compressed chunks, or null when a field needs more than one
     * varint or byte (strings, arrays, nested values, tick spans): fields are decoded in order into
     * {@link #fields}, and {@code fieldOfSlot} says which field holds each slot.
     */
    private final FastPlan[] fastPlans = new FastPlan[KINDS.length];
    /** Decoded fields of the current event; the last cell stays 0 and stands for a missing field. */
    private final long[] fields = new long[MAX_FAST_FIELDS + 1];
    private static final int MAX_FAST_FIELDS = 63;

    /** Flat field plan: how many fields, which are single bytes, where each slot's value is. */
    private record FastPlan(int count, long byteMask, int[] fieldOfSlot) {
    }
    /**
     * Per kind, true when the chunk's metadata gives the minitrace trace event exactly the layout
     * the agent's event classes have (start time, duration, thread, stack trace, then the kind's
     * fields in declaration order, each a single varint or, for {@code exceptional}, a byte): such
     * events are decoded by straight-line code ({@link #decodeTraceEvent}) instead of the plan
     * loop. Checked against the compiled plan once per metadata, so any other layout still works.
     */
    private final boolean[] straight = new boolean[KINDS.length];
    /** False to decode every event with the plan loop (tests compare both paths). */
    boolean straightDecoding = true;
    /** Events decoded by {@link #decodeTraceEvent}. */
    long straightDecoded;
    private final JfrType[] typeOfKind = new JfrType[KINDS.length];
    private final long[][] slots = new long[KINDS.length][];
    private final String[][] stringSlots = new String[KINDS.length][];
    private Metadata lastMetadata;
    private long lastMetadataId;
    private long lastMetadataCrc;
    private long lastMetadataSize;
    private boolean lastCompressed;
    private long startTicks;
    private long startNanos;
    private double divisor;
    private boolean unitDivisor;
    private long delivered;
    /**
     * The chars of the string fields read with {@link #OP_CHARS} (MethodBuffer: 0 = records, 1 =
     * traced thread name), reused from event to event.
     */
    private final char[][] chars = {new char[256], new char[64]};
    private final int[] charCount = new int[2];

    ChunkParser(boolean[] wantedKinds) {
        this.wanted = wantedKinds.clone();
        for (int k = 0; k < KINDS.length; k++) {
            slots[k] = new long[FIRST_FIELD_SLOT + KINDS[k].fields.length];
            stringSlots[k] = new String[KINDS[k].fields.length];
        }
    }

    /** @return events delivered by this parser so far */
    long delivered() {
        return delivered;
    }

    /**
     * @param timeHeader the header whose start ticks, start nanos and frequency convert ticks
     *                   (see {@link TimeBase})
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
            JfrType t = metadata.byName(kind.eventName());
            typeOfKind[kind.ordinal()] = null;
            ops[kind.ordinal()] = null;
            fastPlans[kind.ordinal()] = null;
            if (t != null && wanted[kind.ordinal()]) {
                typeOfKind[kind.ordinal()] = t;
                ops[kind.ordinal()] = compile(kind, t, in);
                fastPlans[kind.ordinal()] = fastPlan(ops[kind.ordinal()], slots[kind.ordinal()].length);
                maxId = Math.max(maxId, t.id);
            }
            straight[kind.ordinal()] = straightDecoding && isStraightLayout(kind.ordinal(), fastPlans[kind.ordinal()]);
            Arrays.fill(slots[kind.ordinal()], 0L);
            Arrays.fill(stringSlots[kind.ordinal()], null);
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

    private static int[] compile(JfrEventKind kind, JfrType type, ChunkInput in) throws JfrFormatException {
        int[] plan = new int[type.fields.length];
        for (int i = 0; i < type.fields.length; i++) {
            JfrType.Field f = type.fields[i];
            int slot = -1;
            boolean wantsString = false;
            boolean wantsChars = false;
            switch (f.name) {
                case "startTime" -> slot = SLOT_START;
                case "duration" -> slot = SLOT_DURATION;
                case "eventThread" -> slot = SLOT_THREAD;
                default -> {
                    for (int j = 0; j < kind.fields.length; j++) {
                        String name = kind.fields[j];
                        boolean s = name.charAt(0) == '$';
                        boolean c = name.charAt(0) == '%';
                        if ((s || c ? name.substring(1) : name).equals(f.name)) {
                            slot = FIRST_FIELD_SLOT + j;
                            wantsString = s;
                            wantsChars = c;
                        }
                    }
                }
            }
            plan[i] = slot < 0 ? skipOp(f, i) : readOp(kind, type, f, slot, wantsString || wantsChars, in);
            if (wantsChars) {
                int buffer = 0; // the n-th '%' field of the kind goes to buffer n
                for (int j = 0; j < slot - FIRST_FIELD_SLOT; j++) {
                    buffer += kind.fields[j].charAt(0) == '%' ? 1 : 0;
                }
                plan[i] = OP_CHARS | (buffer << 8);
            }
        }
        return plan;
    }

    /** The plans {@link #decodeTraceEvent} assumes: fields 0..3 = start, duration, thread, stack trace; then the kind's. */
    private static final int[] TRACE_FIELDS_2 = {0, 1, 2, 4, 5};
    private static final int[] TRACE_FIELDS_4 = {0, 1, 2, 4, 5, 6, 7};

    private static boolean isStraightLayout(int kind, FastPlan p) {
        if (p == null || kind > 4) {
            return false;
        }
        if (kind == 0) {
            return p.count == 6 && p.byteMask == 0 && Arrays.equals(p.fieldOfSlot, TRACE_FIELDS_2);
        }
        long mask = kind == 1 ? 1L << 6 : 0; // MethodExit.exceptional is a boolean: one byte
        return p.count == 8 && p.byteMask == mask && Arrays.equals(p.fieldOfSlot, TRACE_FIELDS_4);
    }

    private static FastPlan fastPlan(int[] plan, int slotCount) {
        if (plan.length > MAX_FAST_FIELDS) {
            return null;
        }
        int[] fieldOfSlot = new int[slotCount];
        Arrays.fill(fieldOfSlot, MAX_FAST_FIELDS); // the always-zero cell
        long byteMask = 0;
        for (int i = 0; i < plan.length; i++) {
            int op = plan[i];
            switch (op & 0xFF) {
                // int and long values are delivered with the same casts the slow path applies
                case OP_I64, OP_I32 -> fieldOfSlot[op >>> 8] = i;
                case OP_SKIP_I64, OP_SKIP_I32, OP_SKIP_I16 -> { }
                case OP_BYTE -> {
                    fieldOfSlot[op >>> 8] = i;
                    byteMask |= 1L << i;
                }
                case OP_SKIP_1 -> byteMask |= 1L << i;
                default -> {
                    return null;
                }
            }
        }
        return new FastPlan(plan.length, byteMask, fieldOfSlot);
    }

    private static int skipOp(JfrType.Field f, int fieldIndex) {
        if (f.array) {
            return OP_SKIP_FIELD | (fieldIndex << 8);
        }
        if (f.constantPool) {
            return OP_SKIP_I64;
        }
        return switch (f.type.kind) {
            case JfrType.KIND_LONG -> OP_SKIP_I64;
            case JfrType.KIND_INT -> OP_SKIP_I32;
            case JfrType.KIND_SHORT, JfrType.KIND_CHAR -> OP_SKIP_I16;
            case JfrType.KIND_BOOLEAN, JfrType.KIND_BYTE -> OP_SKIP_1;
            default -> OP_SKIP_FIELD | (fieldIndex << 8);
        };
    }

    private static int readOp(JfrEventKind kind, JfrType type, JfrType.Field f, int slot, boolean wantsString,
                              ChunkInput in) throws JfrFormatException {
        if (wantsString) {
            if (f.array || f.constantPool || f.type.kind != JfrType.KIND_STRING) {
                throw in.error(0, "Event " + type.name + " field " + f + " is not a string as " + kind + " expects", null);
            }
            return OP_STRING | ((slot - FIRST_FIELD_SLOT) << 8);
        }
        if (!f.isIntegral() && !(f.type.kind == JfrType.KIND_BOOLEAN && !f.array)) {
            throw in.error(0, "Event " + type.name + " field " + f + " is not an integer as " + kind + " expects", null);
        }
        if (slot == SLOT_START || slot == SLOT_DURATION
                || (kind == JfrEventKind.METHOD_BUFFER && f.name.equals("baseTime") && f.type.kind == JfrType.KIND_LONG)) {
            // Raw ticks: RecordedEvent derives both from the start and end ticks (see deliver).
            // MethodBuffer's baseTime is converted on delivery whether or not the metadata marks
            // it a tick timestamp, as the reference engine converts it from its raw value.
            return OP_I64 | (slot << 8);
        }
        if (f.ticks == JfrType.Field.TICKS_TIMESTAMP) {
            return OP_TIMESTAMP | (slot << 8);
        }
        if (f.ticks == JfrType.Field.TICKS_TIMESPAN) {
            return OP_TIMESPAN | (slot << 8);
        }
        if (f.constantPool) {
            return OP_I64 | (slot << 8);
        }
        int code = switch (f.type.kind) {
            case JfrType.KIND_LONG -> OP_I64;
            case JfrType.KIND_INT -> OP_I32;
            case JfrType.KIND_SHORT -> OP_I16;
            case JfrType.KIND_CHAR -> OP_CHAR;
            default -> OP_BYTE;
        };
        return code | (slot << 8);
    }

    /** The general event loop (fixed-width integers): every event through {@link #readEvent}. */
    private void readEvents(ChunkInput in, JfrEventSink sink) throws IOException {
        in.window(ChunkHeader.SIZE, 0);
        while (in.base + in.pos < in.chunkSize) {
            if (in.pos + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
                in.window(in.base + in.pos, 0);
            }
            readEvent(in, sink);
        }
    }

    /**
     * The hot loop for compressed chunks: a local position and plain array reads; one-byte values
     * (most fields) take a shortcut, longer ones the SWAR decoder ({@link ChunkInput#varint},
     * {@link ChunkInput#varintLength}: one 8-byte load, no per-byte loop). Measured here, this beats
     * both a byte-at-a-time loop and SWAR for every field (whose longer dependency chain costs
     * more than the one-byte branch mispredicts), and a variant that first found every varint end
     * of the event with a stop-bit mask. Events whose plan has strings or nested values fall back
     * to {@link #decode}. Positions are in the current window; {@code base} is its chunk offset.
     */
    private void readEventsCompressed(ChunkInput in, JfrEventSink sink) throws IOException {
        final int[] direct = kindByTypeId;
        final LongIntMap large = kindByLargeTypeId;
        final long[] f = fields;
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
            {
                FastPlan plan = fastPlans[kind];
                if (straight[kind]) {
                    decodeTraceEvent(in, kind, b, p, end, pos, sink);
                } else if (plan == null) {
                    in.pos = p;
                    decode(in, kind, end, pos, sink);
                } else {
                    final int n = plan.count;
                    final long byteMask = plan.byteMask;
                    for (int i = 0; i < n; i++) {
                        x = b[p];
                        if (x >= 0 || (byteMask >>> i & 1) != 0) {
                            f[i] = x;
                            p++;
                        } else {
                            f[i] = ChunkInput.varint(b, p);
                            p += ChunkInput.varintLength(b, p);
                        }
                    }
                    if (p > end) {
                        throw overrun(in, kind, pos, p - end);
                    }
                    deliverFast(kind, f, plan.fieldOfSlot, sink);
                }
                delivered++;
            }
            pos = end;
        }
    }

    /**
     * Decodes a minitrace trace event of the layout {@link #isStraightLayout} checked, with one
     * local per field and no plan: the values go straight to the sink. Each field is a varint
     * (one byte taken directly, longer ones by {@link ChunkInput#varint}), except MethodExit's
     * {@code exceptional}, a byte.
     */
    private void decodeTraceEvent(ChunkInput in, int kind, byte[] b, int p, int end, int pos, JfrEventSink sink)
            throws JfrFormatException {
        long start;
        long thread;
        long a;
        long c;
        long d = 0;
        long e = 0;
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
            a = x;
            p++;
        } else {
            a = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        x = b[p];
        if (x >= 0) {
            c = x;
            p++;
        } else {
            c = ChunkInput.varint(b, p);
            p += ChunkInput.varintLength(b, p);
        }
        if (kind != 0) {
            x = b[p];
            if (kind == 1) {
                d = x; // exceptional
                p++;
            } else if (x >= 0) {
                d = x;
                p++;
            } else {
                d = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
            x = b[p];
            if (x >= 0) {
                e = x;
                p++;
            } else {
                e = ChunkInput.varint(b, p);
                p += ChunkInput.varintLength(b, p);
            }
        }
        if (p > end) {
            throw overrun(in, kind, pos, p - end);
        }
        long t = toNanos(start);
        straightDecoded++;
        try {
            // the same casts as deliverFastUnchecked
            switch (kind) {
                case 0 -> sink.onMethodEntry(thread, t, (int) a, c);
                case 1 -> sink.onMethodExit(thread, t, (int) a, (int) c, d != 0, e);
                case 2 -> sink.onLockAcquire(thread, t, a, (int) c, (int) d, e);
                case 3 -> sink.onLockRelease(thread, t, a, (int) c, (int) d, e);
                default -> sink.onObjectAlloc(thread, t, a, (int) c, (int) d, e);
            }
        } catch (SinkFailure f) {
            throw f;
        } catch (RuntimeException f) {
            throw new SinkFailure(f);
        }
    }

    /** Reads (or skips) the event at {@code in.pos} with the general decoder, leaving {@code in.pos} at its end. */
    private void readEvent(ChunkInput in, JfrEventSink sink) throws IOException {
        int pos = in.pos;
        long size = in.readInt();
        long left = in.chunkSize - in.base - pos;
        if (size <= 0 || size > left) {
            throw in.error(pos, "Event size " + size + " outside the chunk (" + left + " bytes left)", null);
        }
        long typeId = in.readLong(); // the header is in the window: SLACK bytes from pos are
        int kind;
        if (kindByLargeTypeId == null) {
            kind = typeId >= 0 && typeId < kindByTypeId.length ? kindByTypeId[(int) typeId] : -1;
        } else {
            kind = kindByLargeTypeId.get(typeId);
        }
        if (kind < 0) {
            // skipped by its size, never loaded
            long next = pos + size;
            if (next + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
                in.window(in.base + next, 0);
            } else {
                in.pos = (int) next;
            }
            return;
        }
        if (pos + size + ChunkInput.SLACK > in.limit && !in.atChunkEnd()) {
            in.window(in.base + pos, size + ChunkInput.SLACK);
            pos = 0;
            in.readInt();
            in.readLong();
        }
        int end = pos + (int) size;
        decode(in, kind, end, pos, sink);
        delivered++;
        in.pos = end;
    }

    /** A flat plan decoded one field after the other (events longer than the mask covers). */
    private void decodeSequentially(ChunkInput in, int kind, FastPlan plan, int end, int pos, JfrEventSink sink)
            throws JfrFormatException {
        final long[] f = fields;
        final long byteMask = plan.byteMask;
        for (int i = 0; i < plan.count; i++) {
            f[i] = (byteMask >>> i & 1) != 0 ? in.readByte() : in.readVarLong();
        }
        if (in.pos > end) {
            throw overrun(in, kind, pos, in.pos - end);
        }
        deliverFast(kind, f, plan.fieldOfSlot, sink);
    }

    private JfrFormatException overrun(ChunkInput in, int kind, int pos, int by) {
        return in.error(pos, "Corrupt event " + typeOfKind[kind].name + ": fields overrun its declared end by "
                + by + " bytes", null);
    }

    private void decode(ChunkInput in, int kind, int end, int eventStart, JfrEventSink sink) throws JfrFormatException {
        final int[] plan = ops[kind];
        final long[] s = slots[kind];
        charCount[0] = 0; // no records, no name unless this event's plan reads them
        charCount[1] = 0;
        try {
            // Reads use the chunk limit, not the event end, so the unrolled varint path stays
            // hot; a field that overruns its event is caught right after the plan.
            for (int op : plan) {
                switch (op & 0xFF) {
                    case OP_I64 -> s[op >>> 8] = in.readLong();
                    case OP_I32 -> s[op >>> 8] = in.readInt();
                    case OP_TIMESTAMP -> s[op >>> 8] = startNanos + (long) ((in.readLong() - startTicks) / divisor);
                    case OP_TIMESPAN -> s[op >>> 8] = (long) (in.readLong() / divisor);
                    case OP_SKIP_I64 -> in.skipInteger(8);
                    case OP_SKIP_I32 -> in.skipInteger(4);
                    case OP_BYTE -> s[op >>> 8] = in.readByte();
                    case OP_I16 -> s[op >>> 8] = in.readShort();
                    case OP_CHAR -> s[op >>> 8] = in.readChar();
                    case OP_SKIP_I16 -> in.skipInteger(2);
                    case OP_SKIP_1 -> in.skip(1);
                    case OP_STRING -> stringSlots[kind][op >>> 8] = readStringField(in);
                    case OP_CHARS -> readCharsField(in, op >>> 8);
                    case OP_SKIP_FIELD -> Values.skipField(in, typeOfKind[kind].fields[op >>> 8]);
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
        deliver(kind, s, sink);
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

    private String readStringField(ChunkInput in) throws JfrFormatException {
        String v = in.readString();
        return in.stringWasRef ? constants.string(in.lastStringRef) : v;
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

    /** Like {@link #deliver}, reading slot values from the decoded fields through {@code ix}. */
    private void deliverFast(int kind, long[] f, int[] ix, JfrEventSink sink) {
        try {
            deliverFastUnchecked(kind, f, ix, sink);
        } catch (SinkFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
    }

    private void deliverFastUnchecked(int kind, long[] f, int[] ix, JfrEventSink sink) {
        long startTicksOfEvent = f[ix[SLOT_START]];
        long start = toNanos(startTicksOfEvent);
        long thread = f[ix[SLOT_THREAD]];
        switch (kind) { // ordinals of JfrEventKind, checked in the static initializer
            case 0 -> sink.onMethodEntry(thread, start, (int) f[ix[3]], f[ix[4]]);
            case 1 -> sink.onMethodExit(thread, start, (int) f[ix[3]], (int) f[ix[4]], f[ix[5]] != 0, f[ix[6]]);
            case 2 -> sink.onLockAcquire(thread, start, f[ix[3]], (int) f[ix[4]], (int) f[ix[5]], f[ix[6]]);
            case 3 -> sink.onLockRelease(thread, start, f[ix[3]], (int) f[ix[4]], (int) f[ix[5]], f[ix[6]]);
            case 4 -> sink.onObjectAlloc(thread, start, f[ix[3]], (int) f[ix[4]], (int) f[ix[5]], f[ix[6]]);
            default -> {
                // The rarer kinds: copy into their slots and take the general path.
                long[] s = slots[kind];
                for (int k = 0; k < s.length; k++) {
                    s[k] = f[ix[k]];
                }
                deliverUnchecked(kind, s, sink);
            }
        }
    }

    private void deliver(int kind, long[] s, JfrEventSink sink) {
        try {
            deliverUnchecked(kind, s, sink);
        } catch (SinkFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SinkFailure(e);
        }
    }

    private void deliverUnchecked(int kind, long[] s, JfrEventSink sink) {
        // As RecordedEvent: start = convert(startTicks); duration = convert(end) - convert(start).
        long startTicksOfEvent = s[SLOT_START];
        long start = toNanos(startTicksOfEvent);
        long durationTicks = s[SLOT_DURATION];
        long duration = durationTicks == 0 ? 0 : toNanos(startTicksOfEvent + durationTicks) - start;
        switch (KINDS[kind]) {
            case METHOD_ENTRY -> sink.onMethodEntry(s[SLOT_THREAD], start, (int) s[3], s[4]);
            case METHOD_EXIT -> sink.onMethodExit(s[SLOT_THREAD], start, (int) s[3], (int) s[4], s[5] != 0, s[6]);
            case LOCK_ACQUIRE -> sink.onLockAcquire(s[SLOT_THREAD], start, s[3], (int) s[4], (int) s[5], s[6]);
            case LOCK_RELEASE -> sink.onLockRelease(s[SLOT_THREAD], start, s[3], (int) s[4], (int) s[5], s[6]);
            case OBJECT_ALLOC -> sink.onObjectAlloc(s[SLOT_THREAD], start, s[3], (int) s[4], (int) s[5], s[6]);
            case METHOD_DEFINITION -> {
                String[] str = stringSlots[kind];
                sink.onMethodDefinition(s[SLOT_THREAD], start, (int) s[3], str[2], str[3], str[4], (int) s[4]);
            }
            case GARBAGE_COLLECTION -> sink.onGarbageCollection(s[SLOT_THREAD], start, duration, s[3],
                    constants.gcName(s[4]), constants.gcCause(s[5]), s[6], s[7]);
            case GC_PHASE_PAUSE -> sink.onGcPhasePause(s[SLOT_THREAD], start, duration, s[3],
                    stringSlots[kind][1]);
            case DATA_LOSS -> sink.onDataLoss(start, s[3], s[4]);
            case METHOD_TRACE -> sink.onMethodTrace(s[SLOT_THREAD], start, duration, s[3]);
            case THREAD_START -> sink.onThreadStart(s[SLOT_THREAD], start, s[3], s[4]);
            case THREAD_END -> sink.onThreadEnd(s[SLOT_THREAD], start, s[3]);
            case METHOD_BUFFER -> sink.onMethodBuffer(s[SLOT_THREAD], start, s[3], s[4], (int) s[5], toNanos(s[6]), s[7],
                    chars[0], charCount[0], s[9], chars[1], charCount[1]);
            case CLASS_DEFINITION -> sink.onClassDefinition(s[SLOT_THREAD], start, (int) s[3], stringSlots[kind][1]);
            default -> throw new IllegalStateException(KINDS[kind].name());
        }
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
