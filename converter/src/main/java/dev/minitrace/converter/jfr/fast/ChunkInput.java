package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one whole chunk held in a reusable {@code byte[]} (index 0 = the chunk's first
 * byte). Integers are varints or fixed big-endian as the chunk header says. The varint fast path
 * is unrolled and runs without per-byte limit checks whenever 9 bytes remain; only the last bytes
 * of a chunk take the checked slow path. Every read past the chunk end is a
 * {@link JfrFormatException} naming the chunk and the absolute offset.
 *
 * <p>Every reader of the chunk (metadata, constant pools, events) goes through its integer and
 * string reads, which see the window, the position and the encoding directly to stay cheap; the
 * window loading is the other half of the same state.
 */
final class ChunkInput {
    /** Bytes a chunk buffer holds beyond the chunk, so an 8-byte load at any position inside is legal. */
    static final int SLACK = 64;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;

    /** Bytes of the chunk from chunk offset {@link #base} on. */
    byte[] buf = new byte[0];
    /** Current read position in {@link #buf}. */
    int pos;
    /** End of the valid bytes in {@link #buf}. */
    int limit;
    /** Chunk offset of {@code buf[0]}. */
    long base;
    /** Size of the whole chunk. */
    long chunkSize;
    boolean compressed = true;
    long chunkFileOffset;
    int chunkIndex;

    /** How much of the event stream is loaded at a time: small enough to stay in the CPU caches. */
    static final int WINDOW = 1 << 20;
    /** The window size in use ({@link #WINDOW}; tests make it tiny to cross windows often). */
    int windowSize = WINDOW;
    private byte[] window = new byte[0];
    private byte[] island = new byte[1 << 16];
    /** Pooled strings' bytes, loaded when asked; created with the window size the tests may have set. */
    private PlacedText placed;
    private ChunkSource source;
    private ChunkHeader header;
    private final Loader loader = (chunkOffset, b, n) -> source.load(header, chunkOffset, b, n);

    void reset(ChunkSource chunkSource, ChunkHeader h) {
        this.source = chunkSource;
        this.header = h;
        this.chunkSize = h.size();
        this.compressed = h.compressedIntegers();
        this.chunkIndex = h.index();
        this.chunkFileOffset = h.fileOffset();
        this.buf = island;
        this.base = 0;
        this.pos = 0;
        this.limit = 0;
        if (placed != null) {
            placed.clear();
        }
    }

    /** Loads bytes of the current chunk. */
    interface Loader {
        void load(long chunkOffset, byte[] b, int length) throws IOException;
    }

    /**
     * Loads {@code [chunkOffset, chunkOffset + length)} (clipped to the chunk) into the island
     * buffer and reads from its start: for the metadata and checkpoint events, which lie anywhere
     * in the chunk. The island grows to the largest such event; nothing is sized by the chunk.
     */
    void island(long chunkOffset, long length) throws IOException {
        int n = (int) Math.min(length, chunkSize - chunkOffset);
        if (island.length < n + SLACK) {
            island = new byte[n + SLACK];
        }
        source.load(header, chunkOffset, island, n);
        buf = island;
        base = chunkOffset;
        pos = 0;
        limit = n;
    }

    /** Chunk offset where the region being streamed ends, or -1 when not streaming. */
    private long streamEnd = -1;

    /**
     * Reads {@code [chunkOffset, chunkOffset + length)} (clipped to the chunk) through the island
     * a window at a time, from its start: for checkpoint events, which JDK 25 fills with the packed
     * records' strings (230 MB in one event of a real recording). Reads past the window load the
     * next part; positions are then only meaningful as {@link #position()}.
     */
    void stream(long chunkOffset, long length) throws JfrFormatException {
        streamEnd = Math.min(chunkSize, chunkOffset + length);
        buf = island;
        base = chunkOffset;
        pos = 0;
        limit = 0;
        more(0);
    }

    /** The streamed region was read. */
    void endStream() {
        streamEnd = -1;
    }

    /** The chunk offset of the next byte. */
    long position() {
        return base + pos;
    }

