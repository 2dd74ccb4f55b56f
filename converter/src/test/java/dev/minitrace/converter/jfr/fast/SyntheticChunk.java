package dev.minitrace.converter.jfr.fast;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a small chunk by hand, with compressed (varint) or fixed big-endian integers, to reach
 * what the JVM does not write on demand: fixed-width integers, a thread pool split over two
 * checkpoints, an event that refers to a thread defined in a later checkpoint, a thread name
 * held in the string pool of an earlier checkpoint, an extra field, an unknown event type, and
 * type ids above 65535.
 */
final class SyntheticChunk {
    static final long START_NANOS = 1_700_000_000_123_456_789L;
    static final long START_TICKS = 5_000_000L;
    static final long TICKS_PER_SECOND = 2_500_000_000L;

    private final boolean compressed;
    private final long entryTypeId;
    private final List<String> strings = new ArrayList<>();

    SyntheticChunk(boolean compressed, long entryTypeId) {
        this.compressed = compressed;
        this.entryTypeId = entryTypeId;
    }

    /** A growable byte sink with JFR's integer and string encodings. */
    final class Out {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Out i8(int v) {
            bytes.write(v);
            return this;
        }

        Out raw(long v, int width) {
            for (int i = width - 1; i >= 0; i--) {
                bytes.write((int) (v >>> (8 * i)));
            }
            return this;
        }

