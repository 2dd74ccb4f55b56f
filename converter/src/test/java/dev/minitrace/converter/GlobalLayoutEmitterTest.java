package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.mtlog.MtlogWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The global layout's run-wise merge must give exactly the order of the record-by-record merge:
 * always the smallest (timestamp, thread index) among the threads' heads, each thread's own order
 * kept even where its timestamps go back.
 */
class GlobalLayoutEmitterTest {
    @TempDir
    Path dir;

    @Test
    void runsMergeLikeTheRecordByRecordHeap() throws Exception {
        Random rnd = new Random(11);
        for (int round = 0; round < 50; round++) {
            int n = 1 + rnd.nextInt(6);
            ThreadState[] ts = new ThreadState[n];
            EventBuffer[] b = new EventBuffer[n];
            for (int k = 0; k < n; k++) {
                ts[k] = new ThreadState(10 + k);
                b[k] = new EventBuffer();
                int len = rnd.nextInt(300);
                long t = rnd.nextInt(50);
                for (int i = 0; i < len; i++) {
                    // mostly rising, in bursts (time slices), with ties and steps back
                    t += rnd.nextInt(4) == 0 ? rnd.nextInt(40) : rnd.nextInt(2);
                    long time = rnd.nextInt(20) == 0 ? t - rnd.nextInt(10) : t;
                    b[k].add(1 + rnd.nextInt(5), 100 + i, time, k * 1_000_000L + i, 0);
                }
                b[k].normalize();
            }
            List<Long> expected = naiveMerge(b);
            Path out = dir.resolve("g" + round + ".mtlog");
            try (MtlogWriter w = new MtlogWriter(out, MtlogFormat.LAYOUT_GLOBAL, 0, 5)) {
                GlobalLayoutEmitter e = new GlobalLayoutEmitter(w, new GcTable(FragmentPolicy.NONE), Long.MIN_VALUE,
                        Long.MAX_VALUE, ConvertOptions.ALL_TYPES);
                e.emit(ts, b, n);
                w.finish(new MtlogInfo());
            }
            List<Long> actual = new ArrayList<>();
            try (MtlogReader r = MtlogReader.open(out)) {
                r.forEachRecord((stream, type, value, aux) -> {
                    actual.add(value);
                    assertEquals(10 + value / 1_000_000L, aux, "aux is the thread id");
                });
            }
            assertEquals(expected, actual, "round " + round);
        }
    }

    /** Picks the smallest (time, thread index) head each time. */
    private static List<Long> naiveMerge(EventBuffer[] b) {
        int[] pos = new int[b.length];
        for (int k = 0; k < b.length; k++) {
            pos[k] = b[k].start;
        }
        List<Long> out = new ArrayList<>();
        while (true) {
            int best = -1;
            for (int k = 0; k < b.length; k++) {
                if (pos[k] < b[k].size && (best < 0 || b[k].time[pos[k]] < b[best].time[pos[best]])) {
                    best = k;
                }
            }
            if (best < 0) {
                return out;
            }
            out.add(b[best].value[pos[best]++]);
        }
    }
}
