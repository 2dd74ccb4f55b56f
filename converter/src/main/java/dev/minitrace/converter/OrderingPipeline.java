package dev.minitrace.converter;

import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Puts each thread's records in exactly the order the thread made them and hands them to the
 * writer, in bounded memory, for any recording.
 *
 * <p>The rule: a record is written only when every earlier record of its thread is known. A
 * thread's sequence numbers are dense from 1, so that is the case exactly when the records from
 * the thread's next sequence number up to it have all been read: at the end of each chunk the
 * <em>releasable</em> prefix of each thread (no gap from its next number) is written, and the rest
 * waits, however many chunks it takes for a late buffer to arrive. A thread whose first records
 * the recording lacks (it was tracing before the recording began, or the file is a dump of some
 * chunks) waits for the end of the recording, which alone tells that nothing earlier will come.
 * A gap that nothing fills is lost data; the records after it are written at the end, in order.
 *
 * <p>Records are released only at chunk ends, when the chunk's GC events are known: a pause not
 * yet reported then ended after the chunk did, and no record read so far was made after its
 * start (threads are stopped during a pause). In {@link TraceWriter.Order#TIME} a record must also
 * wait until no other thread can still deliver an earlier one: records of the last chunk read, and
 * of every thread after the time a waiting thread has reached, wait for the next chunk end (one
 * chunk of lateness for a thread's newest records, as JFR's chunk rotation gives).
 *
 * <p>Hold-back, spilling and the writer hand-over share one piece of state (what waits where:
 * {@code inMemory}, each thread's segments, the batch in flight) and one invariant: nothing is
 * written before its thread's earlier records. The merge of one thread's runs is the inner class
 * {@code ThreadSource}.
 *
 * <p>Memory: when the columns pass the bound, their slack is given back first (emptied batch
 * buffers, slots already written, growth headroom); only when the waiting records themselves fill
 * most of the bound (or more than {@code maxPending} wait) are they spilled, a sorted run per
 * thread, to a {@link SpillStore}; releasing merges a thread's runs and its records
 * in memory. Writing a chunk's releasable records runs on a second thread while the next chunk is
 * read, when they are all in memory and at most half the bound; the spill path runs in place.
 */
final class OrderingPipeline implements AutoCloseable {
    /** {@link ThreadState#next} while the thread's first sequence number is not known. */
    static final long UNKNOWN = Long.MIN_VALUE;
    /**
     * A thread's waiting records that make the releasable records of all threads go to the writer
     * before the chunk ends, once its GC events are known (again at each multiple; a power of two).
     */
    private static final int EARLY_RELEASE_RECORDS = 1 << 18;
    /** Records per block when a thread's records are merged from memory and spill runs. */
    private static final int BLOCK_RECORDS = 1 << 16;
    /** Records of all blocks together when all threads are merged at once ({@code TIME} order). */
    private static final int MERGE_BUDGET_RECORDS = 1 << 20;
    /** Read buffer bytes of all spill cursors together when all threads are merged at once. */
    private static final int CURSOR_BUDGET_BYTES = 32 << 20;

    private final ThreadTable threads;
    private final RecordEmitter emitter;
    private final GcTable gcs;
    private final SequenceAudit audit;
    private final boolean timeOrder;
    private final MemoryMeter meter;
    /** Column bytes ({@link MemoryMeter}) the threads' buffers may hold before records are written early or spilled. */
    private final long maxSlots;
    private final long maxPending;
    /** Records one thread's buffer may hold: a third of the budget. */
    private final long maxThreadRecords;
    private final boolean parallel;
    private final Path spillDir;
    private final String spillName;
    private SpillStore spill;
    private long inMemory;
    /** Segments not consumed yet, all threads. */
    private long openSegments;
    private long spills;
    /** The current chunk's GC events are all known: its records may be written before it ends. */
    private boolean gcsKnown;

    private ExecutorService writerThread;
    private Future<?> inFlight;

    /**
     * @param maxSlots   column bytes ({@link MemoryMeter}) the threads' buffers may hold before records are spilled
     * @param maxPending records that may wait in memory before they are spilled (a test knob; {@code Long.MAX_VALUE}: none)
     */
    OrderingPipeline(ThreadTable threads, RecordEmitter emitter, GcTable gcs, SequenceAudit audit, boolean timeOrder,
            MemoryMeter meter, long maxSlots, long maxPending, boolean parallel, Path spillDir, String spillName) {
        this.threads = threads;
        this.emitter = emitter;
        this.gcs = gcs;
        this.audit = audit;
        this.timeOrder = timeOrder;
        this.meter = meter;
        this.maxSlots = maxSlots;
        this.maxPending = maxPending;
        this.maxThreadRecords = Math.max(1024, maxSlots / 3 / (MemoryMeter.BYTES_PER_SLOT + Long.BYTES));
        this.parallel = parallel;
        this.spillDir = spillDir;
        this.spillName = spillName;
    }

    /** One record of thread {@code ts}. */
    void add(ThreadState ts, int type, long seq, long time, long value, int aux) {
        if (ts.pending.count >= maxThreadRecords) {
            // one busy thread's buffer must not grow past a third of the budget: growing it would
            // hold its old and new columns at once
            try {
                relieve();
                if (ts.pending.count >= maxThreadRecords / 2) {
                    spill(ts);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (gcsKnown && ts.pending.count >= EARLY_RELEASE_RECORDS
                && (ts.pending.count & (EARLY_RELEASE_RECORDS - 1)) == 0 && openSegments == 0) {
            // the chunk's GCs are known: what continues its thread's sequence goes to the writer
            // thread now, while reading goes on, and the two buffers of a busy thread take turns at
            // a steady size instead of growing to the bound and being trimmed by relieve()
            awaitWriter();
            try {
                releaseFromMemory(Long.MAX_VALUE, false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ts.pending.add(type, seq, time, value, aux);
        if (seq == 1 && ts.next == UNKNOWN) {
            ts.next = 1;
        }
        if (++inMemory > maxPending || (inMemory & 1023) == 0 && meter.bytes() > maxSlots) {
            try {
                relieve();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * The records {@code k < n} of thread {@code ts}: type {@code types[from + k]}, sequence
     * {@code seqs[from + k]}, aux {@code aux[from + k]}, time {@code times[k]} and value
     * {@code values[k]}; the same as a {@link #add(ThreadState, int, long, long, long, int)} each.
     * The runs between the points where a record at a time would check the bounds (every 1024
     * records, a thread's early release, its share of the bound) go to the buffer at once.
     */
    void add(ThreadState ts, int[] types, long[] seqs, int[] aux, int from, long[] times, long[] values, int n) {
        int k = 0;
        while (k < n) {
            int c = ts.pending.count;
            int run = runBeforeCheck(c, n - k);
            if (run == 0) {
                add(ts, types[from + k], seqs[from + k], times[k], values[k], aux[from + k]);
                k++;
                continue;
            }
            int added = ts.pending.addRun(types, seqs, aux, from + k, times, values, k, run);
            for (int i = added; i < run; i++) { // not a run at its buffer's end: a record at a time
                ts.pending.add(types[from + k + i], seqs[from + k + i], times[k + i], values[k + i], aux[from + k + i]);
            }
            if (ts.next == UNKNOWN) {
                for (int i = 0; i < run; i++) {
                    if (seqs[from + k + i] == 1) {
                        ts.next = 1;
                        break;
                    }
                }
            }
            inMemory += run;
            k += run;
            if (inMemory > maxPending || (inMemory & 1023) == 0 && meter.bytes() > maxSlots) {
                try {
                    relieve();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /**
     * How many of the next {@code left} records of a thread whose buffer holds {@code count} may be
     * added before {@link #add(ThreadState, int, long, long, long, int)} would check a bound: none
     * of them before its add, and only the last one after it; 0 when the next record checks one.
     */
    private int runBeforeCheck(int count, int left) {
        if (count >= maxThreadRecords || inMemory >= maxPending) {
            return 0;
        }
        long run = Math.min(left, Math.min(maxThreadRecords - count, maxPending - inMemory));
        run = Math.min(run, 1024 - (inMemory & 1023));
        if (gcsKnown && openSegments == 0) {
            if (count >= EARLY_RELEASE_RECORDS && (count & (EARLY_RELEASE_RECORDS - 1)) == 0) {
                return 0;
            }
            long nextRelease = Math.max(EARLY_RELEASE_RECORDS, (count | (EARLY_RELEASE_RECORDS - 1)) + 1L);
            run = Math.min(run, nextRelease - count);
        }
        return (int) run;
    }

    /**
     * True when a chunk of {@code chunkBytes} may not fit beside what waits now: then reading its
     * GC events first pays (a second pass over the chunk), since its records can then be written
     * before it ends instead of spilled. Packed records take at least 3 bytes of a chunk each, and
     * all of them may be one thread's: a chunk that could take a busy thread past its share of the
     * bound ({@code maxThreadRecords}) is read twice too, else that thread's records are spilled
     * though the bound has room. Decided from what was delivered so far only, so both engines
     * decide alike.
     */
    boolean mayOverflow(long chunkBytes) {
        return mayOverflowBySize(chunkBytes) || !timeOrder && (meter.bytes() + chunkBytes / 3 * MemoryMeter.BYTES_PER_SLOT * 3 / 2 > maxSlots
                || inMemory + chunkBytes / 3 > maxPending);
    }

    /** The part of {@link #mayOverflow} that the chunk's size alone decides; safe on any thread (final fields only). */
    boolean mayOverflowBySize(long chunkBytes) {
        return !timeOrder && chunkBytes / 3 >= maxThreadRecords;
    }

    /** The current chunk's GC events were all read ({@link dev.minitrace.converter.jfr.RecordingSink#chunkGcsRead}). */
    void chunkGcsRead() {
        // TIME order also waits for the other threads' records of the chunk: it writes at chunk ends only
        gcsKnown = !timeOrder;
    }

    /**
     * Memory is short: when the chunk's GC events are known, the records that continue their
     * threads' sequences are written now (every pause they can follow is known: a pause not
     * reported in this chunk ended after it, and threads are stopped during a pause); what still
     * waits, for a late buffer or a recording's end, is spilled.
     */
    private void relieve() throws IOException {
        if (gcsKnown) {
            awaitWriter();
            if (openSegments > 0) {
                release(Long.MAX_VALUE, false);
            } else {
                releaseFromMemory(Long.MAX_VALUE, true);
            }
            if (inMemory <= maxPending / 2 && meter.bytes() <= maxSlots / 2) {
                return;
            }
        }
        if (!compact()) {
            spillAll();
        }
    }

    /**
     * Gives back the slack of the columns: the emptied batch buffers first, then, only if that does
     * not leave a quarter of the bound free, the written slots and growth headroom of the waiting
     * ones (trimmed buffers grow back through copies as their records come in). True when a quarter
     * of the bound is free, so that spilling (writing and reading every waiting record once more)
     * is needed only when the waiting records themselves fill the bound; in {@code TIME} order a
     * chunk's records always wait for the next one, and a buffer that is never empty keeps its
     * largest size.
     */
    private boolean compact() {
        awaitWriter();
        long target = maxSlots / 4 * 3;
        ThreadState[] sorted = threads.sorted();
        for (ThreadState t : sorted) {
            t.spare.release();
            if (t.pending.count == 0) {
                t.pending.release();
            }
        }
        if (meter.bytes() > target) {
            for (ThreadState t : sorted) {
                if (t.pending.count > 0) {
                    t.pending.trim();
                }
            }
        }
        return inMemory <= maxPending / 2 && meter.bytes() <= target;
    }

    /** Records spilled to disk, and the bytes they took there. */
    long spilledRecords() {
        return spill == null ? 0 : spill.recordsWritten();
    }

    long spilledBytes() {
        return spill == null ? 0 : spill.bytesWritten();
    }

    long spills() {
        return spills;
    }

    /** The most read buffer bytes the spill runs' cursors held at once. */
    long peakCursorBytes() {
        return spill == null ? 0 : spill.peakCursorBytes();
    }

    /**
     * Spills the records of the threads that wait for a missing record first (they cannot be
     * written at the next chunk end anyway), and the others' too if that does not free half the bound.
     */
    private void spillAll() throws IOException {
        ThreadState[] sorted = threads.sorted();
        for (ThreadState t : sorted) {
            if (t.pending.count > 0 && waiting(t)) {
                spill(t);
            }
        }
        if (inMemory > maxPending / 2 || meter.bytes() > maxSlots / 2) {
            for (ThreadState t : sorted) {
                if (t.pending.count > 0) {
                    spill(t);
                }
            }
        }
        if (meter.bytes() > maxSlots / 2) {
            // what idle threads' emptied buffers keep: the batch in flight is written first
            awaitWriter();
            for (ThreadState t : sorted) {
                t.spare.release();
                if (t.pending.count == 0) {
                    t.pending.release();
                }
            }
        }
        spills++;
    }

    private void spill(ThreadState t) throws IOException {
        if (spill == null) {
            spill = new SpillStore(spillDir, spillName);
        }
        EventBuffer b = t.pending;
        int n = b.count;
        b.normalize();
        t.segments.add(spill.write(b, b.start, b.size));
        openSegments++;
        b.release();
        inMemory -= n;
    }

    /** The end of a chunk that started at {@code chunkStartNanos}: writes what may be written. */
    void chunkEnd(long chunkStartNanos) {
        gcsKnown = false;
        awaitWriter();
        long limit = timeOrder ? timeHorizon(chunkStartNanos) : Long.MAX_VALUE;
        try {
            if (openSegments > 0) {
                release(limit, false);
            } else {
                releaseFromMemory(limit, false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The time before which every thread's records are known ({@code TIME} order): the start of
     * the chunk just read, and no later than where a waiting thread stands, since its missing
     * records come after its last written one.
     */
    private long timeHorizon(long chunkStartNanos) {
        long h = chunkStartNanos;
        for (ThreadState t : threads.sorted()) {
            if ((t.pending.count > 0 || !t.segments.isEmpty()) && waiting(t)) {
                h = Math.min(h, t.next == UNKNOWN ? Long.MIN_VALUE : t.lastTime);
            }
        }
        return h;
    }

    /** True when {@code t}'s next record is missing (or may be), as far as can be told without reading spill runs. */
    private static boolean waiting(ThreadState t) {
        // the lowest of memory and spill runs: a thread's next records may be on disk
        return t.next == UNKNOWN || t.waiting || lowestBound(t) > t.next;
    }

    /** No record of {@code t} waiting in memory or on disk has a lower sequence number than this. */
    private static long lowestBound(ThreadState t) {
        long low = t.pending.count > 0 ? t.pending.minSeq() : Long.MAX_VALUE;
        for (SpillStore.Segment s : t.segments) {
            low = Math.min(low, s.lowerBound());
        }
        return low;
    }

    /** The fast path: every thread's records are in memory; the releasable ones go to the writer thread. */
    private void releaseFromMemory(long limit, boolean inPlace) throws IOException {
        ThreadState[] sorted = threads.sorted();
        ThreadState[] ts = new ThreadState[sorted.length];
        EventBuffer[] batches = new EventBuffer[sorted.length];
        int n = 0;
        long events = 0;
        for (ThreadState t : sorted) {
            if (t.next == UNKNOWN || t.pending.count == 0) {
                continue;
            }
            int k = t.pending.releasable(t.next, limit);
            if (k == 0) {
                t.waiting = t.pending.minSeq() > t.next;
                continue;
            }
            EventBuffer batch;
            if (k == t.pending.count) {
                batch = t.pending;
                t.pending = t.spare;
                t.spare = batch;
            } else {
                t.pending.moveHead(k, t.spare);
                batch = t.spare;
            }
            t.next = Math.max(t.next, batch.seq(batch.start + k - 1) + 1);
            t.waiting = t.pending.count > 0 && t.pending.minSeq() > t.next;
            inMemory -= k;
            events += k;
            ts[n] = t;
            batches[n++] = batch;
        }
        if (n == 0) {
            return;
        }
        long[] pointTimes = gcs.pointTimes();
        long[] pointGcIds = gcs.pointGcIds();
        int count = n;
        // The batch's columns stay counted by the meter while the writer thread writes them.
        if (!parallel || inPlace) {
            writeBatches(ts, batches, count, pointTimes, pointGcIds);
            return;
        }
        if (writerThread == null) {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "mtlog-writer");
                t.setDaemon(true);
                return t;
            });
            pool.allowCoreThreadTimeOut(true);
            writerThread = pool;
        }
        inFlight = writerThread.submit(() -> {
            writeBatches(ts, batches, count, pointTimes, pointGcIds);
            return null;
        });
    }

    /** Checks and writes one hand-over's batches (the threads' spare buffers), then empties them (possibly on the writer thread). */
    private void writeBatches(ThreadState[] ts, EventBuffer[] batches, int n, long[] pointTimes,
            long[] pointGcIds) throws IOException {
        for (int k = 0; k < n; k++) {
            batches[k].normalize();
            audit.account(ts[k], batches[k]);
        }
        emitter.points(pointTimes, pointGcIds);
        emitter.emit(ts, batches, n);
        // Kept at their size for the threads' next batches while the bound allows (relieve() gives
        // them back when waiting records need the room): a buffer emptied to its small size grows
        // back through half a dozen copies in every chunk (docs/decisions.md).
        boolean keep = meter.bytes() <= maxSlots;
        for (int k = 0; k < n; k++) {
            if (keep) {
                batches[k].empty();
            } else {
                batches[k].clear();
            }
        }
    }

    /**
     * The general path: each thread's releasable records (all of them when {@code all}) are merged
     * from memory and its spill runs by sequence and written, a block at a time.
     */
    private void release(long limit, boolean all) throws IOException {
        List<ThreadSource> sources = new ArrayList<>();
        int segments = 0;
        for (ThreadState t : threads.sorted()) {
            if (t.pending.count == 0 && t.segments.isEmpty() || !all && (t.next == UNKNOWN || lowestBound(t) > t.next)) {
                continue;
            }
            sources.add(new ThreadSource(t, limit, all));
            segments += t.segments.size();
        }
        if (sources.isEmpty()) {
            return;
        }
        emitter.points(gcs.pointTimes(), gcs.pointGcIds());
        int n = sources.size();
        if (timeOrder) {
            // every thread's merge is open at once: share the budgets
            int block = Math.max(256, Math.min(BLOCK_RECORDS, MERGE_BUDGET_RECORDS / n));
            int cursorBytes = cursorBytes(segments);
            ThreadState[] ts = new ThreadState[n];
            RecordEmitter.Source[] src = new RecordEmitter.Source[n];
            for (int i = 0; i < n; i++) {
                ThreadSource s = sources.get(i);
                s.sizes(block, cursorBytes);
                ts[i] = s.t;
                src[i] = s;
            }
            emitter.emit(ts, src, n);
            for (ThreadSource s : sources) {
                s.close();
            }
        } else {
            for (ThreadSource s : sources) {
                // one thread's runs at a time, all of them open at once if they overlap
                s.sizes(BLOCK_RECORDS, cursorBytes(s.segs.length));
                emitter.emit(new ThreadState[] {s.t}, new RecordEmitter.Source[] {s}, 1);
                s.close();
            }
        }
    }

    /** Each cursor's read buffer when {@code runs} runs may be open at once: their share of the budget, 4 to 64 KB. */
    private static int cursorBytes(int runs) {
        return Math.max(4096, Math.min(1 << 16, CURSOR_BUDGET_BYTES / Math.max(1, runs)));
    }

    /** At the end of the recording: writes every record still waiting, in order, gaps and all. */
    void finish() throws IOException {
        try {
            awaitWriter();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        release(Long.MAX_VALUE, true);
    }

    /** Waits until the batch in flight is written; its failure becomes this thread's. */
    private void awaitWriter() {
        Future<?> f = inFlight;
        if (f == null) {
            return;
        }
        inFlight = null;
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the output", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Waits for the writer thread and lets it go, and removes the spill file; safe to call more than once. */
    @Override
    public void close() throws IOException {
        try {
            awaitWriter();
        } finally {
            if (writerThread != null) {
                writerThread.shutdown();
                writerThread = null;
            }
            if (spill != null) {
                spill.close();
                spill = null;
            }
        }
    }

    /**
     * One thread's records in sequence order, merged from its records in memory and its spill runs:
     * while they continue its sequence and are before the time limit, or all of them. Runs are
     * opened in the order of their lowest sequence, only when they may hold the next record (a
     * waiting thread's runs mostly follow each other), and merged with a heap.
     */
    private final class ThreadSource implements RecordEmitter.Source {
        final ThreadState t;
        private final long limit;
        private final boolean all;
        private final EventBuffer mem;
        private int memPos;
        private final SpillStore.Segment[] segs;
        private int nextSeg;
        /** Open cursors, a heap by (head sequence, run index); runs before memory on a tie (they arrived first). */
        private SpillStore.Cursor[] heap;
        private int[] heapRun;
        private int heapSize;
        private final EventBuffer block = new EventBuffer();
        private int blockRecords;
        private int cursorBytes;
        private long expect;
        private boolean filled;
        private boolean stoppedByGap;

        ThreadSource(ThreadState t, long limit, boolean all) {
            this.t = t;
            this.limit = limit;
            this.all = all;
            this.mem = t.pending;
            mem.normalize();
            this.memPos = mem.start;
            this.expect = t.next;
            this.segs = t.segments.toArray(new SpillStore.Segment[0]);
            java.util.Arrays.sort(segs, java.util.Comparator.comparingLong(SpillStore.Segment::lowerBound));
            this.heap = new SpillStore.Cursor[Math.max(1, segs.length)];
            this.heapRun = new int[heap.length];
        }

        void sizes(int blockRecords, int cursorBytes) {
            this.blockRecords = blockRecords;
            this.cursorBytes = cursorBytes;
        }

        @Override
        public EventBuffer block() {
            if (!filled) {
                fill();
                filled = true;
            }
            return block;
        }

        @Override
        public boolean refill() {
            fill();
            return block.count > 0;
        }

        private void fill() {
            try {
                fillBlock();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void fillBlock() throws IOException {
            block.clear();
            while (block.count < blockRecords) {
                long memSeq = memPos < mem.size ? mem.seq(memPos) : Long.MAX_VALUE;
                // open the runs that may hold a record at or below the smallest head known
                while (nextSeg < segs.length) {
                    long known = Math.min(memSeq, heapSize > 0 ? heap[0].seq() : Long.MAX_VALUE);
                    if (known != Long.MAX_VALUE && segs[nextSeg].lowerBound() > known) {
                        break;
                    }
                    SpillStore.Cursor c = spill.new Cursor(segs[nextSeg], cursorBytes);
                    if (c.hasNext()) {
                        push(c, nextSeg);
                    } else {
                        c.close();
                    }
                    nextSeg++;
                }
                boolean fromRun = heapSize > 0 && heap[0].seq() <= memSeq;
                if (!fromRun && memSeq == Long.MAX_VALUE) {
                    break;
                }
                long seq = fromRun ? heap[0].seq() : memSeq;
                long time = fromRun ? heap[0].time() : mem.time[memPos];
                if (!all && (seq > expect || time >= limit)) {
                    stoppedByGap = seq > expect;
                    break;
                }
                if (fromRun) {
                    SpillStore.Cursor c = heap[0];
                    c.take(block);
                    if (c.hasNext()) {
                        down(0);
                    } else {
                        // a run read to its end lets its buffer go now, not when the whole merge ends:
                        // a thread that spilled thousands of runs would hold a buffer for each
                        c.close();
                        heap[0] = heap[--heapSize];
                        heapRun[0] = heapRun[heapSize];
                        down(0);
                    }
                } else {
                    block.add(mem.type[memPos], seq, time, mem.value[memPos], mem.aux[memPos]);
                    memPos++;
                }
                if (expect == UNKNOWN || seq >= expect) {
                    expect = seq + 1;
                }
            }
            block.normalize();
            audit.account(t, block);
        }

        private boolean less(int a, int b) {
            long sa = heap[a].seq();
            long sb = heap[b].seq();
            return sa < sb || sa == sb && heapRun[a] < heapRun[b];
        }

        private void push(SpillStore.Cursor c, int run) {
            int i = heapSize++;
            heap[i] = c;
            heapRun[i] = run;
            while (i > 0) {
                int p = (i - 1) >>> 1;
                if (!less(i, p)) {
                    return;
                }
                swap(i, p);
                i = p;
            }
        }

        private void down(int i) {
            while (true) {
                int l = 2 * i + 1;
                if (l >= heapSize) {
                    return;
                }
                int m = l + 1 < heapSize && less(l + 1, l) ? l + 1 : l;
                if (!less(m, i)) {
                    return;
                }
                swap(i, m);
                i = m;
            }
        }

        private void swap(int a, int b) {
            SpillStore.Cursor c = heap[a];
            heap[a] = heap[b];
            heap[b] = c;
            int r = heapRun[a];
            heapRun[a] = heapRun[b];
            heapRun[b] = r;
        }

        /** Gives back what was taken: memory entries dropped, spill runs advanced, the thread's next number. */
        void close() {
            int taken = memPos - mem.start;
            mem.dropHead(taken);
            inMemory -= taken;
            for (int i = 0; i < heapSize; i++) {
                heap[i].close();
            }
            int before = t.segments.size();
            t.segments.removeIf(s -> s.remaining() == 0);
            openSegments -= before - t.segments.size();
            if (expect != UNKNOWN) {
                t.next = Math.max(t.next, expect);
            }
            t.waiting = stoppedByGap;
            block.release();
        }
    }
}
