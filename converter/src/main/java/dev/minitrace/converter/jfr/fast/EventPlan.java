package dev.minitrace.converter.jfr.fast;

/**
 * How the events of one kind are decoded under one chunk metadata, compiled from the declared
 * layout (never a hard-coded one): each field's op (read into which slot, or skip), and, when
 * they apply, the flat form (every field one varint or byte) and the agent's trace layout (see
 * {@link ChunkParser}). A slot holds one decoded value: start ticks, duration ticks, thread key,
 * then the kind's own fields in the order {@link JfrEventKind} lists them.
 *
 * @param ops               per field: the op code (low 8 bits) and its slot or field index (above)
 * @param flat              the flat form, or null when a field needs more than one varint or byte
 * @param traceLayoutFields the kind's own fields (2 or 4) when the layout is the agent's trace
 *                          event's; 0 otherwise
 */
record EventPlan(int[] ops, EventPlan.Flat flat, int traceLayoutFields) {
    // Plan op codes (low 8 bits); the slot or field index is in the bits above.
    static final int OP_I64 = 1;
    static final int OP_I32 = 2;
    static final int OP_I16 = 3;
    static final int OP_CHAR = 4;
    static final int OP_BYTE = 5;
    static final int OP_TIMESTAMP = 6;
    static final int OP_TIMESPAN = 7;
    static final int OP_STRING = 8;
    static final int OP_SKIP_I64 = 9;
    static final int OP_SKIP_I32 = 10;
    static final int OP_SKIP_I16 = 11;
    static final int OP_SKIP_1 = 12;
    static final int OP_SKIP_FIELD = 13;
    static final int OP_CHARS = 14;

    /** Slots common to all kinds: start time, duration, event thread (raw ticks and constant-pool key). */
    static final int SLOT_START = 0;
    static final int SLOT_DURATION = 1;
    static final int SLOT_THREAD = 2;
    /** The slots of the kind's own fields, in the order {@link JfrEventKind} lists them. */
    static final int F0 = 3;
    static final int F1 = 4;
    static final int F2 = 5;
    static final int F3 = 6;
    static final int F4 = 7;
    static final int F5 = 8;
    static final int F6 = 9;

    /** The slots of a kind: the three common ones and its own fields. */
    static int slotCount(JfrEventKind kind) {
        return F0 + kind.fields.length;
    }

    /** A flat form records which fields are single bytes in a {@code long} mask. */
    private static final int MAX_FLAT_FIELDS = 64;

    /**
     * A layout of single-varint or single-byte fields: decoded in one loop straight into the
     * kind's slots.
     *
     * @param count       the number of fields
     * @param byteMask    bit i set when field i is one byte (boolean, byte), not a varint
     * @param slotOfField the slot each field goes to (the discard cell for a skipped one)
     */
    record Flat(int count, long byteMask, int[] slotOfField) {
    }

    /**
     * Compiles the plan of {@code kind}, declared as {@code type}; fields no slot takes go to slot
     * {@code discard}.
     *
     * @throws JfrFormatException when a field the kind reads has another type than it expects
     */
    static EventPlan compile(JfrEventKind kind, JfrType type, int discard, ChunkInput in) throws JfrFormatException {
        int[] ops = ops(kind, type, in);
        Flat flat = flatPlan(ops, discard);
        return new EventPlan(ops, flat, traceLayoutFields(kind, flat, discard));
    }

    private static int[] ops(JfrEventKind kind, JfrType type, ChunkInput in) throws JfrFormatException {
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
                            slot = F0 + j;
                            wantsString = s;
                            wantsChars = c;
                        }
                    }
                }
            }
            plan[i] = slot < 0 ? skipOp(f, i) : readOp(kind, type, f, slot, wantsString || wantsChars, in);
            if (wantsChars) {
                int buffer = 0; // the n-th '%' field of the kind goes to buffer n
                for (int j = 0; j < slot - F0; j++) {
                    buffer += kind.fields[j].charAt(0) == '%' ? 1 : 0;
                }
                plan[i] = OP_CHARS | (buffer << 8);
            }
        }
        return plan;
    }

    /** Where the agent's trace events put their fields: start, duration, thread, stack trace (not read), then the kind's own. */
    private static final int[] TRACE_SLOTS_2 = {SLOT_START, SLOT_DURATION, SLOT_THREAD, -1, F0, F1};
    private static final int[] TRACE_SLOTS_4 = {SLOT_START, SLOT_DURATION, SLOT_THREAD, -1, F0, F1, F2, F3};

    /** The own fields {@code ChunkParser.traceEvent} reads for {@code kind} with this plan, or 0 when it does not apply. */
    private static int traceLayoutFields(JfrEventKind kind, Flat p, int discard) {
        if (p == null) {
            return 0;
        }
        return switch (kind) {
            case METHOD_ENTRY -> p.byteMask == 0 && sameSlots(p, TRACE_SLOTS_2, discard) ? 2 : 0;
            // MethodExit.exceptional is a boolean: one byte
            case METHOD_EXIT -> p.byteMask == 1L << 6 && sameSlots(p, TRACE_SLOTS_4, discard) ? 4 : 0;
            case LOCK_ACQUIRE, LOCK_RELEASE, OBJECT_ALLOC -> p.byteMask == 0 && sameSlots(p, TRACE_SLOTS_4, discard) ? 4 : 0;
            default -> 0;
        };
    }

    /** Whether the plan's fields go to the {@code expected} slots (-1: the discard cell). */
    private static boolean sameSlots(Flat p, int[] expected, int discard) {
        if (p.count != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (p.slotOfField[i] != (expected[i] < 0 ? discard : expected[i])) {
                return false;
            }
        }
        return true;
    }

    private static Flat flatPlan(int[] plan, int discard) {
        if (plan.length > MAX_FLAT_FIELDS) {
            return null;
        }
        int[] slotOfField = new int[plan.length];
        long byteMask = 0;
        for (int i = 0; i < plan.length; i++) {
            int op = plan[i];
            switch (op & 0xFF) {
                // int and long values are delivered with the same casts the op plan's are
                case OP_I64, OP_I32 -> slotOfField[i] = op >>> 8;
                case OP_SKIP_I64, OP_SKIP_I32, OP_SKIP_I16 -> slotOfField[i] = discard;
                case OP_BYTE -> {
                    slotOfField[i] = op >>> 8;
                    byteMask |= 1L << i;
                }
                case OP_SKIP_1 -> {
                    slotOfField[i] = discard;
                    byteMask |= 1L << i;
                }
                default -> {
                    return null;
                }
            }
        }
        return new Flat(plan.length, byteMask, slotOfField);
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
            return OP_STRING | ((slot - F0) << 8);
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
}
