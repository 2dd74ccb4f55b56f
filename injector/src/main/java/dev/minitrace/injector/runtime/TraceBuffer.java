package dev.minitrace.injector.runtime;

import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.wire.TraceBufferFormat;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's packed method records (format: {@link TraceBufferFormat}, {@code docs/trace-buffer.md}),
 * committed as {@link MethodBufferEvent}s.
 *
 * <p>Only the owner thread writes records, without locks: it stores the chars, then publishes the
 * new {@link #position} with release semantics (a plain store on x86). Two parties commit: the
 * owner when the buffer is full, and JFR's periodic thread at every chunk boundary (so a dump holds
 * every record made before it). They exclude each other with {@link #flushing}, a flag the periodic
 * thread only tries once: it never waits for an application thread. The periodic thread reads
 * chars only below the published position, where the owner no longer writes until it has the flag.
 */
final class TraceBuffer {
    /** Most chars one record writes: a skip before it and the record itself. */
    private static final int MAX_WRITE = TraceBufferFormat.MAX_SKIP_CHARS + TraceBufferFormat.MAX_RECORD_CHARS;
    private static final int INITIAL_CHARS = 256;
    /** Large enough to commit a few hundred records at once, small enough that JFR's event fits its 8 KB thread buffer (3 bytes reserved per char). */
    static final int MAX_CHARS = TraceBufferFormat.MAX_BUFFER_CHARS;

    private static final VarHandle POSITION;
    private static final VarHandle FLUSHING;
    /** {@link #flushing}: free. */
    private static final int FREE = 0;
    /** {@link #flushing}: a commit holds the buffer (the owner's of a full buffer, or the periodic thread's). */
    private static final int COMMITTING = 1;
    /** {@link #flushing}: the owner turns its last entry record into a leaf record, a few stores ({@link #fold}). */
    private static final int FOLDING = 2;
    /** How long the periodic thread waits at most for a fold to end before it leaves the records to a later flush. */
    private static final long FOLD_WAIT_NANOS = 10_000_000L;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            POSITION = l.findVarHandle(TraceBuffer.class, "position", int.class);
            FLUSHING = l.findVarHandle(TraceBuffer.class, "flushing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread owner;
    /** Virtual threads retire their buffer when their outermost traced frame returns. */
    final boolean virtual;

    // Owner only (read by the flusher under the flag after the owner released it).
    private char[] chars = new char[INITIAL_CHARS];
    @SuppressWarnings("unused") // through POSITION
    private int position;
    private long expectedSequence;
    private long lastStamp;
    private int lastTick;
    private long lastGc = -1; // no count yet: the first record is stamped
    private long records;
    /**
     * The last record if it is an unstamped entry: where it starts and ends, and its method. An
     * exit of that method right after it, unstamped too, turns it into one leaf record
     * ({@link #fold}); {@code entryEnd} is -1 when there is none.
     */
    private int entryStart;
    private int entryEnd = -1;
    private int entryMethod;

    /**
     * The enablement epoch ({@link Trace#epoch}) the unflushed records belong to. Records left in
     * the buffer when tracing was switched off (made after the last recording's final flush) must
     * not surface in a later recording: a buffer of another epoch is dropped, not committed.
     */
    private int epoch;

    // Guarded by the flag.
    @SuppressWarnings("unused") // through FLUSHING
    private volatile int flushing;
    private int flushed;
    /** The flusher's read position while it counts a range. */
    private int cursor;
    private long flushedSequence;
    private long flushedBase;
    private long flushedRecords;

    TraceBuffer(Thread owner, long nextSequence, int epoch) {
        this.owner = owner;
        this.epoch = epoch;
        this.virtual = owner.getClass().getName().equals("java.lang.VirtualThread");
        this.expectedSequence = nextSequence;
        this.flushedSequence = nextSequence;
        this.lastStamp = TraceClock.ticks();
        this.flushedBase = lastStamp;
    }

    /**
     * Appends a method record of {@code kind} ({@link TraceBufferFormat#ENTRY}, {@code EXIT} or
     * {@code EXIT_BY_EXCEPTION}) with sequence {@code sequence}; {@code bci} only for {@code EXIT}.
     */
    void record(int kind, int methodId, int bci, long sequence) {
        if (kind == TraceBufferFormat.EXIT && position == entryEnd && methodId == entryMethod && sequence == expectedSequence
                && sharesStamp() && fold(bci, sequence)) {
            return;
        }
        method(kind, methodId, bci, sequence, 1);
    }

    /**
     * The exit of the method whose entry is the last record, with nothing of the thread between
     * them and no new stamp: the entry record becomes the leaf record of both (docs/trace-buffer.md),
     * which decodes to the same two records with the same sequence numbers and the same time. The
     * leaf is the entry's header char changed and the exit's bytecode index appended: under the
     * flag, since the periodic thread may be reading the entry's chars, and only while the entry
     * is not committed yet.
     */
    private boolean fold(int bci, long sequence) {
        if (!FLUSHING.compareAndSet(this, FREE, FOLDING)) {
            return false;
        }
        try {
            if (entryStart < flushed) {
                return false; // the periodic thread committed the entry
            }
            char[] c = chars;
            c[entryStart] = (char) (TraceBufferFormat.LEAF | TraceBufferFormat.EXIT | c[entryStart] & TraceBufferFormat.WIDE_ID);
            int p = TraceBufferFormat.putVarint(c, entryEnd, bci); // begin() left room for a whole record after the entry
            expectedSequence = sequence + 1;
            records++;
            entryEnd = -1;
            POSITION.setRelease(this, p);
            return true;
        } finally {
            FLUSHING.setRelease(this, FREE);
        }
    }

    /**
     * Appends a leaf record: the entry of {@code methodId} with sequence {@code entrySequence} and
     * its exit of {@code kind} ({@code EXIT} at {@code bci} or {@code EXIT_BY_EXCEPTION}) with the next.
     */
    void recordLeaf(int kind, int methodId, int bci, long entrySequence) {
        method(TraceBufferFormat.LEAF | kind, methodId, bci, entrySequence, 2);
    }

    private void method(int header, int methodId, int bci, long sequence, int parts) {
        int p = begin(sequence);
        int start = p;
        expectedSequence = sequence + parts;
        char[] c = chars;
        long delta = stampDelta();
        int h = header | TraceBufferFormat.idForm(methodId);
        c[p++] = (char) (delta >= 0 ? h | TraceBufferFormat.STAMPED : h);
        p = TraceBufferFormat.putMethodId(c, p, methodId);
        if ((header & TraceBufferFormat.KIND_MASK) == TraceBufferFormat.EXIT) {
            p = TraceBufferFormat.putVarint(c, p, bci);
        }
        if (delta >= 0) {
            p = TraceBufferFormat.putVarint(c, p, delta);
        }
        records += parts;
        if (header == TraceBufferFormat.ENTRY && delta < 0) {
            entryStart = start;
            entryEnd = p;
            entryMethod = methodId;
        }
        POSITION.setRelease(this, p);
    }

    /** Appends an object record ({@link TraceBufferFormat#ACQUIRE}, {@code RELEASE} or {@code ALLOC}). */
    void recordObject(int kind, int classId, int identityHash, int bci, long sequence) {
        int p = begin(sequence);
        char[] c = chars;
        long delta = stampDelta();
        c[p++] = (char) (delta >= 0 ? TraceBufferFormat.OBJECT | kind | TraceBufferFormat.STAMPED : TraceBufferFormat.OBJECT | kind);
        p = TraceBufferFormat.putVarint(c, p, classId);
        p = TraceBufferFormat.putVarint(c, p, identityHash & 0xFFFFFFFFL);
        p = TraceBufferFormat.putVarint(c, p, bci);
        if (delta >= 0) {
            p = TraceBufferFormat.putVarint(c, p, delta);
        }
        records++;
        POSITION.setRelease(this, p);
    }

    /**
     * Appends a heap record of {@code kind} ({@link TraceBufferFormat#THROW} … {@code ARRAY_STORE},
     * fields as {@code Records.heap}) taking the {@code parts} sequence numbers from
     * {@code sequence}; each counts as a record, as the converter decodes one record per part.
     */
    void recordHeap(int kind, int id, int bci, Object a, Object b, Object o, long sequence, int parts) {
        int p = begin(sequence);
        expectedSequence = sequence + parts;
        char[] c = chars;
        long delta = stampDelta();
        int h = TraceBufferFormat.heapHeader(kind);
        c[p++] = (char) (delta >= 0 ? h | TraceBufferFormat.STAMPED : h);
        p = TraceBufferFormat.putVarint(c, p, id & 0xFFFFFFFFL);
        p = TraceBufferFormat.putVarint(c, p, bci);
        p = putObject(c, p, a);
        if (TraceBufferFormat.heapObjects(kind) == 3) {
            p = putObject(c, p, b);
            p = putObject(c, p, o);
        }
        if (delta >= 0) {
            p = TraceBufferFormat.putVarint(c, p, delta);
        }
        records += parts;
        POSITION.setRelease(this, p);
    }

    /** An object of a heap record: its class id + 1 and identity hash, or 0 and 0 for null. */
    private static int putObject(char[] c, int p, Object o) {
        if (o == null) {
            c[p] = 0;
            c[p + 1] = 0;
            return p + 2;
        }
        p = TraceBufferFormat.putVarint(c, p, ClassIds.of(o.getClass()) + 1L);
        return TraceBufferFormat.putVarint(c, p, System.identityHashCode(o) & 0xFFFFFFFFL);
    }

    /** Makes room for one record and writes the skip before it if other events took sequence numbers; the write position. */
    private int begin(long sequence) {
        int p = position;
        if (p > chars.length - MAX_WRITE) {
            p = flushFull();
        }
        long gap = sequence - expectedSequence;
        if (gap != 0) {
            chars[p++] = (char) TraceBufferFormat.SKIP;
            p = TraceBufferFormat.putVarint(chars, p, gap);
        }
        expectedSequence = sequence + 1;
        return p;
    }

    /** Whether a record now would share the previous stamp ({@link #stampDelta} would return -1), without taking a stamp. */
    private boolean sharesStamp() {
        return !TraceClock.stampEvery && TraceClock.tick == lastTick && GcCounters.count() == lastGc;
    }

    /**
     * The time delta for this record, or -1 when it shares the previous stamp. The tick and the
     * GC count are read before the clock: a pause between them makes the next record stamp
     * again, never share a time from before the pause.
     */
    private long stampDelta() {
        int now = TraceClock.tick;
        boolean every = TraceClock.stampEvery;
        long gc = every ? 0 : GcCounters.count();
        if (every || now != lastTick || gc != lastGc) {
            long ticks = TraceClock.ticks();
            long delta = 0;
            if (ticks > lastStamp) { // the counter is monotonic; never let the decoded time go back
                delta = ticks - lastStamp;
                lastStamp = ticks;
            }
            lastTick = now;
            lastGc = gc;
            return delta;
        }
        return -1;
    }

    /** Owner: commits everything not yet committed, then starts over (larger, up to {@link #MAX_CHARS}). */
    int flushFull() {
        acquireAsOwner();
        try {
            commit(flushed, position, records - flushedRecords, flushedSequence, flushedBase);
            if (chars.length < MAX_CHARS) {
                chars = new char[Math.min(MAX_CHARS, chars.length * 2)];
            }
            startOver();
            return 0;
        } finally {
            FLUSHING.setRelease(this, FREE);
        }
    }

    /** Owner: tracing was switched off and on since the unflushed records were made; drops them. */
    void restart(int newEpoch) {
        acquireAsOwner();
        try {
            epoch = newEpoch;
            startOver();
        } finally {
            FLUSHING.setRelease(this, FREE);
        }
    }

    /** The owner waits for the flag: the periodic thread holds it for one commit at most. */
    private void acquireAsOwner() {
        while (!FLUSHING.compareAndSet(this, FREE, COMMITTING)) {
            Thread.onSpinWait();
        }
    }

    /** Owner, holding the flag: everything written so far counts as flushed; writing restarts at 0. */
    private void startOver() {
        flushed = 0;
        entryEnd = -1;
        flushedRecords = records;
        flushedSequence = expectedSequence;
        flushedBase = lastStamp;
        POSITION.setRelease(this, 0);
    }

    /**
     * Any thread: commits the records published so far, unless the owner is committing right now
     * (then its commit holds them), or drops them if they belong to an earlier enablement epoch.
     * Never waits.
     */
    void flushPublished() {
        if (!acquireAsFlusher()) {
            return;
        }
        try {
            int end = (int) POSITION.getAcquire(this);
            int from = flushed;
            if (end <= from) {
                return;
            }
            // Count what the range holds: the owner's counters run ahead of the published position.
            char[] c = chars;
            long count = 0;
            long skipped = 0;
            long ticks = flushedBase;
            cursor = from;
            while (cursor < end) {
                int h = c[cursor++];
                int kind = h & TraceBufferFormat.KIND_MASK;
                if ((h & TraceBufferFormat.HEAP) != 0) {
                    readVarint(c); // method id, field id or index
                    readVarint(c); // bytecode index
                    int heapKind = TraceBufferFormat.heapKind(h);
                    for (int i = 0; i < 2 * TraceBufferFormat.heapObjects(heapKind); i++) {
                        readVarint(c); // class id + 1, identity hash
                    }
                    if ((h & TraceBufferFormat.STAMPED) != 0) {
                        ticks += readVarint(c);
                    }
                    count += TraceBufferFormat.heapParts(heapKind); // one record per sequence number, as the converter decodes it
                    continue;
                }
                if ((h & TraceBufferFormat.OBJECT) != 0) {
                    readVarint(c); // class id
                    readVarint(c); // identity hash
                    readVarint(c); // bytecode index
                } else if (kind == TraceBufferFormat.SKIP) {
                    skipped += readVarint(c);
                    continue;
                } else {
                    if ((h & TraceBufferFormat.WIDE_ID) != 0) {
                        cursor += TraceBufferFormat.WIDE_ID_CHARS;
                    } else {
                        readVarint(c); // method id
                    }
                    if (kind == TraceBufferFormat.EXIT) {
                        readVarint(c); // bytecode index
                    }
                    if ((h & TraceBufferFormat.LEAF) != 0) {
                        count++; // the entry a leaf record stands for
                    }
                }
                if ((h & TraceBufferFormat.STAMPED) != 0) {
                    ticks += readVarint(c);
                }
                count++;
            }
            if (epoch == Trace.epoch) {
                commit(from, end, count, flushedSequence, flushedBase);
            }
            flushed = end;
            flushedRecords += count;
            flushedSequence += count + skipped;
            flushedBase = ticks;
        } finally {
            FLUSHING.setRelease(this, FREE);
        }
    }

    /**
     * The periodic thread takes the flag, unless the owner is committing (its commit then holds
     * the records); a fold, a few stores, it waits out, so that a fold never keeps records out
     * of the commit at a chunk boundary (bounded: an owner stopped in the middle of one, by a
     * debugger say, leaves them to a later flush).
     */
    private boolean acquireAsFlusher() {
        long deadline = 0;
        while (true) {
            if (FLUSHING.compareAndSet(this, FREE, COMMITTING)) {
                return true;
            }
            if ((int) FLUSHING.getVolatile(this) != FOLDING) {
                return false;
            }
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + FOLD_WAIT_NANOS;
            } else if (now - deadline > 0) {
                return false;
            }
            Thread.yield();
        }
    }

    /** Reads the varint at {@link #cursor} and moves the cursor past it (flusher only, under the flag). */
    private long readVarint(char[] c) {
        long v = 0;
        int shift = 0;
        int ch;
        do {
            ch = c[cursor++];
            v |= (long) (ch & TraceBufferFormat.VARINT_MASK) << shift;
            shift += TraceBufferFormat.VARINT_BITS;
        } while ((ch & TraceBufferFormat.VARINT_MORE) != 0);
        return v;
    }

    private void commit(int from, int to, long count, long firstSequence, long baseTime) {
        if (count == 0) {
            return; // only skips: the next event's first sequence accounts for them
        }
        MethodBufferEvent e = new MethodBufferEvent();
        if (e.shouldCommit()) {
            e.tracedThread = owner;
            e.tracedThreadId = owner.getId();
            e.tracedThreadName = owner.getName();
            e.firstSequence = firstSequence;
            e.recordCount = (int) count;
            e.baseTime = baseTime;
            e.ticksPerSecond = TraceClock.frequency();
            e.records = new String(chars, from, to - from);
            e.commit();
        }
    }
}
