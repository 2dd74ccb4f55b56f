package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OrderingPipeline#mayOverflow}: when a chunk's GC events are read first, so that its
 * records can be written before it ends instead of waiting on disk.
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
}
