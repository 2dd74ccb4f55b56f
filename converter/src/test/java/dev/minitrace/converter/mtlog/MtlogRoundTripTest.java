package dev.minitrace.converter.mtlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the writer writes, the reader reads back identically; the reader follows the format's rules for what it does not know. */
class MtlogRoundTripTest {
    @TempDir
    Path dir;

    private static MtlogInfo sampleInfo() {
        MtlogInfo info = new MtlogInfo();
        info.putThread(1, 1, "main");
        info.putThread(0xFFFFFFFEL, -1, "tab\there\nnewline");
        info.putClass(1, "[Ljava.lang.Object;");
        info.putClass(2, "java.lang.String");
        info.putMethod(7, "demo.A", "<init>", "(I)V");
        info.putMethod((1L << 32) + 3, "demo.B", "<clinit>", "()V");
        info.putGc(4, "G1New", "G1 Evacuation Pause", 1_700_000_000_000_000_000L, 12345);
        return info;
    }

    @Test
    void multiBlockStreamsReadBackIdentically() throws Exception {
        Path out = dir.resolve("a.mtlog");
        Random rnd = new Random(42);
        Map<Integer, List<long[]>> written = new HashMap<>();
        try (MtlogWriter w = new MtlogWriter(out, MtlogFormat.LAYOUT_THREAD, 123456789L, 7)) {
            for (int i = 0; i < 5000; i++) {
                int stream = rnd.nextInt(5) == 0 ? 0xFFFFFFF0 : rnd.nextInt(4);
                int type = 1 + rnd.nextInt(6);
                long value = rnd.nextLong();
                int aux = rnd.nextInt();
                w.record(stream, type, value, aux);
                written.computeIfAbsent(stream, k -> new ArrayList<>()).add(new long[] {type, value, aux});
            }
            w.finish(sampleInfo());
        }
        try (MtlogReader r = MtlogReader.open(out)) {
            assertFalse(r.truncated());
            assertEquals(5000, r.headerRecordCount());
            assertEquals(5000, r.recordCount());
            assertEquals(123456789L, r.startNanos());
            assertFalse(r.globalLayout());
            assertTrue(r.blocks().stream().filter(b -> b.kind() == MtlogFormat.BLOCK_STREAM).count() > 600, "small blocks");
            Map<Integer, List<long[]>> read = new HashMap<>();
            r.forEachRecord((s, t, v, a) -> read.computeIfAbsent(s, k -> new ArrayList<>()).add(new long[] {t, v, a}));
            assertEquals(written.keySet(), read.keySet());
            for (int s : written.keySet()) {
                assertEquals(written.get(s).size(), read.get(s).size());
                for (int i = 0; i < written.get(s).size(); i++) {
                    assertArrayEquals(written.get(s).get(i), read.get(s).get(i), "stream " + s + " record " + i);
                }
            }
            List<long[]> one = new ArrayList<>();
            r.forEachRecord(2, (s, t, v, a) -> one.add(new long[] {t, v, a}));
            assertEquals(written.get(2).size(), one.size());
            MtlogInfo expected = sampleInfo();
            assertEquals(expected, r.info());
            assertEquals("tab here newline", r.info().threads().get(0xFFFFFFFEL).name());
        }
    }

    @Test
    void manyStreamsStayBoundedAndReadBackInOrder() throws Exception {
        Path out = dir.resolve("many.mtlog");
        int streams = 1000;
        try (MtlogWriter w = new MtlogWriter(out, MtlogFormat.LAYOUT_THREAD, 0)) {
            for (int round = 0; round < 3; round++) {
                for (int s = 0; s < streams; s++) {
                    for (int i = 0; i < 10; i++) {
                        w.record(s, MtlogFormat.METHOD_ENTRY, round * 10 + i, s);
                    }
                }
            }
            w.finish(new MtlogInfo());
        }
        try (MtlogReader r = MtlogReader.open(out)) {
            assertEquals(30L * streams, r.recordCount());
            // 1000 streams of 57 KB buffers would be 57 MB: the writer flushed and released them on the way
            long streamBlocks = r.blocks().stream().filter(b -> b.kind() == MtlogFormat.BLOCK_STREAM).count();
            assertTrue(streamBlocks > 2L * streams, "streams were flushed in several blocks: " + streamBlocks);
            for (int s = 0; s < streams; s += 97) {
                List<Long> values = new ArrayList<>();
                int stream = s;
                r.forEachRecord(s, (id, t, v, a) -> {
                    assertEquals(stream, a);
                    values.add(v);
                });
                for (int i = 0; i < 30; i++) {
                    assertEquals(i, values.get(i));
                }
            }
        }
    }

