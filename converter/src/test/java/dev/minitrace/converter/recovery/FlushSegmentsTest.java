package dev.minitrace.converter.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.minitrace.converter.jfr.fast.ChunkHeader;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk over a chunk's events on chunks built byte by byte: plain events, a metadata event, and
 * checkpoints that end in a copy of the chunk header, as JFR ends each flush segment.
 */
class FlushSegmentsTest {
    @TempDir
    Path dir;

    /** A chunk under construction: header placeholder, then events. */
    private static final class Chunk {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        long metadata;

        Chunk() {
            b.writeBytes(new byte[ChunkHeader.SIZE]);
        }

        long pos() {
            return b.size();
        }

        void event(long type, int payload) {
            byte[] body = new byte[payload];
            Arrays.fill(body, (byte) 0x55);
            write(type, body);
        }

        void metadata() {
            metadata = pos();
            event(0, 40);
        }

        /** A flush segment's end: a checkpoint whose last 68 bytes are the header as of here; {@code lie} breaks its cp offset. */
        long segmentEnd(boolean lie) {
            long start = pos();
            byte[] body = new byte[10 + ChunkHeader.SIZE];
            int size = 2 + body.length; // one byte of size, one of type
            ByteBuffer h = ByteBuffer.wrap(body, 10, ChunkHeader.SIZE).slice();
            h.putInt(0, 0x464C5200);
            h.putShort(4, (short) 2);
            h.putLong(8, start + size);
            h.putLong(16, lie ? start + 1 : start);
            h.putLong(24, metadata);
            h.putLong(56, 1_000_000_000L);
            h.put(64, (byte) 3); // the generation the JVM was at
            write(1, body);
            return start + size;
        }

        private void write(long type, byte[] body) {
            int size = 2 + body.length;
            if (size > 127) {
                throw new IllegalArgumentException("keep test events below 128 bytes");
            }
            b.write(size);
            b.write((int) type);
            b.writeBytes(body);
        }

        Path file(Path dir, byte[] tail) throws Exception {
            Path f = dir.resolve("chunk.jfr");
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.writeBytes(b.toByteArray());
            all.writeBytes(tail);
            Files.write(f, all.toByteArray());
            return f;
        }
    }

    private static FlushSegments.Result scan(Path f) throws Exception {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            return FlushSegments.scan(ch, 0, ch.size());
        }
    }

    @Test
    void theLastConsistentHeaderCopyEndsTheReadablePart() throws Exception {
        Chunk c = new Chunk();
        c.event(20, 30);
        c.metadata();
        c.event(21, 50);
        long first = c.segmentEnd(false);
        c.event(21, 60);
        long second = c.segmentEnd(false);
        c.event(21, 70);
        c.segmentEnd(true); // a checkpoint that is no header copy of this place
        c.event(22, 10);
        FlushSegments.Result r = scan(c.file(dir, new byte[] {5, 1, 2})); // a torn last event
        assertEquals(2, r.segments());
        assertEquals(second, r.end());
        assertEquals(0, r.header()[ChunkHeader.STATE_OFFSET], "marked finished");
        assertEquals(second, ByteBuffer.wrap(r.header()).getLong(8));
        byte[] cut = Files.readAllBytes(dir.resolve("chunk.jfr"));
        Files.write(dir.resolve("chunk.jfr"), Arrays.copyOf(cut, (int) second - 1));
        assertEquals(first, scan(dir.resolve("chunk.jfr")).end(), "cut inside the second segment's checkpoint");
    }

    @Test
    void aSegmentBeforeAnyMetadataIsNotReadable() throws Exception {
        Chunk c = new Chunk();
        c.event(20, 30);
        c.segmentEnd(false);
        FlushSegments.Result r = scan(c.file(dir, new byte[0]));
        assertEquals(0, r.segments());
        assertEquals(0, r.end());
        assertNull(r.header());
    }

    @Test
    void garbageEndsTheWalkWithoutAnError() throws Exception {
        Chunk c = new Chunk();
        c.metadata();
        long end = c.segmentEnd(false);
        byte[] garbage = new byte[300];
        Arrays.fill(garbage, (byte) 0xFF); // a varint that never ends, then sizes beyond the file
        FlushSegments.Result r = scan(c.file(dir, garbage));
        assertEquals(end, r.end());
        byte[] zeros = new byte[300]; // a size of 0 must not loop
        assertEquals(end, scan(c.file(dir, zeros)).end());
    }

    @Test
    void recoveryWritesTheHeaderCopyAndTheSegments() throws Exception {
        Chunk c = new Chunk();
        c.metadata();
        c.event(21, 50);
        long end = c.segmentEnd(false);
        c.event(21, 50);
        Path in = c.file(dir, new byte[0]);
        byte[] original = Files.readAllBytes(in);
        original[ChunkHeader.STATE_OFFSET] = 2; // the JVM was writing it
        original[0] = 'F';
        original[1] = 'L';
        original[2] = 'R';
        original[3] = 0;
        Files.write(in, original);
        Path out = dir.resolve("out.jfr");
        RecoveryReport r = Recovery.write(in, out);
        assertEquals(1, r.unfinishedChunks());
        assertEquals(end, r.recoveredBytes());
        assertEquals(original.length - end, r.lostBytes());
        byte[] written = Files.readAllBytes(out);
        assertEquals(end, written.length);
        assertArrayEquals(Arrays.copyOfRange(original, ChunkHeader.SIZE, (int) end),
                Arrays.copyOfRange(written, ChunkHeader.SIZE, (int) end));
        assertArrayEquals(scan(in).header(), Arrays.copyOf(written, ChunkHeader.SIZE));
    }
}
