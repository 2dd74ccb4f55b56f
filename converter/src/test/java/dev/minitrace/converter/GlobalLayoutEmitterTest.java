package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.write.MtlogGlobalLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The global layout's run-wise merge must give exactly the order of the record-by-record merge:
 * always the smallest (timestamp, thread index) among the threads' heads, each thread's own order
 * kept even where its timestamps go back; also when each thread's records come in blocks
 * (a thread merged from spill runs), whatever the block size.
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
            assertEquals(expected, merge(ts, n, RecordEmitter.Source[]::new, k -> RecordEmitter.of(b[k]), "g" + round),
                    "round " + round);
            int blockSize = 1 + rnd.nextInt(40);
            assertEquals(expected, merge(ts, n, RecordEmitter.Source[]::new, k -> blocks(b[k], blockSize), "b" + round),
                    "round " + round + ", blocks of " + blockSize);
        }
    }

    private List<Long> merge(ThreadState[] ts, int n, java.util.function.IntFunction<RecordEmitter.Source[]> array,
            java.util.function.IntFunction<RecordEmitter.Source> source, String name) throws Exception {
        RecordEmitter.Source[] s = array.apply(n);
        for (int k = 0; k < n; k++) {
            s[k] = source.apply(k);
        }
        Path out = dir.resolve(name + ".mtlog");
        try (MtlogGlobalLayout w = new MtlogGlobalLayout(out, 0)) {
            GlobalLayoutEmitter e = new GlobalLayoutEmitter(w, Long.MIN_VALUE, Long.MAX_VALUE, ConvertOptions.ALL_TYPES);
            e.emit(ts, s, n);
            w.finish(new MtlogInfo());
        }
        List<Long> actual = new ArrayList<>();
        try (MtlogReader r = MtlogReader.open(out)) {
            r.forEachRecord((stream, type, value, aux) -> {
                actual.add(value);
                assertEquals(10 + value / 1_000_000L, aux, "aux is the thread id");
            });
        }
        return actual;
    }

    /** The records of {@code b} as a source of blocks of {@code size}. */
    private static RecordEmitter.Source blocks(EventBuffer b, int size) {
        return new RecordEmitter.Source() {
            int next = b.start;
            EventBuffer block = cut();

            EventBuffer cut() {
                EventBuffer x = new EventBuffer();
                for (int i = next; i < Math.min(b.size, next + size); i++) {
                    x.add(b.type[i], b.seq(i), b.time[i], b.value[i], b.aux[i]);
                }
                next = Math.min(b.size, next + size);
                x.normalize();
                return x;
            }

            @Override
            public EventBuffer block() {
                return block;
            }

            @Override
            public boolean refill() {
                if (next >= b.size) {
                    return false;
                }
                block = cut();
                return true;
            }
        };
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
