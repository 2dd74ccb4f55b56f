package dev.minitrace.converter.mtlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MtlogWriter#records} must write the same bytes and blocks as one {@link MtlogWriter#record} call per record. */
class MtlogWriterRunsTest {
    @TempDir
    Path dir;

    @Test
    void runsGiveTheSameFileAsSingleRecords() throws Exception {
        Random rnd = new Random(7);
        int n = 50_000;
        byte[] type = new byte[n];
        long[] value = new long[n];
        int[] aux = new int[n];
        for (int i = 0; i < n; i++) {
            type[i] = (byte) (1 + rnd.nextInt(6));
            value[i] = rnd.nextLong();
            aux[i] = rnd.nextInt();
        }
        // runs of random length on random streams (some above 2^31, negative as int), small and odd block sizes
        int[] streams = {1, 2, 17, 0xFFFFFFFF, 0x80000001};
        for (int block : new int[] {1, 7, 4096}) {
            Path single = dir.resolve("single-" + block + ".mtlog");
            Path runs = dir.resolve("runs-" + block + ".mtlog");
            long seed = rnd.nextLong();
            try (MtlogWriter a = new MtlogWriter(single, MtlogFormat.LAYOUT_THREAD, 5, block);
                 MtlogWriter b = new MtlogWriter(runs, MtlogFormat.LAYOUT_THREAD, 5, block)) {
                Random r = new Random(seed);
                for (int i = 0; i < n; ) {
                    int len = Math.min(n - i, r.nextInt(3) == 0 ? r.nextInt(3) : r.nextInt(10_000));
                    int stream = streams[r.nextInt(streams.length)];
                    for (int k = i; k < i + len; k++) {
                        a.record(stream, type[k], value[k], aux[k]);
                    }
                    b.records(stream, type, value, aux, i, i + len);
                    i += len;
                }
                assertEquals(a.recordCount(), b.recordCount());
                MtlogInfo info = new MtlogInfo();
                a.finish(info);
                b.finish(new MtlogInfo());
            }
            assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(runs), "block " + block);
        }
    }
}
