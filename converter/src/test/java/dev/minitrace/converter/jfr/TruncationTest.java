package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.BothEngines;
import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.MtlogContent;
import dev.minitrace.converter.Oracles;
import dev.minitrace.converter.TestRecordings;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recording cut at many offsets converts every complete chunk, reports the loss, and matches RecordingFile on those chunks. */
class TruncationTest {
    @TempDir
    Path dir;

    @Test
    void everyCutConvertsTheCompleteChunks() throws Exception {
        Path full = TestRecordings.record(dir.resolve("full.jfr"), 2, 20, true).file();
        byte[] bytes = Files.readAllBytes(full);
        // chunk boundaries read independently: the chunk size is the big-endian u64 at offset 8 of each chunk
        List<Long> ends = new ArrayList<>();
        for (long pos = 0; pos < bytes.length; ) {
            pos += ByteBuffer.wrap(bytes, (int) pos + 8, 8).getLong();
            ends.add(pos);
        }
        assertTrue(ends.size() >= 2, "the recording has several chunks: " + ends);
        assertEquals(ends, JfrChunks.scan(full).chunks().stream().map(c -> c.offset() + c.size()).toList());
        TreeSet<Long> cuts = new TreeSet<>();
        for (long e : ends) {
            cuts.add(e - 1);
            cuts.add(e);
            cuts.add(e + 1);
        }
        for (int i = 1; i < 25; i++) {
            cuts.add((long) bytes.length * i / 25);
        }
        cuts.addAll(List.of(1L, 3L, 4L, 67L, 68L, 69L));
        cuts.removeIf(c -> c >= bytes.length);
        for (long cut : cuts) {
            Path in = dir.resolve("cut.jfr");
            Files.write(in, Arrays.copyOf(bytes, (int) cut));
            Path out = dir.resolve("cut.mtlog");
            Files.deleteIfExists(out);
            long complete = ends.stream().filter(e -> e <= cut).mapToLong(Long::longValue).max().orElse(0);
            Converter converter = new Converter(ConvertOptions.defaults(), new FastRecordingSource());
            if (complete == 0) {
                JfrInputException e = assertThrows(JfrInputException.class, () -> converter.convert(in, out, null), "cut " + cut);
                assertTrue(e.getMessage().contains("not a JFR") || e.getMessage().contains("truncated"), e.getMessage());
                assertTrue(Files.notExists(out), "nothing written for cut " + cut);
                continue;
            }
            ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), in, out);
            assertEquals(complete != cut, report.lostData(), "cut " + cut + ": " + report.warnings());
            if (complete != cut) {
                assertTrue(report.warnings().get(0).contains("the last " + (cut - complete) + " bytes lost"), report.warnings().get(0));
            }
            Path prefix = dir.resolve("prefix.jfr");
            Files.write(prefix, Arrays.copyOf(bytes, (int) complete));
            assertEquals(Oracles.recordingFile(prefix), MtlogContent.read(out).traceCounts(), "cut " + cut);
        }
    }

    @Test
    void notJfrAndEmptyAreRejected() throws Exception {
        Path empty = dir.resolve("empty.jfr");
        Files.write(empty, new byte[0]);
        assertTrue(assertThrows(JfrInputException.class, () -> JfrChunks.scan(empty)).getMessage().contains("empty"));
        Path text = dir.resolve("text.jfr");
        Files.writeString(text, "just some text that is long enough to be a header of sorts, but it is not one at all");
        assertTrue(assertThrows(JfrInputException.class, () -> JfrChunks.scan(text)).getMessage().contains("not a JFR recording"));
    }
}
