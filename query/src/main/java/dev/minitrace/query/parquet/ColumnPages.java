package dev.minitrace.query.parquet;

import dev.minitrace.query.parquet.TableSchema.Encoding;
import dev.minitrace.query.parquet.TableSchema.Kind;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.BooleanStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * One column of a {@link ParquetFile}: values come in a slice at a time from primitive arrays and
 * leave as data pages v1 through parquet-java's own encoders (RLE/bit-packing hybrid for definition
 * levels and dictionary ids, delta binary packing, plain) and its page writer, one column chunk per
 * row group.
 *
 * <p>It stands in for parquet-java's {@code ColumnWriter}, which an export profile showed spending
 * most of its time around the values rather than encoding them: a call chain per value, a
 * dictionary kept in a linked hash map and checked for fallback after every value, and statistics
 * and size histograms updated per value. Here the dictionary is an open-addressing table of
 * primitives, statistics are a min and max per page, and the value encoding is chosen once per
 * column ({@link Encoding}) instead of discovered per row group: a dictionary column that overflows
 * its dictionary falls back to delta encoding for the rest of the file, not just of its chunk.
 */
final class ColumnPages {
    /** A data page ends after the slice that brings it past this many bytes of encoded values... */
    static final int PAGE_BYTES = 512 << 10;
    /** ... or this many rows. */
    static final int PAGE_ROWS = 16 << 10;
    /** A {@link Encoding#REPEATS} column's pages end past this many bytes... */
    static final int REPEAT_PAGE_BYTES = 2 << 20;
    /** ... or this many rows: zstd finds a column's repeats only within one page. */
    static final int REPEAT_PAGE_ROWS = 256 << 10;
    /** A dictionary stops growing past this many bytes of values (parquet-java's page sizes: 256 KB here). */
    static final int DICTIONARY_BYTES = 256 << 10;

    private static final int INITIAL_SLAB = 64 << 10;
    private static final org.apache.parquet.column.Encoding LEVELS = org.apache.parquet.column.Encoding.RLE;

    private final PrimitiveType type;
    private final Kind kind;
    private final boolean statistics;
    private final ByteBufferAllocator allocator;
    private final SizeStatistics noSizes;
    /** Definition levels of the page's values (nullable columns only; null for a required column). */
    private final DefinedBits defined;
    /** The values writer of a non-dictionary page: delta, plain, or RLE for booleans. */
    private final ValuesWriter values;

    private PageWriter pages;

    /** A page ends after the slice that brings it past this many rows or bytes of encoded values. */
    private final int pageRows;
    private final int pageBytes;

    // The dictionary of a DICTIONARY or code column in this chunk, and the page's ids into it.
    private boolean dictionary;
    private final LongIds ids;
    /** The last value looked up and its id; -1: none since the dictionary was last emptied. */
    private long lastValue;
    private int lastId = -1;
    private long[] entries;
    private int[] pageIds;
    private int idCount;
    private Binary[] codes;
    private boolean[] usedCodes;
    private final HybridRuns[] idRuns = new HybridRuns[33];

    // The page in the making.
    private int rows;
    private int nulls;
    private long min;
    private long max;
    private boolean any;
    private boolean seenFalse;
    private boolean seenTrue;
    private BinaryStatistics strings;

    ColumnPages(ColumnDescriptor column, Kind kind, Encoding encoding, ByteBufferAllocator allocator) {
        this.type = column.getPrimitiveType();
        this.kind = kind;
        this.allocator = allocator;
        // min and max of random or repeating values (identity hashes, path hashes, bytecode indexes)
        // let no reader skip anything
        boolean random = encoding.plainValues();
        this.statistics = !random;
        this.noSizes = SizeStatistics.noopBuilder(type, 0, column.getMaxDefinitionLevel()).build();
        this.pageRows = encoding == Encoding.REPEATS ? REPEAT_PAGE_ROWS : PAGE_ROWS;
        this.pageBytes = encoding == Encoding.REPEATS ? REPEAT_PAGE_BYTES : PAGE_BYTES;
        this.defined = column.getMaxDefinitionLevel() > 0 ? new DefinedBits(pageRows + TableWriter.SLICE) : null;
        this.dictionary = encoding == Encoding.DICTIONARY && (kind == Kind.LONG || kind == Kind.INT);
        this.ids = dictionary ? new LongIds() : null;
        this.entries = dictionary ? new long[256] : null;
        this.pageIds = dictionary || kind == Kind.STRING ? new int[PAGE_ROWS + TableWriter.SLICE] : null;
        this.values = switch (kind) {
            case LONG -> random ? new PlainNumbers() : new DeltaBinaryPackingValuesWriterForLong(INITIAL_SLAB, PAGE_BYTES, allocator);
            case INT -> random ? new PlainNumbers() : new DeltaBinaryPackingValuesWriterForInteger(INITIAL_SLAB, PAGE_BYTES, allocator);
            case BOOLEAN -> new RunLengthBitPackingHybridValuesWriter(1, INITIAL_SLAB, PAGE_BYTES, allocator);
            case STRING -> plain();
        };
    }

