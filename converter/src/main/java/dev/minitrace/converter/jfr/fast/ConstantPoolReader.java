package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.util.Arrays;

/**
 * Reads every checkpoint event of a chunk, following the chain that starts at the header's
 * constant-pool offset (each checkpoint's {@code delta} points to the previous one, 0 ends it).
 * All checkpoints are read before any event, because with JDK 14+ flushes an event may refer to a
 * constant that a later checkpoint of the same chunk defines; a pool split over several
 * checkpoints simply accumulates. Only the pools MiniTrace needs are decoded; the rest are
 * skipped by their metadata layout. References between pools (class → symbol, string fields →
 * string pool) are resolved once the whole chain has been read.
 */
final class ConstantPoolReader {
    private static final int POOL_THREAD = 0;
    private static final int POOL_CLASS = 1;
    private static final int POOL_PACKAGE = 2;
    private static final int POOL_METHOD = 3;
    private static final int POOL_SYMBOL = 4;
    private static final int POOL_STRING = 5;
    private static final int POOL_GC_NAME = 6;
    private static final int POOL_GC_CAUSE = 7;
    private static final String[] POOL_TYPES = {"java.lang.Thread", "java.lang.Class", "jdk.types.Package",
        "jdk.types.Method", "jdk.types.Symbol", "java.lang.String", "jdk.types.GCName", "jdk.types.GCCause"};
    /** Per pool kind, the wanted fields: a name, and 'S'tring or 'L'ong column + column index. */
    private static final String[][] POOL_FIELDS = {
        {"osName", "S0", "osThreadId", "L0", "javaName", "S1", "javaThreadId", "L1", "virtual", "L2"},
        {"name", "L0", "package", "L1", "modifiers", "L2"},
        {"name", "L0"},
        {"type", "L0", "name", "L1", "descriptor", "L2", "modifiers", "L3"},
        {"string", "S0"},
        {},
        {"name", "S0"},
        {"cause", "S0"},
    };

    private final long[] longCols = new long[4];
    private final String[] stringCols = new String[2];
    /** Pending string-pool references: pool kind, row, column, key; resolved after the chain. */
    private long[] fixups = new long[64];
    private int fixupCount;

    void read(ChunkInput in, ChunkHeader header, Metadata metadata, ChunkConstants out) throws IOException {
        out.clear();
        out.input = in;
        fixupCount = 0;
        // Per type id: which pool kind it is, and for each of its fields which column (-1 skip).
        int[][] plans = new int[POOL_TYPES.length][];
        long[] poolTypeIds = new long[POOL_TYPES.length];
        for (int k = 0; k < POOL_TYPES.length; k++) {
            JfrType t = metadata.byName(POOL_TYPES[k]);
            poolTypeIds[k] = t == null ? Long.MIN_VALUE : t.id;
            plans[k] = t == null ? null : plan(t, POOL_FIELDS[k]);
        }
        long offset = header.constantPoolOffset();
        int visited = 0;
        while (true) {
            if (offset < ChunkHeader.SIZE || offset >= in.chunkSize) {
                throw in.errorAtChunkOffset(0, "Checkpoint offset " + offset + " outside the chunk of " + in.chunkSize + " bytes");
            }
            if (++visited > in.chunkSize / 8) {
                throw in.errorAtChunkOffset(offset, "Checkpoint chain loops");
            }
            in.island(offset, 16);
            long delta;
            try {
                long size = in.readInt(); // an int: 4 bytes when integers are not compressed
                if (size <= 0 || size > in.chunkSize - offset) {
                    throw in.errorAtChunkOffset(offset, "Checkpoint event size " + size + " outside the chunk");
                }
                // a window at a time: JDK 25 fills checkpoints with the packed records' strings
                in.stream(offset, size);
                in.readInt();
                long typeId = in.readLong();
                if (typeId != 1) {
                    throw in.errorAtChunkOffset(offset, "Expected a checkpoint event (type id 1) but found type id " + typeId);
                }
                in.readLong(); // start time
                in.readLong(); // duration
                delta = in.readLong();
                in.readByte(); // checkpoint type (flush, ...)
                int poolCount = in.readInt();
                in.require(poolCount, "Checkpoint pool count");
                long end = offset + size;
                for (int p = 0; p < poolCount; p++) {
                    readPool(in, metadata, poolTypeIds, plans, out, end);
                }
                if (in.position() != end) {
                    throw in.errorAtChunkOffset(offset, "Checkpoint content ends at " + (in.chunkFileOffset + in.position())
                            + ", not at its declared size " + size);
                }
            } catch (JfrFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new JfrFormatException(in.chunkIndex, in.chunkFileOffset + offset, "Corrupt checkpoint event: " + e, e);
            } finally {
                in.endStream();
            }
            if (delta == 0) {
                break;
            }
            offset += delta;
        }
        resolve(out);
    }