    /**
     * While streaming: loads the region's bytes from {@link #position()} on, at least {@code need}
     * of them (a window, or more for one larger item); false when the region has fewer left.
     */
    private boolean more(int need) throws JfrFormatException {
        if (streamEnd < 0) {
            return false;
        }
        long from = base + pos;
        long left = streamEnd - from;
        if (left < need) {
            return false;
        }
        int n = (int) Math.min(left, Math.max(Math.max(windowSize, SLACK), need));
        if (island.length < n + SLACK) {
            island = new byte[n + SLACK];
        }
        try {
            source.load(header, from, island, n);
        } catch (JfrFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new JfrFormatException(chunkIndex, chunkFileOffset + from, "cannot read the chunk: " + e.getMessage(), e);
        }
        buf = island;
        base = from;
        pos = 0;
        limit = n;
        return true;
    }

    /**
     * Makes {@code [chunkOffset, chunkOffset + n)} of the chunk readable in {@link #placed()} and
     * returns where it starts there: a pooled string's text, read when an event refers to it.
     */
    int placed(long chunkOffset, int n) throws IOException {
        if (placed == null) {
            placed = new PlacedText(windowSize);
        }
        return placed.at(loader, chunkOffset, n, chunkSize);
    }

    /** The bytes of the last {@link #placed(long, int)}. */
    byte[] placed() {
        return placed.bytes();
    }

    /** Lets go of an island grown for a large constant-pool event once the pools are read (they are copied out). */
    void trimIsland() {
        if (island.length > WINDOW + SLACK) {
            island = new byte[1 << 16];
            if (buf != window) {
                buf = island;
                pos = 0;
                limit = 0;
            }
        }
    }

    /**
     * Moves the event window to start at {@code chunkOffset}, loading {@link #windowSize} bytes, or
     * {@code atLeast} for a larger event (clipped to the chunk). Parsing reads bytes the CPU
     * copied a moment ago, from cache, and memory is bounded by the window, not by the chunk.
     */
    void window(long chunkOffset, long atLeast) throws IOException {
        // At least SLACK bytes, so that an event header (at most 14 bytes) is always whole.
        int n = (int) Math.min(Math.max(Math.max(windowSize, SLACK), atLeast), chunkSize - chunkOffset);
        if (window.length < n + SLACK) {
            window = new byte[n + SLACK];
        }
        source.load(header, chunkOffset, window, n);
        buf = window;
        base = chunkOffset;
        pos = 0;
        limit = n;
    }

    /** @return true when the loaded bytes reach the end of the chunk */
    boolean atChunkEnd() {
        return base + limit >= chunkSize;
    }

    JfrFormatException error(String message) {
        return new JfrFormatException(chunkIndex, chunkFileOffset + base + pos, message, null);
    }

    /** An error at buffer position {@code at}. */
    JfrFormatException error(int at, String message, Throwable cause) {
        return new JfrFormatException(chunkIndex, chunkFileOffset + base + at, message, cause);
    }

    /** An error at a chunk offset. */
    JfrFormatException errorAtChunkOffset(long chunkOffset, String message) {
        return new JfrFormatException(chunkIndex, chunkFileOffset + chunkOffset, message, null);
    }

    /** Throws unless {@code n} more bytes are available in the chunk. */
    void require(long n, String what) throws JfrFormatException {
        long left = streamEnd >= 0 ? streamEnd - (base + pos) : limit - pos;
        if (n < 0 || n > left) {
            throw error(what + ": " + n + " bytes declared, " + left + " left in the chunk");
        }
    }

    byte readByte() throws JfrFormatException {
        if (pos >= limit && !more(1)) {
            throw error("Unexpected end of chunk");
        }
        return buf[pos++];
    }

    long readLong() throws JfrFormatException {
        return compressed ? readVarLong() : readFixed(8);
    }

    int readInt() throws JfrFormatException {
        return compressed ? (int) readVarLong() : (int) readFixed(4);
    }

    short readShort() throws JfrFormatException {
        return compressed ? (short) readVarLong() : (short) readFixed(2);
    }

    char readChar() throws JfrFormatException {
        return compressed ? (char) readVarLong() : (char) readFixed(2);
    }

    float readFloat() throws JfrFormatException {
        return Float.intBitsToFloat((int) readFixed(4));
    }

    double readDouble() throws JfrFormatException {
        return Double.longBitsToDouble(readFixed(8));
    }

