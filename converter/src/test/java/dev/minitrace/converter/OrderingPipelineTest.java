package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.TraceWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OrderingPipeline#mayOverflow}: when a chunk's GC events are read first, so that its
 * records can be written before it ends instead of waiting on disk; and how a thread's spilled runs
 * are read back.
 */
class OrderingPipelineTest {
    /** Column bytes of a record waiting in a thread's buffer, with its sequence. */
    private static final long SLOT = MemoryMeter.BYTES_PER_SLOT + Long.BYTES;

    @TempDir
    Path dir;

    private OrderingPipeline pipeline(boolean timeOrder, long maxSlots) {
        MemoryMeter meter = new MemoryMeter();
        return new OrderingPipeline(new ThreadTable(null, meter), null, new GcTable(FragmentPolicy.MOVING), new SequenceAudit(),
                timeOrder, meter, maxSlots, Long.MAX_VALUE, false, dir, "t");
    }

    @Test
    void aChunkThatOneThreadCouldFillPastItsShareReadsItsGcsFirst() throws Exception {
        // One thread may hold 100,000 records (a third of the budget); the whole budget holds
        // about 276,000 of a chunk's records with growth room.
        long maxSlots = 3 * 100_000 * SLOT;
        try (OrderingPipeline p = pipeline(false, maxSlots)) {
            // 150,000 records at most (3 bytes each at the least), all of them maybe one thread's:
            // within the budget, but past the thread's share, which the ecj compiler's recording
            // passed in every chunk (42.5 M records waited on disk before this rule)
            assertTrue(p.mayOverflow(450_000));
            assertTrue(p.mayOverflow(3_000_000), "past the whole budget");
            assertFalse(p.mayOverflow(240_000), "80,000 records fit one thread's share: one pass");
            // the part that the size alone decides, answered without waiting for the records in flight
            assertTrue(p.mayOverflowBySize(450_000));
            assertFalse(p.mayOverflowBySize(240_000));
        }
        try (OrderingPipeline p = pipeline(true, maxSlots)) {
            assertFalse(p.mayOverflow(3_000_000), "the global layout writes at chunk ends whatever it knows");
            assertFalse(p.mayOverflowBySize(3_000_000));
        }
    }

    /**
     * A thread whose first record comes last (a late buffer) spills a run per thousand records. They
     * come back in order, and each run's read buffer is let go when the run is read to its end: the
     * export of a 200-thread recording ran out of heap holding a 64 KB buffer for each of a thread's
     * thousands of runs until the thread's merge ended.
     */
    @Test
    void aThreadsRunsAreReadBackWithoutHoldingABufferForEach() throws Exception {
        MemoryMeter meter = new MemoryMeter();
        ThreadTable threads = new ThreadTable(null, meter);
        long[] seen = {0, Long.MIN_VALUE};
        TraceWriter writer = new TraceWriter() {
            @Override
            public Order order() {
                return Order.THREAD;
            }

            @Override
            public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) {
                for (int i = from; i < to; i++) {
                    assertTrue(time[i] > seen[1], "in sequence order: " + time[i] + " after " + seen[1]);
                    seen[1] = time[i];
                    seen[0]++;
                }
            }

            @Override
            public void fragment(long threadKey, long gcId, long startNanos) {
            }

            @Override
            public void finish(MtlogInfo tables) {
            }

            @Override
            public void close() {
            }
        };
        int records = 200_001;
        try (OrderingPipeline p = new OrderingPipeline(threads, RecordEmitter.forWriter(writer, Long.MIN_VALUE, Long.MAX_VALUE, -1),
                new GcTable(FragmentPolicy.MOVING), new SequenceAudit(), false, meter, Long.MAX_VALUE, 1000, false, dir, "t")) {
            ThreadState t = threads.state(1);
            t.selected = true;
            for (long seq = 2; seq <= records; seq++) {
                p.add(t, MtlogFormat.METHOD_ENTRY, seq, 1_000_000 + seq * 10, seq % 7, 0);
            }
            p.add(t, MtlogFormat.METHOD_ENTRY, 1, 1_000_010, 1, 0);
            p.finish();
            assertEquals(records, seen[0]);
            assertTrue(p.spills() >= 150, "spills: " + p.spills());
            assertTrue(p.peakCursorBytes() > 0 && p.peakCursorBytes() * 20 < p.spilledBytes(),
                    "read buffers held at once: " + p.peakCursorBytes() + " bytes of " + p.spilledBytes() + " spilled");
        }
    }
}
