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
 * chars only below the published position, where the owner writes nothing until it has the flag
 * but one char: a fold ({@link #fold}) turns the header of the last record, an entry, into a leaf
 * header without taking the flag (no atomic instruction on the exit path). The periodic thread
 * copies the published chars once and commits the copy, so it sees that header either before the
 * fold (it commits the entry, and the next commit writes the exit the fold appended as an exit
 * record: {@link #pendingFold}) or after it; when it sees the leaf header without the exit's
 * bytecode index, whose publication it did not see yet, it commits the entry the header stood
 * for before.
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
    /** The end of the published chars: the owner writes it through {@link #publish}, the flusher reads it through POSITION. */
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
    /**
     * Where the last committed record starts when it is an unstamped entry, else -1: the owner
     * may fold its exit into it later ({@link #fold}), not knowing it is committed; the next
     * commit then starts with that exit as an exit record (the entry's id, and the bytecode index
     * the fold appended at {@link #flushed}).
     */
    private int pendingFold = -1;

    TraceBuffer(Thread owner, long nextSequence, int epoch) {
        this.owner = owner;
        this.epoch = epoch;
        this.virtual = owner.getClass().getName().equals("java.lang.VirtualThread");
        this.expectedSequence = nextSequence;
        this.flushedSequence = nextSequence;
        this.lastStamp = TraceClock.ticks();
        this.flushedBase = lastStamp;
    }

    // The fast paths of the method hooks (Trace.enterRecord and its siblings): each writes
    // its record only when it needs no room, no skip and no stamp, and returns false otherwise,
    // having written nothing; the general path (record, recordLeaf) then does it. They write what
    // the general path would write in that case, char for char.

    /**
     * Whether a record with sequence {@code sequence} can be written now without room made, a skip
     * or a stamp, by code that runs nothing a program's filters can rewrite ({@link GcCounters#direct}).
     */
    private boolean plain(long sequence) {
        return position <= chars.length - MAX_WRITE && sequence == expectedSequence && GcCounters.direct() && sharesStamp();
    }

    /** The entry of {@code methodId} with sequence {@code sequence} as {@link #record} writes it unstamped, if {@link #plain}. */
    boolean entry(int methodId, long sequence) {
        if (!plain(sequence)) {
            return false;
        }
        char[] c = chars;
        int p = position;
        entryStart = p;
        c[p] = (char) (TraceBufferFormat.ENTRY | TraceBufferFormat.idForm(methodId));
        p = TraceBufferFormat.putMethodId(c, p + 1, methodId);
        entryEnd = p;
        entryMethod = methodId;
        expectedSequence = sequence + 1;
        records++;
        publish(p);
        return true;
    }

    /** A normal exit as {@link #record} writes it unstamped (folded into the entry before it when it can), if {@link #plain}. */
    boolean exit(int methodId, int bci, long sequence) {
        if (!plain(sequence)) {
            return false;
        }
        // fold and exitRecord in one body with one index write: the hook site inlines this, and C2
        // inlines only callees whose own compiled code is small (Trace's comment on the fast paths)
        char[] c = chars;
        int p = position;
        int kind = bci == MethodRegistry.returnBci(methodId) ? TraceBufferFormat.DEFINED_EXIT : TraceBufferFormat.EXIT;
        boolean fold = p == entryEnd && methodId == entryMethod;
        if (!fold) {
            c[p] = (char) (kind | TraceBufferFormat.idForm(methodId));
            p = TraceBufferFormat.putMethodId(c, p + 1, methodId);
        }
        if (kind == TraceBufferFormat.EXIT) {
            p = TraceBufferFormat.putVarint(c, p, bci); // after an entry, begin() left room for a whole record
        }
        if (fold) {
            c[entryStart] = leafOf(c[entryStart], kind); // after the index: see fold
            entryEnd = -1;
        }
        expectedSequence = sequence + 1;
        records++;
        publish(p);
        return true;
    }

    /** A leaf call's normal return as {@link #recordLeaf} writes it unstamped (the entry's sequence {@code sequence}), if {@link #plain}. */
    boolean leaf(int methodId, int bci, long sequence) {
        if (!plain(sequence)) {
            return false;
        }
        exitRecord(TraceBufferFormat.LEAF, methodId, bci, sequence, 2);
        return true;
    }

    /** The unstamped exit record of the fast paths, a leaf one when {@code leaf} is {@link TraceBufferFormat#LEAF}; it takes {@code parts} sequence numbers. */
    private void exitRecord(int leaf, int methodId, int bci, long sequence, int parts) {
        char[] c = chars;
        int p = position;
        boolean defined = bci == MethodRegistry.returnBci(methodId);
        c[p] = (char) (leaf | (defined ? TraceBufferFormat.DEFINED_EXIT : TraceBufferFormat.EXIT) | TraceBufferFormat.idForm(methodId));
        p = TraceBufferFormat.putMethodId(c, p + 1, methodId);
        if (!defined) {
            p = TraceBufferFormat.putVarint(c, p, bci);
        }
        expectedSequence = sequence + parts;
        records += parts;
        publish(p);
    }

    /**
     * Appends a method record of {@code kind} ({@link TraceBufferFormat#ENTRY}, {@code EXIT} or
     * {@code EXIT_BY_EXCEPTION}) with sequence {@code sequence}; {@code bci} only for {@code EXIT}.
     */
    void record(int kind, int methodId, int bci, long sequence) {
        // Only the test that the last record is an unstamped entry stays here: the rest of the
        // fold is out of line, so that the common exit path the JIT inlines stays small.
        if (position != entryEnd || kind != TraceBufferFormat.EXIT || !tryFold(methodId, bci, sequence)) {
            method(kind, methodId, bci, sequence, 1);
        }
    }

    /** Folds the exit of {@code methodId} into the entry record just before it if nothing stands in the way ({@link #fold}). */
    private boolean tryFold(int methodId, int bci, long sequence) {
        if (methodId == entryMethod && sequence == expectedSequence && sharesStamp()) {
            fold(bci, sequence);
            return true;
        }
        return false;
    }

    /**
     * The exit of the method whose entry is the last record, with nothing of the thread between
     * them and no new stamp: the entry record becomes the leaf record of both (docs/trace-buffer.md),
     * which decodes to the same two records with the same sequence numbers and the same time. The
     * leaf is the exit's bytecode index appended and the entry's header char changed, without the
     * flag: the periodic thread may have committed the entry already or be copying it right now
     * (the class comment says how each case stays exact).
     */
    private void fold(int bci, long sequence) {
        char[] c = chars;
        int p = entryEnd;
        if (bci == MethodRegistry.returnBci(entryMethod)) {
            c[entryStart] = leafOf(c[entryStart], TraceBufferFormat.DEFINED_EXIT);
        } else {
            p = TraceBufferFormat.putVarint(c, p, bci); // begin() left room for a whole record after the entry
            c[entryStart] = leafOf(c[entryStart], TraceBufferFormat.EXIT);
        }
        expectedSequence = sequence + 1;
        records++;
        entryEnd = -1;
        publish(p);
    }

    /** The header a fold gives the unstamped entry header {@code entry}: a leaf of exit kind {@code kind}. */
    private static char leafOf(int entry, int kind) {
        return (char) (TraceBufferFormat.LEAF | kind | entry & TraceBufferFormat.WIDE_ID);
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
        boolean exit = (header & TraceBufferFormat.KIND_MASK) == TraceBufferFormat.EXIT;
        if (exit && bci == MethodRegistry.returnBci(methodId)) {
            header |= TraceBufferFormat.DEFINED_EXIT; // the definition gives the index
            exit = false;
        }
        int h = header | TraceBufferFormat.idForm(methodId);
        c[p++] = (char) (delta >= 0 ? h | TraceBufferFormat.STAMPED : h);
        p = TraceBufferFormat.putMethodId(c, p, methodId);
        if (exit) {
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
        publish(p);
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
        publish(p);
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
        publish(p);
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
            chars[p++] = (char) TraceBufferFormat.SKIP_HEADER;
            p = TraceBufferFormat.putVarint(chars, p, gap);
        }
        expectedSequence = sequence + 1;
        return p;
    }

    /**
     * Owner: makes the chars below {@code p} visible to the flusher. A release fence and a plain
     * store are {@code POSITION.setRelease}, but two small intrinsics for the JIT to inline into
     * every record site instead of the var handle's chain of seven methods.
     */
    private void publish(int p) {
        VarHandle.releaseFence();
        position = p;
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
            int from = flushed;
            int to = position;
            if (foldedAfterCommit()) {
                char[] text = textFrom(from, to);
                commit(text, 0, text.length, records - flushedRecords, flushedSequence, flushedBase);
            } else {
                commit(chars, from, to, records - flushedRecords, flushedSequence, flushedBase);
            }
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
        pendingFold = -1;
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
        if (!FLUSHING.compareAndSet(this, FREE, COMMITTING)) {
            return;
        }
        try {
            int end = (int) POSITION.getAcquire(this);
            int from = flushed;
            if (end <= from) {
                return;
            }
            // One copy, counted and committed as it is: the owner may fold the last entry meanwhile.
            char[] text = textFrom(from, end);
            int prefix = text.length - (end - from);
            // Count what the range holds: the owner's counters run ahead of the published position.
            long count = 0;
            long skipped = 0;
            long ticks = flushedBase;
            int lastEntry = -1;
            cursor = 0;
            while (cursor < text.length) {
                int start = cursor;
                int h = text[cursor++];
                int kind = h & TraceBufferFormat.KIND_MASK;
                lastEntry = -1;
                if (h == TraceBufferFormat.SKIP_HEADER) {
                    skipped += readVarint(text);
                    continue;
                }
                if ((h & TraceBufferFormat.HEAP) != 0) {
                    readVarint(text); // method id, field id or index
                    readVarint(text); // bytecode index
                    int heapKind = TraceBufferFormat.heapKind(h);
                    for (int i = 0; i < 2 * TraceBufferFormat.heapObjects(heapKind); i++) {
                        readVarint(text); // class id + 1, identity hash
                    }
                    if ((h & TraceBufferFormat.STAMPED) != 0) {
                        ticks += readVarint(text);
                    }
                    count += TraceBufferFormat.heapParts(heapKind); // one record per sequence number, as the converter decodes it
                    continue;
                }
                if ((h & TraceBufferFormat.OBJECT) != 0) {
                    readVarint(text); // class id
                    readVarint(text); // identity hash
                    readVarint(text); // bytecode index
                } else {
                    if ((h & TraceBufferFormat.WIDE_ID) != 0) {
                        cursor += TraceBufferFormat.WIDE_ID_CHARS;
                    } else {
                        readVarint(text); // method id
                    }
                    if ((h & TraceBufferFormat.LEAF) != 0 && kind == TraceBufferFormat.EXIT && cursor == text.length) {
                        // a fold under way: its header is stored, its bytecode index not yet
                        // published; commit the entry the header stood for, the next commit the exit
                        text[start] = (char) (TraceBufferFormat.ENTRY | h & TraceBufferFormat.WIDE_ID);
                        lastEntry = start;
                        count++;
                        continue;
                    }
                    if (kind == TraceBufferFormat.EXIT) {
                        readVarint(text); // bytecode index
                    }
                    if ((h & TraceBufferFormat.LEAF) != 0) {
                        count++; // the entry a leaf record stands for
                    } else if (kind == TraceBufferFormat.ENTRY && (h & TraceBufferFormat.STAMPED) == 0) {
                        lastEntry = start;
                    }
                }
                if ((h & TraceBufferFormat.STAMPED) != 0) {
                    ticks += readVarint(text);
                }
                count++;
            }
            if (epoch == Trace.epoch) {
                commit(text, 0, text.length, count, flushedSequence, flushedBase);
            }
            flushed = end;
            pendingFold = lastEntry < 0 ? -1 : from + lastEntry - prefix;
            flushedRecords += count;
            flushedSequence += count + skipped;
            flushedBase = ticks;
        } finally {
            FLUSHING.setRelease(this, FREE);
        }
    }

    /**
     * Under the flag: whether the owner folded the exit of the entry that ends the last commit
     * ({@link #pendingFold}) since; the chars to commit start with that exit then.
     */
    private boolean foldedAfterCommit() {
        return pendingFold >= 0 && (chars[pendingFold] & TraceBufferFormat.LEAF) != 0;
    }

    /**
     * Under the flag: a copy of the published chars {@code [from, to)}, led by the exit record of
     * a fold made after the last commit took its entry ({@link #foldedAfterCommit}): the entry's
     * id and the bytecode index the fold appended at {@code from} make that exit record.
     */
    private char[] textFrom(int from, int to) {
        char[] c = chars;
        int pf = pendingFold;
        int prefix = foldedAfterCommit() ? from - pf : 0; // the entry's header and id
        char[] text = new char[prefix + to - from];
        if (prefix > 0) {
            // the leaf's own exit kind: an EXIT's bytecode index is at from, a DEFINED_EXIT has none
            text[0] = (char) (c[pf] & (TraceBufferFormat.KIND_MASK | TraceBufferFormat.WIDE_ID));
            System.arraycopy(c, pf + 1, text, 1, prefix - 1);
        }
        System.arraycopy(c, from, text, prefix, to - from);
        return text;
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

    private void commit(char[] text, int from, int to, long count, long firstSequence, long baseTime) {
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
            e.records = new String(text, from, to - from);
            e.commit();
        }
    }
}