    @Test
    void bytesAreExactlyAsTheSpecSays() throws Exception {
        Path out = dir.resolve("b.mtlog");
        try (MtlogWriter w = new MtlogWriter(out, MtlogFormat.LAYOUT_GLOBAL, 0x0102030405060708L)) {
            w.record(MtlogFormat.GLOBAL_STREAM_ID, MtlogFormat.METHOD_EXIT, 0x1122334455667788L, 0x0A0B0C0D);
            w.finish(new MtlogInfo());
        }
        byte[] b = Files.readAllBytes(out);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(new byte[] {0x4D, 0x54, 0x4C, 0x4F, 0x47, 0x00, 0x0D, 0x0A}, Arrays.copyOf(b, 8));
        assertEquals(1, bb.getShort(8));
        assertEquals(0, bb.getShort(10));
        assertEquals(1, bb.getInt(12));
        assertEquals(0x0102030405060708L, bb.getLong(16));
        assertEquals(1, bb.getLong(24));
        assertEquals(MtlogFormat.BLOCK_STREAM, bb.getInt(32));
        assertEquals(-1, bb.getInt(36));
        assertEquals(14, bb.getLong(40));
        // the record: 02 00 | 88 77 66 55 44 33 22 11 | 0D 0C 0B 0A
        assertArrayEquals(new byte[] {2, 0, (byte) 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x0D, 0x0C, 0x0B, 0x0A},
                Arrays.copyOfRange(b, 48, 62));
        assertEquals(MtlogFormat.BLOCK_INFO, bb.getInt(62));
        long infoLen = bb.getLong(70);
        assertEquals("*threads\n*classes\n*methods\n*gcs\n*end\n", new String(b, 78, (int) infoLen, StandardCharsets.UTF_8));
        int end = 78 + (int) infoLen;
        assertEquals(MtlogFormat.BLOCK_END, bb.getInt(end));
        assertEquals(0, bb.getLong(end + 8));
        assertEquals(b.length, end + 16, "END is last");
    }

    @Test
    void unknownBlocksSectionsAndRecordTypesAreSkippedOrKept() throws Exception {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write(header(1, 5, 2));
        f.write(block(99, 3, new byte[] {1, 2, 3}));
        ByteBuffer recs = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
        recs.putShort((short) 1).putLong(7).putInt(0).putShort((short) 17).putLong(9).putInt(1);
        f.write(block(1, 5, recs.array()));
        f.write(block(2, 0, "*future\nx\ty\n*methods\n7\tdemo.A\trun\t()V\n*end\n".getBytes(StandardCharsets.UTF_8)));
        f.write(block(0, 0, new byte[0]));
        Path p = dir.resolve("ext.mtlog");
        Files.write(p, f.toByteArray());
        try (MtlogReader r = MtlogReader.open(p)) {
            assertFalse(r.truncated());
            assertEquals(5, r.minor());
            assertEquals(2, r.recordCount());
            assertEquals("run", r.info().methods().get(7L).methodName());
            List<Integer> types = new ArrayList<>();
            r.forEachRecord((s, t, v, a) -> types.add(t));
            assertEquals(List.of(1, 17), types);
        }
    }

    @Test
    void truncationIsDetectedAndCompleteBlocksStayReadable() throws Exception {
        Path out = dir.resolve("t.mtlog");
        try (MtlogWriter w = new MtlogWriter(out, 0, 0, 10)) {
            for (int i = 0; i < 35; i++) {
                w.record(1, 1, i, 0);
            }
            w.finish(sampleInfo());
        }
        byte[] all = Files.readAllBytes(out);
        for (int cut = MtlogFormat.HEADER_SIZE; cut < all.length; cut += 5) {
            Path p = dir.resolve("cut.mtlog");
            Files.write(p, Arrays.copyOf(all, cut));
            try (MtlogReader r = MtlogReader.open(p)) {
                assertTrue(r.truncated(), "cut at " + cut);
                long[] n = {0};
                r.forEachRecord((s, t, v, a) -> assertEquals(n[0]++, v));
                assertTrue(n[0] % 10 == 0 || n[0] == 35, "only whole blocks, cut at " + cut + ": " + n[0]);
            }
        }
    }

    @Test
    void badFilesAreRejectedWithAClearMessage() throws Exception {
        Path p = dir.resolve("bad.mtlog");
        Files.write(p, new byte[0]);
        assertTrue(assertThrows(MtlogFormatException.class, () -> MtlogReader.open(p)).getMessage().contains("empty"));
        Files.write(p, "hello world, this is not an mtlog file".getBytes(StandardCharsets.UTF_8));
        assertTrue(assertThrows(MtlogFormatException.class, () -> MtlogReader.open(p)).getMessage().contains("bad magic"));
        Files.write(p, header(2, 0, 0));
        assertTrue(assertThrows(MtlogFormatException.class, () -> MtlogReader.open(p)).getMessage().contains("major version 2"));
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write(header(1, 0, 0));
        f.write(block(1, 1, new byte[13]));
        f.write(block(0, 0, new byte[0]));
        Files.write(p, f.toByteArray());
        assertTrue(assertThrows(MtlogFormatException.class, () -> MtlogReader.open(p)).getMessage().contains("multiple of 14"));
    }

    @Test
    void anUnfinishedWriterLeavesNoFileAndTheOldTargetIntact() throws Exception {
        Path out = dir.resolve("keep.mtlog");
        Files.writeString(out, "old");
        try (MtlogWriter w = new MtlogWriter(out, 0, 0)) {
            w.record(1, 1, 1, 0);
        }
        assertEquals("old", Files.readString(out));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(out), files.toList(), "no temporary file left");
        }
    }

    private static byte[] header(int major, int minor, long count) {
        ByteBuffer h = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MtlogFormat.MAGIC).putShort((short) major).putShort((short) minor).putInt(0).putLong(0).putLong(count);
        return h.array();
    }

    private static byte[] block(int kind, int id, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(16 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(kind).putInt(id).putLong(payload.length).put(payload);
        return b.array();
    }
}
