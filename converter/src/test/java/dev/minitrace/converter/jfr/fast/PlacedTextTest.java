package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlacedTextTest {
    private static final int MAX = 64 * 1024;

    /** A chunk of numbered bytes that counts the loads and the bytes they read. */
    private static final class Chunk implements ChunkInput.Loader {
        final byte[] data;
        int loads;
        long bytesLoaded;
        int largestLoad;

        Chunk(int size, long seed) {
            data = new byte[size];
            new SplittableRandom(seed).nextBytes(data);
        }

        @Override
        public void load(long chunkOffset, byte[] b, int length) {
            assertTrue(chunkOffset + length <= data.length, "a load past the chunk's end: " + chunkOffset + " + " + length);
            System.arraycopy(data, (int) chunkOffset, b, 0, length);
            loads++;
            bytesLoaded += length;
            largestLoad = Math.max(largestLoad, length);
        }

        byte[] read(PlacedText text, long at, int n) throws Exception {
            int p = text.at(this, at, n, data.length);
            return Arrays.copyOfRange(text.bytes(), p, p + n);
        }

        byte[] expected(long at, int n) {
            return Arrays.copyOfRange(data, (int) at, (int) at + n);
        }
    }

    @Test
    void everyReadGivesTheChunksBytesWhateverTheOrder() throws Exception {
        Chunk chunk = new Chunk(3 * MAX + 123, 1);
        PlacedText text = new PlacedText(MAX);
        SplittableRandom random = new SplittableRandom(2);
        long at = 0;
        for (int i = 0; i < 20_000; i++) {
            int n = random.nextInt(1, i % 100 == 0 ? 2 * MAX : 300); // now and then a string above the largest window
            switch (random.nextInt(4)) {
                case 0 -> at = random.nextLong(chunk.data.length - n); // anywhere
                case 1 -> at = Math.max(0, at - random.nextInt(500)); // a little back
                default -> at += random.nextInt(400); // on
            }
            at = Math.min(at, chunk.data.length - n);
            assertArrayEquals(chunk.expected(at, n), chunk.read(text, at, n), "bytes at " + at + ", " + n + " of them");
        }
    }

    @Test
    void stringsReadInPoolOrderTakeFewLoadsWhileARepeatedOneKeepsTheOtherWindow() throws Exception {
        Chunk chunk = new Chunk(4 * 1024 * 1024, 3);
        PlacedText text = new PlacedText(MAX);
        long repeated = 100_000;
        int records = 0;
        for (long at = 1_000_000; at + 2000 <= chunk.data.length; at += 2000) {
            // a thread name, then the next buffer's records, as JDK 25's pool serves them
            assertArrayEquals(chunk.expected(repeated, 24), chunk.read(text, repeated, 24));
            assertArrayEquals(chunk.expected(at, 1980), chunk.read(text, at, 1980));
            records++;
        }
        long streamed = chunk.data.length - 1_000_000L;
        // about one load per 64 KB window once grown (each starts at the string the last one cut), a
        // few while growing, one for the repeated string; little read twice
        assertTrue(chunk.loads <= 2 * streamed / MAX + 10, chunk.loads + " loads for " + records + " strings");
        assertTrue(chunk.bytesLoaded <= streamed * 11 / 10 + 2L * MAX, chunk.bytesLoaded + " bytes loaded for " + streamed);
        assertEquals(MAX, chunk.largestLoad);
    }

    @Test
    void stringsReadInNoOrderCostOneSmallLoadEach() throws Exception {
        Chunk chunk = new Chunk(8 * 1024 * 1024, 4);
        PlacedText text = new PlacedText(1 << 20);
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 1000; i++) {
            long at = random.nextLong(chunk.data.length - 64);
            assertArrayEquals(chunk.expected(at, 40), chunk.read(text, at, 40));
        }
        assertTrue(chunk.loads <= 1000, chunk.loads + " loads");
        assertTrue(chunk.bytesLoaded <= 1000L * 2 * PlacedText.FIRST, chunk.bytesLoaded + " bytes loaded: scattered reads load small windows");
    }

    @Test
    void aReadAheadStopsAtTheChunksEnd() throws Exception {
        Chunk chunk = new Chunk(10_000, 6);
        PlacedText text = new PlacedText(MAX);
        for (long at = 0; at + 100 <= chunk.data.length; at += 100) {
            assertArrayEquals(chunk.expected(at, 100), chunk.read(text, at, 100));
        }
        assertArrayEquals(chunk.expected(9_990, 10), chunk.read(text, 9_990, 10)); // the load asserts it stays inside
    }

    @Test
    void aReadInsideAWindowLoadsNothingAndOneByteBeyondItLoads() throws Exception {
        Chunk chunk = new Chunk(MAX, 9);
        PlacedText text = new PlacedText(MAX);
        assertArrayEquals(chunk.expected(0, 10), chunk.read(text, 0, 10));
        assertEquals(PlacedText.FIRST, chunk.largestLoad);
        assertArrayEquals(chunk.expected(4000, PlacedText.FIRST - 4000), chunk.read(text, 4000, PlacedText.FIRST - 4000));
        assertEquals(1, chunk.loads, "the window's last byte is loaded already");
        assertArrayEquals(chunk.expected(4000, PlacedText.FIRST - 3999), chunk.read(text, 4000, PlacedText.FIRST - 3999));
        assertEquals(2, chunk.loads, "one byte past the window");
    }

    @Test
    void clearForgetsTheWindowsOfTheChunkBefore() throws Exception {
        Chunk first = new Chunk(MAX, 7);
        Chunk second = new Chunk(MAX, 8);
        PlacedText text = new PlacedText(MAX);
        assertArrayEquals(first.expected(10, 50), first.read(text, 10, 50));
        text.clear();
        assertArrayEquals(second.expected(10, 50), second.read(text, 10, 50));
        assertEquals(1, second.loads);
    }
}