    private PlainValuesWriter plain() {
        return new PlainValuesWriter(INITIAL_SLAB, PAGE_BYTES, allocator);
    }

    /** A new column chunk (row group) begins; its pages go to {@code pages}. */
    void start(PageWriter pages) {
        this.pages = pages;
    }

    /** {@code v[0, n)}, {@link ParquetFile#NULL_LONG} being null where the column is nullable. */
    void longs(long[] v, int n) {
        room(n);
        if (n > 0 && same(v, n)) {
            repeat(v[0], ParquetFile.NULL_LONG, n);
        } else if (defined == null) {
            for (int i = 0; i < n; i++) {
                put(v[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                long x = v[i];
                if (x == ParquetFile.NULL_LONG) {
                    nulls++;
                } else {
                    defined.set(rows + i);
                    put(x);
                }
            }
        }
        rows += n;
    }

    private void put(long x) {
        value(x);
        if (dictionary) {
            pageIds[idCount++] = id(x);
        } else {
            values.writeLong(x);
        }
    }

    /** {@code v[0, n)}, {@link ParquetFile#NULL_INT} being null where the column is nullable. */
    void ints(int[] v, int n) {
        room(n);
        if (n > 0 && same(v, n)) {
            repeat(v[0], ParquetFile.NULL_INT, n);
        } else if (defined == null) {
            for (int i = 0; i < n; i++) {
                put(v[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                int x = v[i];
                if (x == ParquetFile.NULL_INT) {
                    nulls++;
                } else {
                    defined.set(rows + i);
                    put(x);
                }
            }
        }
        rows += n;
    }

    /**
     * {@code n} rows of value {@code x} ({@code nullValue} being null where the column is nullable).
     * Most columns of a slice hold one value only (the thread, the fragments, the times a trace
     * lacks, the null columns of a family of records): those cost a comparison per row instead of a
     * look-up or an encoder's call per row. The caller counts the rows.
     */
    private void repeat(long x, long nullValue, int n) {
        if (defined != null) {
            if (x == nullValue) {
                nulls += n;
                return;
            }
            defined.set(rows, rows + n);
        }
        if (dictionary) {
            value(x);
            Arrays.fill(pageIds, idCount, idCount + n, id(x));
            idCount += n;
        } else {
            for (int i = 0; i < n; i++) {
                put(x, nullValue);
            }
        }
    }

    private void put(long x, long nullValue) {
        if (nullValue == ParquetFile.NULL_LONG) {
            put(x);
        } else {
            put((int) x);
        }
    }

    private static boolean same(long[] v, int n) {
        long x = v[0];
        for (int i = 1; i < n; i++) {
            if (v[i] != x) {
                return false;
            }
        }
        return true;
    }

    private static boolean same(int[] v, int n) {
        int x = v[0];
        for (int i = 1; i < n; i++) {
            if (v[i] != x) {
                return false;
            }
        }
        return true;
    }

    private void put(int x) {
        value(x);
        if (dictionary) {
            pageIds[idCount++] = id(x);
        } else {
            values.writeInteger(x);
        }
    }

    /** Booleans {@code v[0, n)}: 0 false, 1 true, anything else null. */
    void booleans(byte[] v, int n) {
        room(n);
        for (int i = 0; i < n; i++) {
            byte x = v[i];
            if (x != 0 && x != 1) {
                if (defined != null) {
                    nulls++;
                    continue;
                }
                throw new IllegalArgumentException("null in required column " + type.getName());
            }
            if (defined != null) {
                defined.set(rows + i);
            }
            if (x == 1) {
                seenTrue = true;
            } else {
                seenFalse = true;
            }
            values.writeBoolean(x == 1);
        }
        rows += n;
    }

    /** {@code codes[v[i]]} for {@code i < n}: the page's ids into the dictionary of the codes, which never changes. */
    void codes(byte[] v, Binary[] codes, int n) {
        if (this.codes == null) {
            this.codes = codes;
            this.usedCodes = new boolean[codes.length];
        }
        room(n);
        for (int i = 0; i < n; i++) {
            if (defined != null) {
                defined.set(rows + i);
            }
            int code = v[i];
            pageIds[idCount++] = code;
            usedCodes[code] = true;
        }
        rows += n;
    }

    /** One string value, or null. */
    void string(String s) {
        room(1);
        int row = rows++;
        if (s == null) {
            if (defined == null) {
                throw new IllegalArgumentException("null in required column " + type.getName());
            }
            nulls++;
            return;
        }
        if (defined != null) {
            defined.set(row);
        }
        Binary b = Binary.fromString(s);
        if (strings == null) {
            strings = (BinaryStatistics) Statistics.createStats(type);
        }
        strings.updateStats(b);
        values.writeBytes(b);
    }

    /** Room for {@code n} more ids in the page. */
    private void room(int n) {
        if (pageIds != null && idCount + n > pageIds.length) {
            pageIds = Arrays.copyOf(pageIds, Math.max(idCount + n, 2 * pageIds.length));
        }
        if (defined != null) {
            defined.room(rows + n);
        }
    }

    private void value(long x) {
        if (!any) {
            min = x;
            max = x;
            any = true;
        } else if (x < min) {
            min = x;
        } else if (x > max) {
            max = x;
        }
    }

    /**
     * The dictionary id of {@code x}. Many columns repeat their last value (the thread, the
     * fragment, the method of a thread's consecutive records), and that costs no lookup.
     */
    private int id(long x) {
        if (x == lastValue && lastId >= 0) {
            return lastId;
        }
        lastValue = x;
        lastId = ids.id(x, this);
        return lastId;
    }

    /** The dictionary's entry {@code id} is {@code x} (a new entry). */
    void entry(int id, long x) {
        if (id == entries.length) {
            entries = Arrays.copyOf(entries, id * 2);
        }
        entries[id] = x;
    }

    /** The bytes this column holds in memory: its chunk's finished pages and the page in the making. */
    long bufferedBytes() {
        // levels take at most a bit each; ids a few
        long page = rows / 8 + (dictionary || codes != null ? 2L * idCount : values.getBufferedSize());
        return pages.getMemSize() + page;
    }

    /** A slice of rows is complete: the page ends here when it is full. */
    void endSlice() throws IOException {
        if (rows >= pageRows || bufferedBytes() - pages.getMemSize() >= pageBytes) {
            page();
        }
    }

    /** The row group ends: the last page, and the chunk's dictionary page. */
    void endChunk() throws IOException {
        if (rows > 0) {
            page();
        }
        if (ids != null && ids.size() > 0) {
            PlainValuesWriter d = plain();
            for (int i = 0; i < ids.size(); i++) {
                if (kind == Kind.LONG) {
                    d.writeLong(entries[i]);
                } else {
                    d.writeInteger((int) entries[i]);
                }
            }
            pages.writeDictionaryPage(new DictionaryPage(d.getBytes(), ids.size(), org.apache.parquet.column.Encoding.PLAIN));
            d.close();
            ids.clear();
            lastId = -1;
        }
        if (codes != null) {
            PlainValuesWriter d = plain();
            for (Binary b : codes) {
                d.writeBytes(b);
            }
            pages.writeDictionaryPage(new DictionaryPage(d.getBytes(), codes.length, org.apache.parquet.column.Encoding.PLAIN));
            d.close();
        }
    }

    private void page() throws IOException {
        BytesInput data;
        org.apache.parquet.column.Encoding encoding;
        boolean byIds = false;
        // a page of nulls only is no dictionary page: its chunk may have no dictionary
        if (idCount > 0) {
            int size = codes != null ? codes.length : ids.size();
            int width = 32 - Integer.numberOfLeadingZeros(Math.max(size - 1, 0));
            HybridRuns runs = idRuns[width];
            if (runs == null) {
                runs = idRuns[width] = new HybridRuns(width);
            }
            // an RLE_DICTIONARY page: the ids' bit width in a byte, then the ids
            data = BytesInput.concat(BytesInput.from(new byte[] {(byte) width}), runs.encode(pageIds, idCount));
            byIds = true;
            encoding = org.apache.parquet.column.Encoding.RLE_DICTIONARY;
        } else {
            data = values.getBytes();
            encoding = values.getEncoding();
        }
        // Data page v1: the definition levels (their length first) are compressed with the values.
        // A v2 page keeps them uncompressed, a bit a row for every sparse column of the records
        // table, whose rows repeat the same few patterns of kinds.
        BytesInput page = data;
        if (defined != null) {
            BytesInput definitions = defined.encode(rows);
            page = BytesInput.concat(BytesInput.fromInt(Math.toIntExact(definitions.size())), definitions, data);
        }
        // parquet-java's page writer implements only the overload with geospatial statistics (none here)
        pages.writePage(page, rows, rows, pageStatistics(), noSizes, (GeospatialStatistics) null, LEVELS, LEVELS, encoding);
        if (!byIds) {
            values.reset();
        }
        if (dictionary && ids.size() * (long) (kind == Kind.LONG ? 8 : 4) > DICTIONARY_BYTES) {
            // Too many distinct values for a dictionary to pay: delta from the next page on, for the
            // rest of the file. The entries so far still go in this chunk's dictionary page.
            dictionary = false;
        }
        if (defined != null) {
            defined.clear(rows);
        }
        rows = 0;
        nulls = 0;
        idCount = 0;
        any = false;
        seenFalse = false;
        seenTrue = false;
        strings = null;
        if (usedCodes != null) {
            Arrays.fill(usedCodes, false);
        }
    }

    private Statistics<?> pageStatistics() {
        if (!statistics) {
            return Statistics.noopStats(type);
        }
        Statistics<?> s = Statistics.createStats(type);
        switch (kind) {
            case LONG -> {
                if (any) {
                    ((LongStatistics) s).setMinMax(min, max);
                }
            }
            case INT -> {
                if (any) {
                    ((IntStatistics) s).setMinMax((int) min, (int) max);
                }
            }
            case BOOLEAN -> {
                if (seenFalse || seenTrue) {
                    ((BooleanStatistics) s).setMinMax(!seenFalse, seenTrue);
                }
            }
            case STRING -> {
                if (codes != null) {
                    for (int c = 0; c < codes.length; c++) {
                        if (usedCodes[c]) {
                            ((BinaryStatistics) s).updateStats(codes[c]);
                        }
                    }
                } else if (strings != null) {
                    s = strings;
                }
            }
        }
        s.incrementNumNulls(nulls);
        return s;
    }

    /** Releases the encoders' buffers. */
    void close() {
        values.close();
    }

    /**
     * PLAIN numbers: each value's little-endian bytes, in one array kept from page to page.
     * parquet-java's {@code PlainValuesWriter} sends each value through a stream into buffers
     * allocated anew for every page; the random object ids of a trace's records are a column of
     * this kind, a quarter of the records table's values that no dictionary or delta can shrink.
     */
    static final class PlainNumbers extends ValuesWriter {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
        private byte[] bytes = new byte[INITIAL_SLAB];
        private int size;

        @Override
        public void writeLong(long v) {
            room(8);
            LONGS.set(bytes, size, v);
            size += 8;
        }

        @Override
        public void writeInteger(int v) {
            room(4);
            INTS.set(bytes, size, v);
            size += 4;
        }

        private void room(int n) {
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size + n, 2 * bytes.length));
            }
        }

        @Override
        public long getBufferedSize() {
            return size;
        }

        @Override
        public BytesInput getBytes() {
            return BytesInput.from(bytes, 0, size);
        }

        @Override
        public org.apache.parquet.column.Encoding getEncoding() {
            return org.apache.parquet.column.Encoding.PLAIN;
        }

        @Override
        public void reset() {
            size = 0;
        }

        @Override
        public long getAllocatedSize() {
            return bytes.length;
        }

        @Override
        public String memUsageString(String prefix) {
            return prefix + " PLAIN numbers " + size + " of " + bytes.length + " bytes";
        }
    }

    /**
     * The dictionary of a chunk: value to id, ids in order of first appearance. Open addressing over
     * primitives, no boxing; a value seen before costs a hash and, mostly, one probe.
     */
    static final class LongIds {
        private long[] keys = new long[1024];
        /** id + 1 per slot; 0 is an empty slot. */
        private int[] slots = new int[1024];
        private int size;

        int id(long x, ColumnPages owner) {
            int mask = keys.length - 1;
            int h = mix(x) & mask;
            while (true) {
                int s = slots[h];
                if (s == 0) {
                    break;
                }
                if (keys[h] == x) {
                    return s - 1;
                }
                h = (h + 1) & mask;
            }
            int id = size++;
            keys[h] = x;
            slots[h] = id + 1;
            owner.entry(id, x);
            if (size * 2 > keys.length) {
                grow();
            }
            return id;
        }

        int size() {
            return size;
        }

        void clear() {
            Arrays.fill(slots, 0);
            size = 0;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldSlots = slots;
            keys = new long[oldKeys.length * 2];
            slots = new int[oldSlots.length * 2];
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldSlots[i] != 0) {
                    int h = mix(oldKeys[i]) & mask;
                    while (slots[h] != 0) {
                        h = (h + 1) & mask;
                    }
                    keys[h] = oldKeys[i];
                    slots[h] = oldSlots[i];
                }
            }
        }

        private static int mix(long x) {
            long z = x * 0x9E3779B97F4A7C15L;
            return (int) (z ^ (z >>> 32));
        }
    }
}