    long readFixed(int bytes) throws JfrFormatException {
        int p = pos;
        if (bytes > limit - p) {
            if (!more(bytes)) {
                throw error("Unexpected end of chunk reading a " + bytes + "-byte integer");
            }
            p = pos;
        }
        byte[] b = buf;
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = (v << 8) | (b[p + i] & 0xFF);
        }
        pos = p + bytes;
        return v;
    }

    /**
     * LEB128-style varint: 7 bits per byte, low groups first, high bit = more; the 9th byte
     * contributes all 8 bits. Unrolled; the JIT keeps this small enough to inline.
     */
    long readVarLong() throws JfrFormatException {
        final byte[] b = buf;
        int p = pos;
        if (p + 9 > limit) {
            return readVarLongSlow();
        }
        long b0 = b[p];
        if (b0 >= 0) {
            pos = p + 1;
            return b0;
        }
        long r = b0 & 0x7F;
        long x = b[p + 1];
        r |= (x & 0x7F) << 7;
        if (x >= 0) {
            pos = p + 2;
            return r;
        }
        x = b[p + 2];
        r |= (x & 0x7F) << 14;
        if (x >= 0) {
            pos = p + 3;
            return r;
        }
        x = b[p + 3];
        r |= (x & 0x7F) << 21;
        if (x >= 0) {
            pos = p + 4;
            return r;
        }
        x = b[p + 4];
        r |= (x & 0x7F) << 28;
        if (x >= 0) {
            pos = p + 5;
            return r;
        }
        x = b[p + 5];
        r |= (x & 0x7F) << 35;
        if (x >= 0) {
            pos = p + 6;
            return r;
        }
        x = b[p + 6];
        r |= (x & 0x7F) << 42;
        if (x >= 0) {
            pos = p + 7;
            return r;
        }
        x = b[p + 7];
        r |= (x & 0x7F) << 49;
        if (x >= 0) {
            pos = p + 8;
            return r;
        }
        pos = p + 9;
        return r | ((b[p + 8] & 0xFFL) << 56);
    }

    /**
     * Length (1..9) of the varint at {@code p}, from one 8-byte load: the first byte whose high
     * bit is clear ends it. Requires {@code p + 8 <= b.length} (see {@link #SLACK}).
     */
    static int varintLength(byte[] b, int p) {
        long stops = ~(long) LONG_LE.get(b, p) & HIGH_BITS;
        return stops == 0 ? 9 : (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
    }

    /**
     * Value of the varint at {@code p}, branch-free for up to 8 bytes: load 8 bytes, cut after
     * the stop byte, drop the continuation bits and pack the 7-bit groups together in three
     * shift-and-mask steps. Requires {@code p + 9 <= b.length} for a 9-byte varint.
     */
    static long varint(byte[] b, int p) {
        long x = (long) LONG_LE.get(b, p);
        long stops = ~x & HIGH_BITS;
        if (stops != 0) {
            x &= -1L >>> (63 - Long.numberOfTrailingZeros(stops));
            return pack(x & LOW_BITS);
        }
        return pack(x & LOW_BITS) | ((b[p + 8] & 0xFFL) << 56);
    }

    private static long pack(long x) {
        x = (x & 0x007F007F007F007FL) | ((x & 0x7F007F007F007F00L) >>> 1);
        x = (x & 0x00003FFF00003FFFL) | ((x & 0x3FFF00003FFF0000L) >>> 2);
        return (x & 0x000000000FFFFFFFL) | ((x & 0x0FFFFFFF00000000L) >>> 4);
    }

    private long readVarLongSlow() throws JfrFormatException {
        long r = 0;
        for (int i = 0; i < 8; i++) {
            long x = readByte();
            r |= (x & 0x7F) << (7 * i);
            if (x >= 0) {
                return r;
            }
        }
        return r | ((readByte() & 0xFFL) << 56);
    }

    /** Skips one integer of the given fixed width (the width matters only for fixed encoding). */
    void skipInteger(int fixedWidth) throws JfrFormatException {
        if (compressed) {
            final byte[] b = buf;
            int p = pos;
            if (p + 9 <= limit) {
                int n = 0;
                while (n < 8 && b[p + n] < 0) {
                    n++;
                }
                pos = p + n + 1;
            } else {
                readVarLongSlow();
            }
        } else {
            skip(fixedWidth);
        }
    }

    void skip(int n) throws JfrFormatException {
        if (n >= 0 && n > limit - pos && streamEnd >= 0 && base + pos + n <= streamEnd) {
            base += pos + n; // loaded by the next read
            pos = 0;
            limit = 0;
            return;
        }
        if (n < 0 || n > limit - pos) {
            throw error("Unexpected end of chunk skipping " + n + " bytes");
        }
        pos += n;
    }

    // JFR string encodings (jdk.jfr.internal.consumer.StringParser.Encoding).
    static final byte STRING_NULL = 0;
    static final byte STRING_EMPTY = 1;
    static final byte STRING_CONSTANT_POOL = 2;
    static final byte STRING_UTF8 = 3;
    static final byte STRING_CHAR_ARRAY = 4;
    static final byte STRING_LATIN1 = 5;

    /**
     * Reads the rest of a string whose {@code encoding} byte (at {@code at}) was just read; not for
     * {@link #STRING_CONSTANT_POOL}, whose key only the caller can resolve (the pool may be
     * defined in a checkpoint not read yet).
     */
    String readStringBody(byte encoding, int at) throws JfrFormatException {
        switch (encoding) {
            case STRING_NULL:
                return null;
            case STRING_EMPTY:
                return "";
            case STRING_UTF8: {
                int n = readInt();
                require(n, "UTF-8 string");
                loaded(n);
                String s = new String(buf, pos, n, StandardCharsets.UTF_8);
                pos += n;
                return s;
            }
            case STRING_LATIN1: {
                int n = readInt();
                require(n, "Latin-1 string");
                loaded(n);
                String s = new String(buf, pos, n, StandardCharsets.ISO_8859_1);
                pos += n;
                return s;
            }
            case STRING_CHAR_ARRAY: {
                int n = readInt();
                // Each char takes at least one byte: check before allocating.
                require(n, "char-array string");
                char[] chars = new char[n];
                for (int i = 0; i < n; i++) {
                    chars[i] = readChar();
                }
                return new String(chars);
            }
            default:
                throw error(at, "Unknown string encoding " + encoding, null);
        }
    }

    /** While streaming, makes sure {@code n} bytes from {@code pos} are in the buffer ({@link #require} checked them). */
    private void loaded(int n) throws JfrFormatException {
        if (n > limit - pos && !more(n)) {
            throw error("Unexpected end of chunk reading " + n + " bytes");
        }
    }

    /**
     * Reads the rest of a string-pool entry whose {@code encoding} byte (at {@code at}) was just
     * read: its text's place in the chunk, not the text (JDK 25 puts whole packed-record strings
     * in the pool; {@link ChunkConstants#string} reads one when asked). Not for
     * {@link #STRING_CONSTANT_POOL}: a reference to another entry is the caller's to resolve.
     */
    void readStringPlace(ChunkConstants out, int row, byte encoding, int at) throws JfrFormatException {
        switch (encoding) {
            case STRING_NULL -> out.stringText(row, null);
            case STRING_EMPTY -> out.stringText(row, "");
            case STRING_UTF8, STRING_LATIN1 -> {
                int n = readInt();
                require(n, "string");
                long at0 = base + pos;
                skip(n);
                out.stringPlace(row, encoding, at0, n, n);
            }
            case STRING_CHAR_ARRAY -> {
                int n = readInt();
                require(n, "char-array string");
                long at0 = base + pos;
                for (int i = 0; i < n; i++) {
                    skipInteger(2);
                }
                out.stringPlace(row, encoding, at0, n, (int) (base + pos - at0));
            }
            default -> throw error(at, "Unknown string encoding " + encoding, null);
        }
    }

    void skipString() throws JfrFormatException {
        int at = pos;
        byte encoding = readByte();
        switch (encoding) {
            case STRING_NULL, STRING_EMPTY -> { }
            case STRING_CONSTANT_POOL -> readLong();
            case STRING_UTF8, STRING_LATIN1 -> {
                int n = readInt();
                skip(n);
            }
            case STRING_CHAR_ARRAY -> {
                int n = readInt();
                require(n, "char-array string");
                for (int i = 0; i < n; i++) {
                    skipInteger(2);
                }
            }
            default -> throw error(at, "Unknown string encoding " + encoding, null);
        }
    }
}