    private static int[] plan(JfrType type, String[] wanted) {
        int[] plan = new int[type.fields.length];
        Arrays.fill(plan, -1);
        for (int w = 0; w < wanted.length; w += 2) {
            int i = type.fieldIndex(wanted[w]);
            if (i < 0) {
                continue;
            }
            JfrType.Field f = type.fields[i];
            boolean wantsString = wanted[w + 1].charAt(0) == 'S';
            boolean isString = !f.array && !f.constantPool && f.type.kind == JfrType.KIND_STRING;
            boolean isLong = f.isIntegral() || (!f.array && f.type.kind == JfrType.KIND_BOOLEAN);
            if (wantsString ? isString : isLong) {
                int col = wanted[w + 1].charAt(1) - '0';
                plan[i] = wantsString ? 0x100 | col : col;
            }
        }
        return plan;
    }

    private void readPool(ChunkInput in, Metadata metadata, long[] poolTypeIds, int[][] plans,
                          ChunkConstants out, long end) throws JfrFormatException {
        long at = in.position();
        long typeId = in.readLong();
        JfrType type = metadata.byId(typeId);
        if (type == null) {
            throw in.errorAtChunkOffset(at, "Constant pool of unknown type id " + typeId);
        }
        int count = in.readInt();
        // Each entry has at least a one-byte key: check before sizing tables for it.
        if (count < 0 || count > end - in.position()) {
            throw in.errorAtChunkOffset(at, "Constant pool " + type.name + " declares " + count
                    + " entries, more than its checkpoint's remaining " + (end - in.position()) + " bytes");
        }
        int kind = -1;
        for (int k = 0; k < poolTypeIds.length; k++) {
            if (poolTypeIds[k] == typeId) {
                kind = k;
            }
        }
        try {
            if (kind < 0) {
                for (int j = 0; j < count; j++) {
                    in.readLong();
                    Values.skipValue(in, type, 0);
                }
                return;
            }
            ensureCapacity(out, kind, count);
            int[] plan = plans[kind];
            for (int j = 0; j < count; j++) {
                long key = in.readLong();
                if (kind == POOL_STRING) {
                    int row = out.strings.rowFor(key);
                    int stringAt = in.pos;
                    byte encoding = in.readByte();
                    if (encoding == ChunkInput.STRING_CONSTANT_POOL) {
                        out.stringText(row, null);
                        addFixup(kind, row, 0, in.readLong());
                    } else {
                        in.readStringPlace(out, row, encoding, stringAt);
                    }
                    continue;
                }
                Arrays.fill(longCols, 0L);
                Arrays.fill(stringCols, null);
                JfrType.Field[] fields = type.fields;
                int refMask = 0;
                long[] refKeys = null;
                for (int i = 0; i < fields.length; i++) {
                    int col = plan[i];
                    if (col < 0) {
                        Values.skipField(in, fields[i]);
                    } else if (col >= 0x100) {
                        int stringAt = in.pos;
                        byte encoding = in.readByte();
                        if (encoding == ChunkInput.STRING_CONSTANT_POOL) {
                            stringCols[col & 0xFF] = null;
                            if (refKeys == null) {
                                refKeys = new long[stringCols.length];
                            }
                            refMask |= 1 << (col & 0xFF);
                            refKeys[col & 0xFF] = in.readLong();
                        } else {
                            stringCols[col & 0xFF] = in.readStringBody(encoding, stringAt);
                        }
                    } else {
                        longCols[col] = Values.readScalarAsLong(in, fields[i]);
                    }
                }
                int row = store(out, kind, key);
                for (int c = 0; refMask != 0 && c < stringCols.length; c++) {
                    if ((refMask & (1 << c)) != 0) {
                        addFixup(kind, row, c, refKeys[c]);
                    }
                }
            }
        } catch (JfrFormatException e) {
            throw new JfrFormatException(in.chunkIndex, in.chunkFileOffset + at,
                    "Corrupt constant pool " + type.name + ": " + e.getMessage(), e);
        }
    }

