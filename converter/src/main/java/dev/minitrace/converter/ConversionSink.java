package dev.minitrace.converter;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Receives a recording from any engine and turns it into records. Each thread's events are
 * buffered and put in sequence order per chunk; a chunk's events are written only after the next
 * chunk was read (GCs are reported when they end, possibly after events that follow the pause),
 * together with the events of that next chunk that precede them in sequence (buffered method
 * records can reach the recording one chunk after the thread's later events),
 * and all pending events are written early when more than {@link #MAX_PENDING} are held, so that
 * memory stays bounded for a recording of any size. Ids are assigned here, independent of the
 * engine: class ids densely from 1 in order of first use (their names are looked up at the end, so
 * a class declared after its first use still resolves), MethodTrace method ids from
 * {@code 2^32} in order of first declaration.
 *
 * <p>Sorting and writing a chunk's events runs on a second thread (the writer) while the engine
 * parses the next chunk; the hand-over happens at the same points and with the same GC
 * snapshot as a serial run would write, so the output does not depend on the threading. Only
 * batches up to {@link #maxInFlight} events are handed over (half the pending-event bound in the
 * thread layout, a quarter in the global one), so that the batch in flight adds a bounded share to
 * memory; larger ones are written in place. (A quarter kept every chunk of a recording of buffered
 * records, about 2 M records a chunk, on the parser's thread in the thread layout: 6.1 s instead
 * of 5.1 s on the benchmark file. The pending bound went from 6 M to 5 M events with it.)
 * The writer thread alone touches the emitter, the sequence bookkeeping and the fragment cursors
 * while a batch is in flight; the engine's thread waits for it before touching them.
 */
final class ConversionSink implements RecordingSink, AutoCloseable {
    /**
     * Pending events (all threads) above which the held-back chunk, and if that is not enough the
     * current one, are written early (29 bytes per event; system property
     * {@code minitrace.maxPendingEvents}).
     */
    static final long DEFAULT_MAX_PENDING = 5_000_000L;
    private final long maxPending = Long.getLong("minitrace.maxPendingEvents", DEFAULT_MAX_PENDING);
    /**
     * The largest batch handed to the writer thread: half the pending bound in the thread layout,
     * a quarter in the global layout, whose merge holds a batch about twice (measured on the
     * 200 M-event benchmark file with half: heap pool peaks summing to 525–535 MB instead of
     * about 310 MB).
     */
    private final long maxInFlight;
    /** First id of the methods of jdk.MethodTrace, above every agent method id (u32). */
    static final long TRACED_METHOD_BASE = 1L << 32;
    /** A gap between chunks longer than this suggests chunks were dropped. */
    private static final long CHUNK_GAP_NANOS = 1_000_000_000L;

    private final ConvertOptions options;
    private final RecordEmitter emitter;
    private final GcTable gcs;
    private final LongConsumer progress;
    final ConversionReport report;

    private final LongIntMap threadIndex = new LongIntMap(256);
    private final List<ThreadState> threads = new ArrayList<>();
    private ThreadState[] sortedThreads = new ThreadState[0];
    private ThreadState lastThread;

    private final Map<Long, String> classNames = new HashMap<>();
    private final LongIntMap classIds = new LongIntMap(1024);
    /** Agent class id → output class id + 1 (0: not seen yet), for the common small ids. */
    private int[] agentClassIds = new int[64];
    /** The class key of each .mtlog class id (index), in order of first use; names resolved in {@link #finish}. */
    private final List<Long> classKeyById = new ArrayList<>();

    private final Map<Long, MtlogInfo.MethodInfo> methods = new TreeMap<>();
    private final LongIntMap usedMethods = new LongIntMap(1024);
    /** Used-method marks for the common small ids, so that marking costs an array store, not a hash lookup. */
    private boolean[] usedSmallMethods = new boolean[1024];
    /** Threads by key for the common small keys (a direct index instead of a hash lookup per event). */
    private ThreadState[] threadsBySmallKey = new ThreadState[256];
    private static final int SMALL_KEYS = 1 << 20;

    private final LongIntMap tracedMethodIndex = new LongIntMap(64);
    private final Map<String, Integer> tracedMethodByName = new HashMap<>();
    private final List<MtlogInfo.MethodInfo> tracedMethods = new ArrayList<>();

    private long pending;
    private long dataLossBytes;
    private long sequenceGaps;
    private long outOfOrder;
    private long duplicates;
    private long earlyFlushes;
    private long missingClass;
    private long undefinedAgentClasses;
    private long firstUndefinedAgentClass;
    private long withoutThread;
    private long corruptBuffers;
    private long corruptBufferRecords;
    private String firstCorruption;
    private JfrChunk lastChunk;

    /** The writer thread, made at the first hand-over; null when writing serially. */
    private ExecutorService writerThread;
    private Future<?> inFlight;
    private final boolean parallel = !Boolean.getBoolean("minitrace.serialWrite");

    ConversionSink(ConvertOptions options, RecordEmitter emitter, GcTable gcs, LongConsumer progress, ConversionReport report) {
        this.options = options;
        this.maxInFlight = options.globalLayout() ? maxPending / 4 : maxPending / 2;
        this.emitter = emitter;
        this.gcs = gcs;
        this.progress = progress;
        this.report = report;
        classKeyById.add(null); // class ids start at 1
    }

    @Override
    public void chunkBegin(JfrChunk chunk) {
        if (lastChunk != null && chunk.startNanos() - lastChunk.endNanos() > CHUNK_GAP_NANOS) {
            report.warnings.add(String.format("chunks %d and %d are %.1f s apart: chunks between them may have been dropped",
                    lastChunk.index(), chunk.index(), (chunk.startNanos() - lastChunk.endNanos()) / 1e9));
        }
        lastChunk = chunk;
        report.chunks++;
    }

    @Override
    public void thread(long threadKey, long javaThreadId, String name, boolean virtual) {
        ThreadState ts = state(threadKey);
        ts.javaThreadId = javaThreadId;
        ts.name = name;
        ts.virtual = virtual;
        Set<String> want = options.threads();
        ts.selected = want == null || want.contains(name) || want.contains(Long.toString(threadKey))
                || want.contains(Long.toString(javaThreadId)) || ts.selected;
    }

    private ThreadState state(long key) {
        if (lastThread != null && lastThread.key == key) {
            return lastThread;
        }
        if (key >= 0 && key < threadsBySmallKey.length && threadsBySmallKey[(int) key] != null) {
            lastThread = threadsBySmallKey[(int) key];
            return lastThread;
        }
        int i = threadIndex.get(key);
        ThreadState ts;
        if (i == LongIntMap.MISSING) {
            if (key < 0 || key > 0xFFFFFFFFL) {
                throw new IllegalStateException("JFR thread id " + key + " does not fit the .mtlog's u32 thread id");
            }
            ts = new ThreadState(key);
            ts.name = "";
            ts.javaThreadId = -1;
            ts.selected = options.threads() == null || options.threads().contains(Long.toString(key));
            threadIndex.put(key, threads.size());
            threads.add(ts);
            if (key < SMALL_KEYS) {
                if (key >= threadsBySmallKey.length) {
                    threadsBySmallKey = Arrays.copyOf(threadsBySmallKey, (int) Math.min(SMALL_KEYS, Math.max(key + 1, threadsBySmallKey.length * 2L)));
                }
                threadsBySmallKey[(int) key] = ts;
            }
        } else {
            ts = threads.get(i);
        }
        lastThread = ts;
        return ts;
    }

    @Override
    public void classDefinition(long classKey, String className) {
        classNames.put(classKey, className);
    }

    @Override
    public void methodDefinition(int methodId, String className, String methodName, String descriptor) {
        methods.put(methodId & 0xFFFFFFFFL, new MtlogInfo.MethodInfo(className, methodName, descriptor));
    }

    @Override
    public void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci) {
        if (threadKey == -1) {
            withoutThread++;
            return;
        }
        ThreadState ts = state(threadKey);
        if (!ts.selected) {
            report.unselectedEvents++;
            return;
        }
        long id = methodId & 0xFFFFFFFFL;
        if (id < SMALL_KEYS) {
            if (id >= usedSmallMethods.length) {
                usedSmallMethods = Arrays.copyOf(usedSmallMethods, (int) Math.min(SMALL_KEYS, Math.max(id + 1, usedSmallMethods.length * 2L)));
            }
            usedSmallMethods[(int) id] = true;
        } else if (usedMethods.get(id) == LongIntMap.MISSING) {
            usedMethods.put(id, 1);
        }
        add(ts, type, sequence, timeNanos, id, bci);
    }

    @Override
    public void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci) {
        if (threadKey == -1) {
            withoutThread++;
            return;
        }
        ThreadState ts = state(threadKey);
        if (!ts.selected) {
            report.unselectedEvents++;
            return;
        }
        int classId = classId(classKey);
        add(ts, type, sequence, timeNanos, MtlogFormat.objectId(classId, identityHash), bci);
    }

    /**
     * The output class id of {@code classKey}, given in order of first use. The agent's small
     * class ids (buffered object records, one lookup per record) take an array probe instead of
     * the map.
     */
    private int classId(long classKey) {
        long agentId = classKey ^ RecordingSink.AGENT_CLASS_KEY_BIT;
        if (agentId >= 0 && agentId < agentClassIds.length) {
            int known = agentClassIds[(int) agentId] - 1;
            if (known >= 0) {
                return known;
            }
        }
        int classId = classIds.get(classKey);
        if (classId == LongIntMap.MISSING) {
            // The name is looked up when the INFO is written: the minitrace.ClassDefinition of a
            // buffered object record's class can come later in the chunk than the record.
            classId = classKeyById.size();
            classKeyById.add(classKey);
            classIds.put(classKey, classId);
        }
        if (agentId >= 0 && agentId < SMALL_KEYS) {
            if (agentId >= agentClassIds.length) {
                agentClassIds = Arrays.copyOf(agentClassIds, (int) Math.min(SMALL_KEYS, Math.max(agentId + 1, agentClassIds.length * 2L)));
            }
            agentClassIds[(int) agentId] = classId + 1;
        }
        return classId;
    }

    private void add(ThreadState ts, int type, long sequence, long time, long value, int aux) {
        ts.current.add(type, sequence, time, value, aux);
        report.minitraceEvents++;
        if (++pending > maxPending) {
            relieve();
        }
    }

    @Override
    public void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
        if (tracedMethodIndex.get(methodKey) != LongIntMap.MISSING) {
            return;
        }
        String name = className + ' ' + methodName + ' ' + descriptor;
        Integer index = tracedMethodByName.get(name);
        if (index == null) {
            index = tracedMethods.size();
            tracedMethods.add(new MtlogInfo.MethodInfo(className, methodName, descriptor));
            tracedMethodByName.put(name, index);
        }
        tracedMethodIndex.put(methodKey, index);
    }

    @Override
    public void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey) {
        ThreadState ts = state(threadKey);
        if (!ts.selected) {
            report.unselectedEvents++;
            return;
        }
        int index = tracedMethodIndex.get(methodKey);
        if (index == LongIntMap.MISSING) {
            throw new IllegalStateException("jdk.MethodTrace event refers to undeclared method key " + methodKey);
        }
        ts.addTrace(startNanos, Math.max(0, durationNanos), TRACED_METHOD_BASE + index);
        report.methodTraceEvents++;
    }

    @Override
    public void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos) {
        gcs.garbageCollection(gcId, name, cause, startNanos, durationNanos);
    }

    @Override
    public void gcPause(long gcId, String name, long startNanos, long durationNanos) {
        gcs.pause(gcId, name, startNanos);
    }

    @Override
    public void corruptMethodBuffer(long threadKey, int recordCount, String reason) {
        if (corruptBuffers++ == 0) {
            firstCorruption = reason;
        }
        corruptBufferRecords += Math.max(0, recordCount);
    }

    @Override
    public void dataLoss(long amountBytes) {
        dataLossBytes += amountBytes;
    }

    @Override
    public void chunkEnd(JfrChunk chunk, long bytesDone) {
        awaitWriter();
        handOver();
        if (progress != null) {
            progress.accept(bytesDone);
        }
    }

    /**
     * Memory pressure: writes the held-back chunk (complete, so exact). If the current chunk alone
     * is over the bound (JFR rotates late under a high event rate, so a chunk can hold many
     * millions of events), writes the lowest quarter by sequence of each thread's current events
     * and keeps the rest: a thread's events arrive out of order only by a bounded distance (the
     * thread's buffers in flight), so this stays exact unless an event arrives later than three
     * quarters of a buffer, which is counted.
     */
    private void relieve() {
        awaitWriter();
        try {
            emitPrevious();
            if (pending > maxPending) {
                earlyFlushes++;
                ThreadState[] ts = new ThreadState[threads.size()];
                EventBuffer[] heads = new EventBuffer[threads.size()];
                int n = 0;
                for (ThreadState t : sortedThreads()) {
                    if (t.current.count > 1) {
                        EventBuffer head = t.current.splitHead(t.current.count / 4);
                        account(t, head);
                        ts[n] = t;
                        heads[n++] = head;
                    }
                }
                emitter.points(gcs.pointTimes(), gcs.pointGcIds());
                emitter.emit(ts, heads, n);
                for (int i = 0; i < n; i++) {
                    pending -= heads[i].count;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * At the end of a chunk: the previous chunk's events are written (on the writer thread when
     * enabled), the current chunk's become the held-back ones, and the buffers written last time
     * become the current ones. Call only with no batch in flight.
     */
    private void handOver() {
        ThreadState[] sorted = sortedThreads();
        for (ThreadState t : sorted) {
            EventBuffer out = t.previous;
            t.previous = t.current;
            t.current = t.spare;
            t.spare = out;
        }
        for (ThreadState t : sorted) {
            // Events of the chunk just read that belong before the end of the chunk being written
            // go with it: buffered method records reach the recording up to one chunk after the
            // thread's later lock and allocation events (docs/trace-buffer.md).
            if (t.spare.count > 0 && t.previous.count > 0) {
                t.previous.moveBelow(t.spare.maxSeq(), t.spare);
            }
        }
        ThreadState[] ts = new ThreadState[sorted.length];
        EventBuffer[] batches = new EventBuffer[sorted.length];
        int n = 0;
        long events = 0;
        for (ThreadState t : sorted) {
            if (t.spare.count > 0) {
                ts[n] = t;
                batches[n++] = t.spare;
                events += t.spare.count;
            }
        }
        if (n == 0) {
            return;
        }
        pending -= events;
        long[] pointTimes = gcs.pointTimes();
        long[] pointGcIds = gcs.pointGcIds();
        final int count = n;
        Callable<Void> write = () -> {
            writeBatch(ts, batches, count, pointTimes, pointGcIds);
            return null;
        };
        if (!parallel || events > maxInFlight) {
            try {
                write.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
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
        inFlight = writerThread.submit(write);
    }

    /** Sorts, checks and writes one hand-over's batches, then empties them (on the writer thread). */
    private void writeBatch(ThreadState[] ts, EventBuffer[] batches, int n, long[] pointTimes, long[] pointGcIds)
            throws IOException {
        for (int k = 0; k < n; k++) {
            batches[k].normalize();
            account(ts[k], batches[k]);
        }
        emitter.points(pointTimes, pointGcIds);
        emitter.emit(ts, batches, n);
        for (int k = 0; k < n; k++) {
            batches[k].clear();
        }
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
            throw new IllegalStateException("interrupted while writing the .mtlog", e);
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

    /** Waits for the writer thread and lets it go; safe to call more than once, also after a failure. */
    @Override
    public void close() {
        try {
            awaitWriter();
        } finally {
            if (writerThread != null) {
                writerThread.shutdown();
                writerThread = null;
            }
        }
    }

    /** At the end of the recording: writes the held-back and the current events (no batch in flight). */
    private void flushAll() {
        try {
            emitPrevious();
            for (ThreadState ts : threads) {
                EventBuffer done = ts.previous;
                ts.previous = ts.current;
                ts.current = done;
            }
            emitPrevious();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ThreadState[] sortedThreads() {
        if (sortedThreads.length != threads.size()) {
            sortedThreads = threads.toArray(new ThreadState[0]);
            Arrays.sort(sortedThreads, Comparator.comparingLong(t -> t.key));
        }
        return sortedThreads;
    }

    private void emitPrevious() throws IOException {
        sortedThreads();
        int n = 0;
        ThreadState[] ts = new ThreadState[sortedThreads.length];
        EventBuffer[] batches = new EventBuffer[sortedThreads.length];
        for (ThreadState t : sortedThreads) {
            if (t.previous.count > 0) {
                t.previous.normalize();
                account(t, t.previous);
                ts[n] = t;
                batches[n++] = t.previous;
            }
        }
        emitter.points(gcs.pointTimes(), gcs.pointGcIds());
        emitter.emit(ts, batches, n);
        for (int i = 0; i < n; i++) {
            pending -= batches[i].count;
            batches[i].clear();
        }
    }

    /** Sequence bookkeeping: gaps are lost events, a step back means an event arrived after its successors were written. */
    private void account(ThreadState t, EventBuffer b) {
        long last = t.lastSequence;
        if (b.placed && b.count > 0) {
            // Placed without gaps (normalized): consecutive sequences, so only the first one can
            // be a gap, a duplicate or a step back from what was written before.
            long first = b.seq(b.start);
            if (last == Long.MIN_VALUE || first > last) {
                if (last != Long.MIN_VALUE && first > last + 1) {
                    sequenceGaps += first - last - 1;
                }
                t.lastSequence = b.seq(b.size - 1);
                return;
            }
        }
        for (int i = b.start; i < b.size; i++) {
            long s = b.seq(i);
            if (last != Long.MIN_VALUE) {
                if (s == last) {
                    duplicates++;
                } else if (s < last) {
                    outOfOrder++;
                } else if (s > last + 1) {
                    sequenceGaps += s - last - 1;
                }
            }
            if (s > last) {
                last = s;
            }
        }
        t.lastSequence = last;
    }

    /** Writes everything still pending and the MethodTrace records, and fills {@code info}. */
    void finish(MtlogInfo info) throws IOException {
        try {
            awaitWriter();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        flushAll();
        emitMethodTraces();
        for (ThreadState t : threads) {
            if (t.used) {
                info.putThread(t.key, t.javaThreadId, t.name);
                report.threads++;
            }
        }
        for (int i = 1; i < classKeyById.size(); i++) {
            long key = classKeyById.get(i);
            String name = classNames.get(key);
            if (name == null) {
                if (key != -1 && (key & RecordingSink.AGENT_CLASS_KEY_BIT) != 0) {
                    if (undefinedAgentClasses++ == 0) {
                        firstUndefinedAgentClass = key & 0xFFFFFFFFL;
                    }
                } else {
                    missingClass++;
                }
                name = "?";
            }
            info.putClass(i, name);
        }
        methods.forEach((id, m) -> info.putMethod(id, m.className(), m.methodName(), m.descriptor()));
        for (int i = 0; i < usedSmallMethods.length; i++) {
            if (usedSmallMethods[i]) {
                usedMethods.put(i, 1);
            }
        }
        long[] used = usedMethods.keys();
        Arrays.sort(used);
        List<Long> undefined = new ArrayList<>();
        for (long id : used) {
            if (!methods.containsKey(id)) {
                undefined.add(id);
                info.putMethod(id, "?", "unknown#" + id, "?");
            }
        }
        for (int i = 0; i < tracedMethods.size(); i++) {
            MtlogInfo.MethodInfo m = tracedMethods.get(i);
            info.putMethod(TRACED_METHOD_BASE + i, m.className(), m.methodName(), m.descriptor());
        }
        gcs.addTo(info);
        report.gcs = gcs.size();
        report.countByType = emitter.countByType.clone();
        warn(undefined);
    }

    private void emitMethodTraces() throws IOException {
        ThreadState[] ts = new ThreadState[1];
        EventBuffer[] b = new EventBuffer[1];
        for (ThreadState t : sortedThreads()) {
            if (t.traceSize == 0) {
                continue;
            }
            EventBuffer out = new EventBuffer();
            MethodTraceNester.nest(t.traceStart, t.traceDuration, t.traceMethod, t.traceSize, out);
            out.normalize();
            ts[0] = t;
            b[0] = out;
            emitter.points(gcs.pointTimes(), gcs.pointGcIds());
            emitter.emit(ts, b, 1);
            t.traceStart = t.traceDuration = t.traceMethod = new long[0];
            t.traceSize = 0;
        }
    }

    private void warn(List<Long> undefined) {
        List<String> w = report.warnings;
        if (!undefined.isEmpty()) {
            w.add(undefined.size() + " method id(s) have no minitrace.MethodDefinition (first: " + undefined.get(0)
                    + "); written as class '?', method 'unknown#<id>'");
        }
        if (missingClass > 0) {
            w.add(missingClass + " lock/allocation event(s) have no class; written with class '?'");
        }
        if (undefinedAgentClasses > 0) {
            w.add(undefinedAgentClasses + " class id(s) of buffered lock/allocation records have no minitrace.ClassDefinition"
                    + " (first: " + firstUndefinedAgentClass + "); written with class '?'");
        }
        if (withoutThread > 0) {
            w.add(withoutThread + " minitrace event(s) have no thread in the recording (JFR lost the constants of threads"
                    + " that ended just before it did) and were skipped");
            report.lostData = true;
        }
        if (corruptBuffers > 0) {
            w.add(corruptBuffers + " corrupt minitrace.MethodBuffer event(s) skipped with their " + corruptBufferRecords
                    + " record(s) (first: " + firstCorruption + ")");
            report.lostData = true;
        }
        if (dataLossBytes > 0) {
            w.add("the recording lost " + dataLossBytes + " bytes of events (jdk.DataLoss)");
            report.lostData = true;
        }
        if (sequenceGaps > 0) {
            w.add(sequenceGaps + " minitrace event(s) missing (gaps in per-thread sequence numbers)");
            report.lostData = true;
        }
        if (outOfOrder > 0) {
            w.add(outOfOrder + " event(s) arrived after later events of their thread were written (more than "
                    + maxPending + " events pending, or more than a chunk late); written out of order");
        }
        if (duplicates > 0) {
            w.add(duplicates + " event(s) repeat a sequence number of their thread");
        }
        if (outOfOrder > 0 && earlyFlushes > 0) {
            w.add("events were written before the end of their chunk " + earlyFlushes + " time(s) to bound memory"
                    + " (raise -Dminitrace.maxPendingEvents to avoid that)");
        }
    }
}
