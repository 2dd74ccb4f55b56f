package dev.minitrace.converter.jfr.fast;

import java.util.Arrays;

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

    /** Slots common to all kinds: start time, duration, event thread. */
    private static final int SLOT_START = 0;
    private static final int SLOT_DURATION = 1;
    private static final int SLOT_THREAD = 2;
    private static final int FIRST_FIELD_SLOT = 3;

    private static final JfrEventKind[] KINDS = JfrEventKind.values();
    private static final int DIRECT_TYPE_IDS = 1 << 16;

    private final boolean[] wanted;
    private final ConstantPoolReader poolReader = new ConstantPoolReader();
    private final ChunkConstants constants = new ChunkConstants();

    // Per chunk state.
    private int[] kindByTypeId = new int[0];
    private LongIntMap kindByLargeTypeId;
    private final int[][] ops = new int[KINDS.length][];
    /** Per kind, the plan for compressed chunks when every field is a varint or a byte; else null. */
    private final int[][] fastOps = new int[KINDS.length][];
    private final JfrType[] typeOfKind = new JfrType[KINDS.length];
    private final long[][] slots = new long[KINDS.length][];
    private final String[][] stringSlots = new String[KINDS.length][];
    private ChunkHeader header;
    private long startTicks;
    private long startNanos;
    private double divisor;
    private boolean unitDivisor;
    private long delivered;

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
    void parse(ChunkInput in, ChunkHeader h, ChunkHeader timeHeader, JfrEventSink sink) throws JfrFormatException {
        this.header = h;
        this.startTicks = timeHeader.startTicks();
        this.startNanos = timeHeader.startNanos();
        this.divisor = timeHeader.tickDivisor();
        this.unitDivisor = divisor == 1.0;
        if (h.metadataOffset() < ChunkHeader.SIZE || h.metadataOffset() >= in.limit) {
            throw in.error(0, "Metadata offset " + h.metadataOffset() + " outside the chunk of " + in.limit + " bytes", null);
        }
        in.pos = (int) h.metadataOffset();
        Metadata metadata;
        try {
            metadata = Metadata.read(in);
        } catch (JfrFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw in.error((int) h.metadataOffset(), "Corrupt metadata event: " + e, e);
        }
        compile(metadata, in);
        poolReader.read(in, h, metadata, constants);
        sink.onChunkStart(h, constants);
        if (in.compressed && in.buf.length >= in.limit + ChunkInput.SLACK) {
            readEventsCompressed(in, sink);
        } else {
            readEvents(in, sink);
        }
        sink.onChunkEnd(h);
    }

    private void compile(Metadata metadata, ChunkInput in) throws JfrFormatException {
        long maxId = -1;
        for (JfrEventKind kind : KINDS) {
            JfrType t = metadata.byName(kind.eventName());
            typeOfKind[kind.ordinal()] = null;
            ops[kind.ordinal()] = null;
            fastOps[kind.ordinal()] = null;
            if (t != null && wanted[kind.ordinal()]) {
                typeOfKind[kind.ordinal()] = t;
                ops[kind.ordinal()] = compile(kind, t, in);
                fastOps[kind.ordinal()] = fastPlan(ops[kind.ordinal()]);
                maxId = Math.max(maxId, t.id);
            }
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
            switch (f.name) {
                case "startTime" -> slot = SLOT_START;
                case "duration" -> slot = SLOT_DURATION;
                case "eventThread" -> slot = SLOT_THREAD;
                default -> {
                    for (int j = 0; j < kind.fields.length; j++) {
                        String name = kind.fields[j];
                        boolean s = name.charAt(0) == '$';
                        if ((s ? name.substring(1) : name).equals(f.name)) {
                            slot = FIRST_FIELD_SLOT + j;
                            wantsString = s;
                        }
                    }
                }
            }
            plan[i] = slot < 0 ? skipOp(f, i) : readOp(kind, type, f, slot, wantsString, in);
        }
        return plan;
    }

    // Fast-plan op codes: every field is one varint (stored with a cast, or skipped) or one byte.
    private static final int F_LONG = 1;
    private static final int F_INT = 2;
    private static final int F_SHORT = 3;
    private static final int F_CHAR = 4;
    private static final int F_SKIP = 5;
    private static final int F_BYTE = 6;
    private static final int F_SKIP_BYTE = 7;

    private static int[] fastPlan(int[] plan) {
        int[] fast = new int[plan.length];
        for (int i = 0; i < plan.length; i++) {
            int op = plan[i];
            int slot = op & ~0xFF;
            int code = switch (op & 0xFF) {
                case OP_I64 -> F_LONG;
                case OP_I32 -> F_INT;
                case OP_I16 -> F_SHORT;
                case OP_CHAR -> F_CHAR;
                case OP_SKIP_I64, OP_SKIP_I32, OP_SKIP_I16 -> F_SKIP;
                case OP_BYTE -> F_BYTE;
                case OP_SKIP_1 -> F_SKIP_BYTE;
                default -> -1;
            };
            if (code < 0) {
                return null;
            }
            fast[i] = code | slot;
        }
        return fast;
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
        if (slot == SLOT_START || slot == SLOT_DURATION) {
            // Raw ticks: RecordedEvent derives both from the start and end ticks (see deliver).
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

    private void readEvents(ChunkInput in, JfrEventSink sink) throws JfrFormatException {
        final int limit = in.limit;
        final int[] direct = kindByTypeId;
        final LongIntMap large = kindByLargeTypeId;
        int pos = ChunkHeader.SIZE;
        long count = 0;
        while (pos < limit) {
            in.pos = pos;
            long size = in.readInt();
            if (size <= 0 || size > limit - pos) {
                throw in.error(pos, "Event size " + size + " outside the chunk (" + (limit - pos) + " bytes left)", null);
            }
            int end = pos + (int) size;
            long typeId = in.readLong();
            int kind;
            if (large == null) {
                kind = typeId >= 0 && typeId < direct.length ? direct[(int) typeId] : -1;
            } else {
                kind = large.get(typeId);
            }
            if (kind >= 0) {
                decode(in, kind, end, pos, sink);
                count++;
            }
            pos = end;
        }
        delivered += count;
    }

    /**
     * The hot loop for compressed chunks: local position, array reads, one varint decoder
     * ({@link ChunkInput#varint}/{@link ChunkInput#varintLength}) inlined for every field. Events
     * whose plan has strings or nested values fall back to {@link #decode}.
     */
    private void readEventsCompressed(ChunkInput in, JfrEventSink sink) throws JfrFormatException {
        final byte[] b = in.buf;
        final int limit = in.limit;
        final int[] direct = kindByTypeId;
        final LongIntMap large = kindByLargeTypeId;
        int pos = ChunkHeader.SIZE;
        long count = 0;
        while (pos < limit) {
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
            if (size <= 0 || size > limit - pos) {
                throw in.error(pos, "Event size " + size + " outside the chunk (" + (limit - pos) + " bytes left)", null);
            }
            int end = pos + (int) size;
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
            if (kind >= 0) {
                int[] plan = fastOps[kind];
                if (plan == null) {
                    in.pos = p;
                    decode(in, kind, end, pos, sink);
                } else {
                    long[] s = slots[kind];
                    for (int op : plan) {
                        int code = op & 0xFF;
                        if (code >= F_BYTE) {
                            if (code == F_BYTE) {
                                s[op >>> 8] = b[p];
                            }
                            p++;
                            continue;
                        }
                        long v;
                        x = b[p];
                        if (x >= 0) {
                            v = x;
                            p++;
                        } else {
                            v = ChunkInput.varint(b, p);
                            p += ChunkInput.varintLength(b, p);
                        }
                        switch (code) {
                            case F_LONG -> s[op >>> 8] = v;
                            case F_INT -> s[op >>> 8] = (int) v;
                            case F_SHORT -> s[op >>> 8] = (short) v;
                            case F_CHAR -> s[op >>> 8] = (char) v;
                            default -> { }
                        }
                    }
                    if (p > end) {
                        throw in.error(pos, "Corrupt event " + typeOfKind[kind].name + ": fields overrun its declared end by "
                                + (p - end) + " bytes", null);
                    }
                    deliver(kind, s, sink);
                }
                count++;
            }
            pos = end;
        }
        delivered += count;
    }

    private void decode(ChunkInput in, int kind, int end, int eventStart, JfrEventSink sink) throws JfrFormatException {
        final int[] plan = ops[kind];
        final long[] s = slots[kind];
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

    private void deliver(int kind, long[] s, JfrEventSink sink) {
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
            default -> throw new IllegalStateException(KINDS[kind].name());
        }
    }
}