    private int store(ChunkConstants out, int kind, long key) {
        switch (kind) {
            case POOL_THREAD -> {
                int r = out.threads.rowFor(key);
                out.threadOsName[r] = stringCols[0];
                out.threadOsId[r] = longCols[0];
                out.threadJavaName[r] = stringCols[1];
                out.threadJavaId[r] = longCols[1];
                out.threadVirtual[r] = longCols[2] != 0;
                return r;
            }
            case POOL_CLASS -> {
                int r = out.classes.rowFor(key);
                out.classNameRef[r] = longCols[0];
                out.classPackageRef[r] = longCols[1];
                out.classModifiers[r] = (int) longCols[2];
                return r;
            }
            case POOL_PACKAGE -> {
                int r = out.packages.rowFor(key);
                out.packageNameRef[r] = longCols[0];
                return r;
            }
            case POOL_METHOD -> {
                int r = out.methods.rowFor(key);
                out.methodClassRef[r] = longCols[0];
                out.methodNameRef[r] = longCols[1];
                out.methodDescriptorRef[r] = longCols[2];
                out.methodModifiers[r] = (int) longCols[3];
                return r;
            }
            case POOL_SYMBOL -> {
                int r = out.symbols.rowFor(key);
                out.symbol[r] = stringCols[0];
                return r;
            }
            case POOL_GC_NAME -> {
                int r = out.gcNames.rowFor(key);
                out.gcName[r] = stringCols[0];
                return r;
            }
            case POOL_GC_CAUSE -> {
                int r = out.gcCauses.rowFor(key);
                out.gcCause[r] = stringCols[0];
                return r;
            }
            default -> throw new IllegalStateException("pool kind " + kind);
        }
    }

