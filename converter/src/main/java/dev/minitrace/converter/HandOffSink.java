package dev.minitrace.converter;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.RecordingSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Runs a sink on a thread of its own, so that reading and decoding the recording (the engine, on
 * the calling thread) and ordering its records (the sink) take a core each: about half the work
 * each on the standard bench file. Every call reaches the sink in the order it was made: records
 * are copied into primitive columns, the other calls (a few per chunk) are queued between them as
 * small tasks, and a batch goes over when it is full or at the end of a chunk. {@link #gcsFirst},
 * the one call that answers, waits until the sink has taken everything before it, so the answer
 * depends on the same calls as without the hand-over.
 *
 * <p>A failure of the sink is kept and thrown, as it was, on the calling thread at the next
 * hand-over and by {@link #finish}; the batches after it are dropped.
 */
final class HandOffSink implements RecordingSink, AutoCloseable {
    /** Records per batch: large enough that a hand-over is rare, small enough to stay in cache. */
    private static final int BATCH_RECORDS = 1 << 13;
    private static final byte METHOD = 0;
    private static final byte OBJECT = 1;
    private static final byte TRACE = 2;
    private static final byte CALL = 3;
    /** A MethodBuffer event's decoded records, in the batch's buffer columns. */
    private static final byte BUFFER = 4;

    /** Tells the sink's thread to end. */
    private static final Batch STOP = new Batch(0);

    private final RecordingSink sink;
    /**
     * Batches in turn: the one being filled and up to seven queued for the sink's thread or being
     * delivered. A chunk's buffer events that waited for an earlier one ({@code BufferReorder})
     * are decoded in a burst at its end, which the sink's thread takes longer to order than this
     * thread to decode; with room for 49 K records more this thread goes on with the next chunk
     * sooner (docs/decisions.md, "Reading and ordering on two threads, with room for a chunk's burst"). Each
     * holds about 670 KB, within {@code Converter.FIXED_HEAP_BYTES}.
     */
    private static final int BATCHES = 8;
    private final BlockingQueue<Batch> toSink = new ArrayBlockingQueue<>(BATCHES + 1);
    /** The batches the sink's thread is done with, ready to fill. */
    private final BlockingQueue<Batch> back = new ArrayBlockingQueue<>(BATCHES);
    private final Thread worker;
    private Batch current = new Batch(BATCH_RECORDS);
    private volatile Throwable failure;

    HandOffSink(RecordingSink sink) {
        this.sink = sink;
        for (int i = 1; i < BATCHES; i++) {
            back.add(new Batch(BATCH_RECORDS));
        }
        this.worker = new Thread(this::work, "minitrace-order");
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci) {
        Batch b = current;
        int i = b.size;
        b.kind[i] = METHOD;
        b.type[i] = (byte) type;
        b.thread[i] = threadKey;
        b.seq[i] = sequence;
        b.time[i] = timeNanos;
        b.key[i] = methodId;
        b.bci[i] = bci;
        if (++b.size == BATCH_RECORDS) {
            handOver();
        }
    }

    @Override
    public void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci) {
        Batch b = current;
        int i = b.size;
        b.kind[i] = OBJECT;
        b.type[i] = (byte) type;
        b.thread[i] = threadKey;
        b.seq[i] = sequence;
        b.time[i] = timeNanos;
        b.key[i] = classKey;
        b.hash[i] = identityHash;
        b.bci[i] = bci;
        if (++b.size == BATCH_RECORDS) {
            handOver();
        }
    }

    @Override
    public void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey) {
        Batch b = current;
        int i = b.size;
        b.kind[i] = TRACE;
        b.thread[i] = threadKey;
        b.seq[i] = startNanos;
        b.time[i] = durationNanos;
        b.key[i] = methodKey;
        if (++b.size == BATCH_RECORDS) {
            handOver();
        }
    }

    /** The decoder's columns are copied whole; the sink's thread converts the times and delivers each record. */
    @Override
    public void records(long threadKey, long baseTimeNanos, double nanosPerTick, int[] types, int[] ids, int[] hashes,
            int[] bcis, long[] sequences, long[] ticks, int from, int to) {
        Batch b = current;
        int n = to - from;
        int at = b.buffered;
        b.ensureBuffered(at + n);
        System.arraycopy(types, from, b.bufTypes, at, n);
        System.arraycopy(ids, from, b.bufIds, at, n);
        System.arraycopy(hashes, from, b.bufHashes, at, n);
        System.arraycopy(bcis, from, b.bufBcis, at, n);
        System.arraycopy(sequences, from, b.bufSequences, at, n);
        System.arraycopy(ticks, from, b.bufTicks, at, n);
        b.buffered = at + n;
        int i = b.size;
        b.kind[i] = BUFFER;
        b.thread[i] = threadKey;
        b.time[i] = baseTimeNanos;
        b.key[i] = Double.doubleToRawLongBits(nanosPerTick);
        b.hash[i] = at;
        b.bci[i] = at + n;
        if (++b.size == BATCH_RECORDS || b.buffered >= BATCH_RECORDS) {
            handOver();
        }
    }

    /** Queues a call that is not a record, in its place among them. */
    private void call(Runnable task) {
        Batch b = current;
        b.kind[b.size] = CALL;
        b.hash[b.size] = b.calls.size();
        b.calls.add(task);
        if (++b.size == BATCH_RECORDS) {
            handOver();
        }
    }

    @Override
    public void chunkBegin(JfrChunk chunk) {
        call(() -> sink.chunkBegin(chunk));
    }

    @Override
    public void thread(long threadKey, long javaThreadId, String name, boolean virtual) {
        call(() -> sink.thread(threadKey, javaThreadId, name, virtual));
    }

    @Override
    public void classDefinition(long classKey, String className) {
        call(() -> sink.classDefinition(classKey, className));
    }

    @Override
    public void classLayout(long classKey, int instanceSize, int elementSize, int alignment) {
        call(() -> sink.classLayout(classKey, instanceSize, elementSize, alignment));
    }

    @Override
    public void methodDefinition(int methodId, String className, String methodName, String descriptor, int returnBci) {
        call(() -> sink.methodDefinition(methodId, className, methodName, descriptor, returnBci));
    }

    @Override
    public void fieldDefinition(int fieldId, String className, String fieldName, String descriptor, boolean isStatic) {
        call(() -> sink.fieldDefinition(fieldId, className, fieldName, descriptor, isStatic));
    }

    @Override
    public void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
        call(() -> sink.tracedMethod(methodKey, className, methodName, descriptor));
    }

    @Override
    public void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos) {
        call(() -> sink.garbageCollection(gcId, name, cause, startNanos, durationNanos));
    }

    @Override
    public void gcPause(long gcId, String name, long startNanos, long durationNanos) {
        call(() -> sink.gcPause(gcId, name, startNanos, durationNanos));
    }

    @Override
    public void corruptMethodBuffer(long threadKey, int recordCount, String reason) {
        call(() -> sink.corruptMethodBuffer(threadKey, recordCount, reason));
    }

    @Override
    public void dataLoss(long amountBytes) {
        call(() -> sink.dataLoss(amountBytes));
    }

    @Override
    public void buffersReordered(long records, long fileBytes) {
        call(() -> sink.buffersReordered(records, fileBytes));
    }

    @Override
    public void chunkGcsRead() {
        call(sink::chunkGcsRead);
    }

    @Override
    public void chunkEnd(JfrChunk chunk, long bytesDone) {
        call(() -> sink.chunkEnd(chunk, bytesDone));
        handOver(); // the sink writes the chunk's records while the engine reads the next chunk
    }

    @Override
    public boolean gcsFirst(JfrChunk chunk) {
        if (sink.gcsFirstBySize(chunk)) {
            // the answer without waiting: the sink's thread goes on ordering the last chunk's
            // records while this one reads the GC events, instead of one core idling per chunk
            return true;
        }
        drain();
        return sink.gcsFirst(chunk);
    }

    @Override
    public boolean gcsFirstBySize(JfrChunk chunk) {
        return sink.gcsFirstBySize(chunk);
    }

    /** Waits until the sink has taken every call made so far; rethrows its failure. */
    void finish() {
        drain();
    }

    /**
     * Lets the sink's thread go once it has finished the batches queued (dropped after a failure),
     * so that nothing touches the sink after this returns; safe more than once.
     */
    @Override
    public void close() {
        if (!worker.isAlive()) {
            return;
        }
        put(STOP);
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Gives the current batch to the sink's thread and fills one it is done with. */
    private void handOver() {
        if (current.size == 0) {
            return;
        }
        put(current);
        current = awaitBatch();
    }

    /** Hands over what was queued and waits until the sink has taken it all. */
    private void drain() {
        handOver();
        List<Batch> all = new ArrayList<>(BATCHES);
        for (int i = 1; i < BATCHES; i++) {
            all.add(awaitBatch());
        }
        back.addAll(all);
        rethrow();
    }

    private Batch awaitBatch() {
        try {
            Batch b = back.take();
            rethrow();
            return b;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the conversion", e);
        }
    }

    private void put(Batch b) {
        try {
            toSink.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing records over", e);
        }
    }

    private void rethrow() {
        Throwable t = failure;
        if (t == null) {
            return;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t); // RecordingSink methods declare no checked exception
    }

    /** The sink's thread: delivers each batch in order, then gives it back. */
    private void work() {
        try {
            while (true) {
                Batch b = toSink.take();
                if (b == STOP) {
                    return;
                }
                if (failure == null) {
                    try {
                        deliver(b);
                    } catch (RuntimeException | Error e) {
                        failure = e;
                    }
                }
                b.clear();
                back.put(b);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private void deliver(Batch b) {
        RecordingSink s = sink;
        byte[] kind = b.kind;
        for (int i = 0, n = b.size; i < n; i++) {
            switch (kind[i]) {
                case METHOD -> s.methodEvent(b.type[i], b.thread[i], b.seq[i], b.time[i], (int) b.key[i], b.bci[i]);
                case OBJECT -> s.objectEvent(b.type[i], b.thread[i], b.seq[i], b.time[i], b.key[i], b.hash[i], b.bci[i]);
                case TRACE -> s.methodTrace(b.thread[i], b.seq[i], b.time[i], b.key[i]);
                case BUFFER -> s.records(b.thread[i], b.time[i], Double.longBitsToDouble(b.key[i]), b.bufTypes, b.bufIds,
                        b.bufHashes, b.bufBcis, b.bufSequences, b.bufTicks, b.hash[i], b.bci[i]);
                default -> b.calls.get(b.hash[i]).run();
            }
        }
    }

    /** Calls in columns: the records' fields, in the order they were made, the other calls as tasks. */
    private static final class Batch {
        final byte[] kind;
        final byte[] type;
        final long[] thread;
        /** Sequence, or a trace's start. */
        final long[] seq;
        /** Time, or a trace's duration. */
        final long[] time;
        /** Method id, class key or traced method key. */
        final long[] key;
        /** Identity hash, the index of a queued call, or where a buffer's records start in the buffer columns. */
        final int[] hash;
        /** Bytecode index, or where a buffer's records end in the buffer columns. */
        final int[] bci;
        final List<Runnable> calls = new ArrayList<>();
        int size;
        /** MethodBuffer records ({@link #BUFFER}: {@code hash} and {@code bci} hold their range here). */
        int[] bufTypes = new int[0];
        int[] bufIds = new int[0];
        int[] bufHashes = new int[0];
        int[] bufBcis = new int[0];
        long[] bufSequences = new long[0];
        long[] bufTicks = new long[0];
        int buffered;

        Batch(int capacity) {
            kind = new byte[capacity];
            type = new byte[capacity];
            thread = new long[capacity];
            seq = new long[capacity];
            time = new long[capacity];
            key = new long[capacity];
            hash = new int[capacity];
            bci = new int[capacity];
        }

        void ensureBuffered(int n) {
            if (bufTypes.length < n) {
                int c = Math.max(n, Math.max(BATCH_RECORDS + BATCH_RECORDS / 4, bufTypes.length * 2));
                bufTypes = Arrays.copyOf(bufTypes, c);
                bufIds = Arrays.copyOf(bufIds, c);
                bufHashes = Arrays.copyOf(bufHashes, c);
                bufBcis = Arrays.copyOf(bufBcis, c);
                bufSequences = Arrays.copyOf(bufSequences, c);
                bufTicks = Arrays.copyOf(bufTicks, c);
            }
        }

        void clear() {
            buffered = 0;
            size = 0;
            calls.clear();
        }
    }
}
