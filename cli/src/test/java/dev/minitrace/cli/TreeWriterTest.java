package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records of {@code mt print --tree} on a recording wait on disk until the names are known:
 * read back, each thread's tree is the one its records give directly, with many threads'
 * batches interleaved across many write buffers, and with {@code --to} cutting what is kept.
 */
class TreeWriterTest {
    private static final long START = 1_000_000_000L;
    private static final int THREADS = 3;
    private static final int RECORDS = 60_000; // per thread: several of the writer's buffers (32,768 records) in all

    @TempDir
    Path dir;

    /** Per thread: type, value, aux, time (absolute ns) of each record, a random call structure. */
    private static long[][][] threads(long seed) {
        Random random = new Random(seed);
        long[][][] all = new long[THREADS][RECORDS][];
        for (int t = 0; t < THREADS; t++) {
            List<Long> open = new ArrayList<>();
            long time = START;
            for (int i = 0; i < RECORDS; i++) {
                time += random.nextInt(3) * 1000L;
                int pick = random.nextInt(10);
                long[] r;
                // deeper calls exit more often, so that the tree stays a few dozen calls deep
                if (open.isEmpty() || pick < 4 && random.nextInt(40) >= open.size()) {
                    long m = 1 + random.nextInt(50);
                    open.add(m);
                    r = new long[] {MtlogFormat.METHOD_ENTRY, m, 0, time};
                } else if (pick < 8 || pick < 9 && open.size() > 30) {
                    // mostly the innermost call, sometimes an outer one (the inner exits were lost)
                    int k = random.nextInt(8) == 0 ? random.nextInt(open.size()) : open.size() - 1;
                    long m = open.get(k);
                    open.subList(k, open.size()).clear();
                    r = new long[] {MtlogFormat.METHOD_EXIT, m, random.nextInt(5) == 0 ? 0 : 7, time};
                } else if (pick < 9) {
                    r = new long[] {MtlogFormat.OBJECT_ALLOC, 100 + random.nextInt(1000), 3, time};
                } else {
                    r = new long[] {MtlogFormat.LOCK_ACQUIRE, 5000 + random.nextInt(10), 2, random.nextInt(20) == 0 ? Long.MIN_VALUE : time};
                }
                all[t][i] = r;
            }
        }
        return all;
    }

    private static List<String> direct(long[][] records, long to) {
        StringWriter s = new StringWriter();
        CallTree tree = new CallTree(new PrintWriter(s), id -> "m" + id, id -> "o" + id, true, true, 1, to);
        for (long[] r : records) {
            tree.record((int) r[0], r[1], (int) r[2], r[3] == Long.MIN_VALUE ? Long.MIN_VALUE : r[3] - START, null);
        }
        tree.end();
        return s.toString().lines().toList();
    }

    /** Feeds the threads' records in batches of random sizes, the threads taking turns. */
    private TreeWriter written(long[][][] all, long to) throws Exception {
        TreeWriter w = new TreeWriter(START, to, dir);
        Random random = new Random(7);
        int[] at = new int[THREADS];
        byte[] type = new byte[5000];
        long[] time = new long[5000];
        long[] value = new long[5000];
        int[] aux = new int[5000];
        for (int done = 0; done < THREADS; ) {
            done = 0;
            for (int t = 0; t < THREADS; t++) {
                int n = Math.min(RECORDS - at[t], 1 + random.nextInt(5000));
                if (n == 0) {
                    done++;
                    continue;
                }
                int offset = random.nextInt(3);
                for (int i = 0; i < n && offset + i < type.length; i++) {
                    long[] r = all[t][at[t] + i];
                    type[offset + i] = (byte) r[0];
                    value[offset + i] = r[1];
                    aux[offset + i] = (int) r[2];
                    time[offset + i] = r[3];
                }
                n = Math.min(n, type.length - offset);
                w.records(t + 10, type, time, value, aux, offset, offset + n);
                at[t] += n;
            }
        }
        w.finish(null);
        w.close(); // as the converter does before the tree is printed
        return w;
    }

    /** Equal lists, or the first line where they differ (a whole tree is too long for a message). */
    private static void assertSameTree(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ", line " + (i + 1));
        }
        assertEquals(expected.size(), actual.size(), what + ", lines");
    }

    private static List<String> printed(TreeWriter.ThreadRecords t, long to) throws Exception {
        StringWriter s = new StringWriter();
        t.print(new CallTree(new PrintWriter(s), id -> "m" + id, id -> "o" + id, true, true, 1, to), START);
        return s.toString().lines().toList();
    }

    @Test
    void eachThreadsTreeIsTheTreeOfItsRecords() throws Exception {
        long[][][] all = threads(42);
        TreeWriter w = written(all, Long.MAX_VALUE);
        try {
            List<TreeWriter.ThreadRecords> back = w.threads();
            assertEquals(THREADS, back.size());
            for (int t = 0; t < THREADS; t++) {
                assertEquals(t + 10, back.get(t).key);
                List<String> expected = direct(all[t], Long.MAX_VALUE);
                assertTrue(expected.size() > RECORDS / 2, "a real tree: " + expected.size() + " lines");
                assertSameTree(expected, printed(back.get(t), Long.MAX_VALUE), "thread " + t);
            }
        } finally {
            w.discard();
        }
    }

    @Test
    void toKeepsWhatThePageNeeds() throws Exception {
        long[][][] all = threads(43);
        for (long to : new long[] {1, 2, 999, 40_000, RECORDS - 1}) {
            TreeWriter w = written(all, to);
            try {
                assertEquals(THREADS * (to + 1), w.recordsWaiting(), "a thread's records up to the one after --to " + to);
                for (int t = 0; t < THREADS; t++) {
                    TreeWriter.ThreadRecords back = w.threads().get(t);
                    assertSameTree(direct(all[t], to), printed(back, to), "thread " + t + ", --to " + to);
                }
            } finally {
                w.discard();
            }
        }
    }

    @Test
    void everyRecordWaitsInAScratchFileThatLeavesNothingBehind() throws Exception {
        TreeWriter w = written(threads(44), Long.MAX_VALUE);
        try (var listing = Files.list(dir)) {
            // the scratch file is unlinked when made (ScratchFile), so nothing is left to list
            assertEquals(List.of(), listing.toList());
            assertEquals((long) THREADS * RECORDS, w.recordsWaiting(), "every record waits");
            // relative to the one before it: a few bytes each, where the arrays hold 21
            assertTrue(w.bytesWaiting() > 0 && w.bytesWaiting() < (long) THREADS * RECORDS * 10, w.bytesWaiting() + " bytes");
        } finally {
            w.discard();
        }
    }
}