        Out lng(long v) {
            if (!compressed) {
                return raw(v, 8);
            }
            for (int i = 0; i < 8; i++) {
                if ((v & ~0x7FL) == 0) {
                    bytes.write((int) v);
                    return this;
                }
                bytes.write((int) (v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes.write((int) v);
            return this;
        }

        Out integer(int v) {
            return compressed ? lng(v & 0xFFFFFFFFL) : raw(v, 4);
        }

        Out utf8(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            i8(3).integer(b.length);
            bytes.write(b, 0, b.length);
            return this;
        }

        Out poolString(long key) {
            return i8(2).lng(key);
        }

        Out append(Out other) {
            byte[] b = other.bytes.toByteArray();
            bytes.write(b, 0, b.length);
            return this;
        }

        int size() {
            return bytes.size();
        }
    }

    /** Wraps a body as an event: size prefix (4 bytes, padded varint or fixed) and type id. */
    private Out event(long typeId, Out body) {
        Out head = new Out().lng(typeId);
        int size = 4 + head.size() + body.size();
        Out e = new Out();
        if (compressed) {
            e.i8((size & 0x7F) | 0x80).i8(((size >>> 7) & 0x7F) | 0x80).i8(((size >>> 14) & 0x7F) | 0x80).i8(size >>> 21);
        } else {
            e.raw(size, 4);
        }
        return e.append(head).append(body);
    }

    private int s(String value) {
        int i = strings.indexOf(value);
        if (i < 0) {
            strings.add(value);
            i = strings.size() - 1;
        }
        return i;
    }

    /** One metadata element: name, attribute pairs, children. */
    private Out element(String name, String[] attributes, Out... children) {
        Out o = new Out().integer(s(name)).integer(attributes.length / 2);
        for (String a : attributes) {
            o.integer(s(a));
        }
        o.integer(children.length);
        for (Out c : children) {
            o.append(c);
        }
        return o;
    }

    private Out type(long id, String name, String superType, Out... fields) {
        String[] attributes = superType == null
                ? new String[] {"id", Long.toString(id), "name", name}
                : new String[] {"id", Long.toString(id), "name", name, "superType", superType};
        return element("class", attributes, fields);
    }

    private Out field(String name, long typeId, boolean constantPool, Out... annotations) {
        return element("field", constantPool
                ? new String[] {"name", name, "class", Long.toString(typeId), "constantPool", "true"}
                : new String[] {"name", name, "class", Long.toString(typeId)}, annotations);
    }

    byte[] build() {
        final long tLong = 20;
        final long tInt = 21;
        final long tString = 22;
        final long tThread = 23;
        final long tTimestamp = 24;
        final long tUnknownEvent = 300;
        final long tDataLoss = 301;
        // Metadata first (its string table is collected while building the tree).
        Out tree = element("root", new String[0], element("metadata", new String[0],
                type(tLong, "long", null),
                type(tInt, "int", null),
                type(tString, "java.lang.String", null),
                type(tTimestamp, "jdk.jfr.Timestamp", "java.lang.annotation.Annotation"),
                type(tThread, "java.lang.Thread", null,
                        field("osName", tString, false), field("osThreadId", tLong, false),
                        field("javaName", tString, false), field("javaThreadId", tLong, false)),
                type(entryTypeId, "minitrace.MethodEntry", "jdk.jfr.Event",
                        field("startTime", tLong, false,
                                element("annotation", new String[] {"class", Long.toString(tTimestamp), "value", "TICKS"})),
                        field("duration", tLong, false),
                        field("eventThread", tThread, true),
                        field("methodId", tInt, false),
                        field("addedLater", tString, false),
                        field("sequence", tLong, false)),
                type(tUnknownEvent, "x.Unknown", "jdk.jfr.Event", field("payload", tString, false)),
                type(tDataLoss, "jdk.DataLoss", "jdk.jfr.Event",
                        field("startTime", tLong, false,
                                element("annotation", new String[] {"class", Long.toString(tTimestamp), "value", "TICKS"})),
                        field("amount", tLong, false), field("total", tLong, false))));
        Out metadataBody = new Out().lng(0).lng(0).lng(1).integer(strings.size());
        for (String str : strings) {
            metadataBody.utf8(str);
        }
        metadataBody.append(tree);

        Out chunk = new Out();
        chunk.raw(0, ChunkHeader.SIZE); // header, patched below
        // Events: thread 7 is defined only in the second (later) checkpoint.
        chunk.append(event(entryTypeId, new Out().lng(START_TICKS + 2_500).lng(0).lng(7).integer(-5)
                .utf8("ignored").lng(1L << 40)));
        chunk.append(event(tUnknownEvent, new Out().utf8("skip me: not a wanted type")));
        chunk.append(event(tDataLoss, new Out().lng(START_TICKS + 25_000).lng(4096).lng(1L << 33)));
        int firstCheckpoint = chunk.size();
        chunk.append(event(1, new Out().lng(0).lng(0).lng(0).i8(0).integer(2)
                .lng(tString).integer(1).lng(11).utf8("worker-seven")
                .lng(tThread).integer(1).lng(5).utf8("os-five").lng(555).utf8("five").lng(55)));
        chunk.append(event(entryTypeId, new Out().lng(START_TICKS + 5_000_000_000L).lng(0).lng(5).integer(42)
                .i8(0).lng(2)));
        int secondCheckpoint = chunk.size();
        chunk.append(event(1, new Out().lng(0).lng(0).lng(firstCheckpoint - secondCheckpoint).i8(0).integer(1)
                .lng(tThread).integer(1).lng(7).utf8("os-seven").lng(777).poolString(11).lng(77)));
        int metadataOffset = chunk.size();
        chunk.append(event(0, metadataBody));
        byte[] b = chunk.bytes.toByteArray();
        Out header = new Out().i8('F').i8('L').i8('R').i8(0).raw(2, 2).raw(1, 2).raw(b.length, 8)
                .raw(secondCheckpoint, 8).raw(metadataOffset, 8).raw(START_NANOS, 8).raw(1_000_000, 8)
                .raw(START_TICKS, 8).raw(TICKS_PER_SECOND, 8).raw(0, 3).i8(compressed ? 1 : 0);
        System.arraycopy(header.bytes.toByteArray(), 0, b, 0, ChunkHeader.SIZE);
        return b;
    }
}