    /** Grows the columns of one table so that {@code more} new rows fit. */
    private static void ensureCapacity(ChunkConstants out, int kind, int more) {
        switch (kind) {
            case POOL_THREAD -> {
                int n = out.threads.capacityNeeded(more);
                if (n > out.threadOsId.length) {
                    n = grow(out.threadOsId.length, n);
                    out.threadOsName = Arrays.copyOf(out.threadOsName, n);
                    out.threadJavaName = Arrays.copyOf(out.threadJavaName, n);
                    out.threadOsId = Arrays.copyOf(out.threadOsId, n);
                    out.threadJavaId = Arrays.copyOf(out.threadJavaId, n);
                    out.threadVirtual = Arrays.copyOf(out.threadVirtual, n);
                }
            }
            case POOL_CLASS -> {
                int n = out.classes.capacityNeeded(more);
                if (n > out.classNameRef.length) {
                    n = grow(out.classNameRef.length, n);
                    out.classNameRef = Arrays.copyOf(out.classNameRef, n);
                    out.classPackageRef = Arrays.copyOf(out.classPackageRef, n);
                    out.classModifiers = Arrays.copyOf(out.classModifiers, n);
                    out.className = Arrays.copyOf(out.className, n);
                }
            }
            case POOL_PACKAGE -> {
                int n = out.packages.capacityNeeded(more);
                if (n > out.packageNameRef.length) {
                    out.packageNameRef = Arrays.copyOf(out.packageNameRef, grow(out.packageNameRef.length, n));
                }
            }
            case POOL_METHOD -> {
                int n = out.methods.capacityNeeded(more);
                if (n > out.methodClassRef.length) {
                    n = grow(out.methodClassRef.length, n);
                    out.methodClassRef = Arrays.copyOf(out.methodClassRef, n);
                    out.methodNameRef = Arrays.copyOf(out.methodNameRef, n);
                    out.methodDescriptorRef = Arrays.copyOf(out.methodDescriptorRef, n);
                    out.methodModifiers = Arrays.copyOf(out.methodModifiers, n);
                }
            }
            case POOL_SYMBOL -> {
                int n = out.symbols.capacityNeeded(more);
                if (n > out.symbol.length) {
                    out.symbol = Arrays.copyOf(out.symbol, grow(out.symbol.length, n));
                }
            }
            case POOL_STRING -> {
                int n = out.strings.capacityNeeded(more);
                if (n > out.string.length) {
                    int m = grow(out.string.length, n);
                    out.string = Arrays.copyOf(out.string, m);
                    out.stringEncoding = Arrays.copyOf(out.stringEncoding, m);
                    out.stringAt = Arrays.copyOf(out.stringAt, m);
                    out.stringChars = Arrays.copyOf(out.stringChars, m);
                    out.stringBytes = Arrays.copyOf(out.stringBytes, m);
                }
            }
            case POOL_GC_NAME -> {
                int n = out.gcNames.capacityNeeded(more);
                if (n > out.gcName.length) {
                    out.gcName = Arrays.copyOf(out.gcName, grow(out.gcName.length, n));
                }
            }
            case POOL_GC_CAUSE -> {
                int n = out.gcCauses.capacityNeeded(more);
                if (n > out.gcCause.length) {
                    out.gcCause = Arrays.copyOf(out.gcCause, grow(out.gcCause.length, n));
                }
            }
            default -> throw new IllegalStateException("pool kind " + kind);
        }
    }

    private static int grow(int current, int needed) {
        return Math.max(needed, current + (current >> 1));
    }

    private void addFixup(int kind, int row, int column, long key) {
        if (fixupCount + 4 > fixups.length) {
            fixups = Arrays.copyOf(fixups, fixups.length * 2);
        }
        fixups[fixupCount++] = kind;
        fixups[fixupCount++] = row;
        fixups[fixupCount++] = column;
        fixups[fixupCount++] = key;
    }

    private void resolve(ChunkConstants out) {
        for (int i = 0; i < fixupCount; i += 4) {
            int kind = (int) fixups[i];
            int row = (int) fixups[i + 1];
            int column = (int) fixups[i + 2];
            String s = out.string(fixups[i + 3]);
            switch (kind) {
                case POOL_THREAD -> {
                    if (column == 0) {
                        out.threadOsName[row] = s;
                    } else {
                        out.threadJavaName[row] = s;
                    }
                }
                case POOL_SYMBOL -> out.symbol[row] = s;
                case POOL_STRING -> out.stringText(row, s);
                case POOL_GC_NAME -> out.gcName[row] = s;
                case POOL_GC_CAUSE -> out.gcCause[row] = s;
                default -> { }
            }
        }
        for (int r = 0; r < out.classes.rows; r++) {
            String name = out.symbol(out.classNameRef[r]);
            // RecordedClass.getName() shows binary names with dots; the symbol has slashes.
            out.className[r] = name == null ? null : name.replace('/', '.');
        }
    }
}
