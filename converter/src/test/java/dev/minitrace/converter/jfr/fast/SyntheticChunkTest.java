package dev.minitrace.converter.jfr.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** Hand-built chunks: both integer encodings and the pool layouts the JVM makes only sometimes. */
class SyntheticChunkTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "compressed={0}, entry type id={1}")
    @CsvSource({"true, 101", "false, 101", "true, 70000", "false, 5000000000"})
    void decodesBothEncodingsSplitPoolsAndForwardReferences(boolean compressed, long entryTypeId) throws Exception {
        Path file = dir.resolve("synthetic.jfr");
        Files.write(file, new SyntheticChunk(compressed, entryTypeId).build());
        List<String> seen = new ArrayList<>();
        JfrReader reader = new JfrReader().windowSize(entryTypeId == 101 ? 7 : 1 << 20);
        ReadResult r = reader.read(file, new JfrEventSink() {
            ChunkConstants c;

            @Override
            public void onChunkStart(ChunkHeader header, ChunkConstants constants) {
                c = constants;
                assertEquals(compressed, header.compressedIntegers());
                assertEquals(2, c.threadCount());
            }

            @Override
            public void onDataLoss(long startNanos, long amount, long total) {
                seen.add("lost " + startNanos + " " + amount + " " + total);
            }

            @Override
            public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
                seen.add(c.threadJavaName(threadRef) + "/" + c.threadOsName(threadRef) + "/" + c.threadJavaId(threadRef)
                        + "/" + c.threadOsId(threadRef) + " " + startNanos + " " + methodId + " " + sequence);
            }
        });
        assertEquals(1, r.chunks());
        assertFalse(r.truncated());
        // The entry has an extra string field: the op plan. The data loss event is all varints when
        // compressed: the flat loop. Fixed-width integers: the op plan for every kind.
        assertEquals(ChunkParser.Decoder.PLAN, reader.parser().decoderOf(JfrEventKind.METHOD_ENTRY));
        assertEquals(compressed ? ChunkParser.Decoder.FLAT : ChunkParser.Decoder.PLAN, reader.parser().decoderOf(JfrEventKind.DATA_LOSS));
        // 2,500 ticks at 2.5 GHz = 1,000 ns; 5e9 ticks = 2 s.
        assertEquals(List.of(
                "worker-seven/os-seven/77/777 " + (SyntheticChunk.START_NANOS + 1_000) + " -5 " + (1L << 40),
                "lost " + (SyntheticChunk.START_NANOS + 10_000) + " 4096 " + (1L << 33),
                "five/os-five/55/555 " + (SyntheticChunk.START_NANOS + 2_000_000_000L) + " 42 2"), seen);
    }

    @ParameterizedTest
    @CsvSource({"true", "false"})
    void everyTruncationOfTheChunkIsAStateNotAnException(boolean compressed) throws Exception {
        byte[] chunk = new SyntheticChunk(compressed, 101).build();
        Path file = dir.resolve("cut.jfr");
        for (int cut = 1; cut < chunk.length; cut++) {
            Files.write(file, java.util.Arrays.copyOf(chunk, cut));
            ReadResult r = new JfrReader().windowSize(cut % 2 == 0 ? 5 : 1 << 20).read(file, new JfrEventSink() { });
            assertEquals(0, r.chunks());
            assertEquals(cut, r.bytesLost());
            assertTrue(r.truncated());
        }
    }
}
