package dev.minitrace.converter;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * Receives a recording from any engine: declarations go to the {@link ThreadTable}, GCs to the
 * {@link GcTable}, trace records of selected threads to the {@link OrderingPipeline}, which writes
 * them; losses the recording itself reports (data loss, corrupt buffers, events without a thread)
 * are counted here. {@code jdk.MethodTrace} intervals are kept per thread and nested at the end.
 */
final class RecordingCollector implements RecordingSink {
    /** A gap between chunks longer than this suggests chunks were dropped. */
    private static final long CHUNK_GAP_NANOS = 1_000_000_000L;

    private final ThreadTable table;
    private final GcTable gcs;
    private final OrderingPipeline pipeline;
    private final RecordEmitter emitter;
    private final LongConsumer progress;
    private final ConversionReport report;

    private long dataLossBytes;
    private long withoutThread;
    private long corruptBuffers;
    private long corruptBufferRecords;
    private String firstCorruption;
    private JfrChunk lastChunk;
    /** A buffer's record values and times, made here and handed to the pipeline as columns (reused). */
    private long[] values = new long[1024];
    private long[] times = new long[1024];

    RecordingCollector(ThreadTable table, GcTable gcs, OrderingPipeline pipeline, RecordEmitter emitter,
            LongConsumer progress, ConversionReport report) {
        this.table = table;
        this.gcs = gcs;
        this.pipeline = pipeline;
        this.emitter = emitter;
        this.progress = progress;
        this.report = report;
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
        table.declare(threadKey, javaThreadId, name, virtual);
    }

    @Override
    public void classDefinition(long classKey, String className) {
        table.className(classKey, className);
    }

    @Override
    public void classLayout(long classKey, int instanceSize, int elementSize, int alignment) {
        table.classLayout(classKey, instanceSize, elementSize, alignment);
    }

    @Override
    public void methodDefinition(int methodId, String className, String methodName, String descriptor, int returnBci) {
        table.method(methodId, className, methodName, descriptor);
        emitter.returns.define(methodId, returnBci);
    }

    @Override
    public void fieldDefinition(int fieldId, String className, String fieldName, String descriptor, boolean isStatic) {
        table.field(fieldId, className, fieldName, descriptor, isStatic);
    }

    @Override
    public void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci) {
        ThreadState ts = selected(threadKey);
        if (ts != null) {
            pipeline.add(ts, type, sequence, timeNanos, methodValue(type, methodId), bci);
        }
    }

    @Override
    public void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci) {
        ThreadState ts = selected(threadKey);
        if (ts != null) {
            pipeline.add(ts, type, sequence, timeNanos, objectValue(classKey, identityHash), bci);
        }
    }

    /** The value of a method-valued record: the method's or field's id in the log, or the index or length itself. */
    private long methodValue(int type, int id) {
        return switch (type) {
            case MtlogFormat.FIELD_STORE -> table.useField(id);
            case MtlogFormat.ARRAY_STORE, MtlogFormat.ARRAY_LENGTH -> id & 0xFFFFFFFFL;
            default -> table.useMethod(id);
        };
    }

    /** The value of an object-valued record: its object id, 0 for a null reference. */
    private long objectValue(long classKey, int identityHash) {
        return classKey == NULL_CLASS_KEY ? 0 : table.objectId(classKey, identityHash);
    }

    /**
     * A buffer's records, as {@link RecordingSink#records} delivers them one by one, with their
     * thread looked up once: on the ordering thread, which a chunk's burst of records waits for.
     */
    @Override
    public void records(long threadKey, long baseTimeNanos, double nanosPerTick, int[] types, int[] ids, int[] hashes,
            int[] bcis, long[] sequences, long[] ticks, int from, int to) {
        ThreadState ts = selected(threadKey, to - from);
        if (ts == null) {
            return;
        }
        int n = to - from;
        if (values.length < n) {
            values = new long[Math.max(n, values.length * 2)];
            times = new long[values.length];
        }
        long[] v = values;
        long[] t = times;
        for (int i = from, k = 0; i < to; i++, k++) {
            int type = types[i];
            if (type <= MtlogFormat.METHOD_EXIT) { // most records: methodValue's default, without its tests
                v[k] = table.useMethod(ids[i]);
            } else {
                v[k] = MtlogFormat.objectValued(type) ? objectValue(RecordingSink.bufferClassKey(type, ids[i]), hashes[i])
                        : methodValue(type, ids[i]);
            }
            t[k] = baseTimeNanos + (long) (ticks[i] * nanosPerTick);
        }
        pipeline.add(ts, types, sequences, bcis, from, t, v, n);
    }

    /** The state of a trace event's thread, or null (counted) when it has none or is not selected. */
    private ThreadState selected(long threadKey) {
        return selected(threadKey, 1);
    }

    /** As {@link #selected(long)} for {@code events} events of the thread. */
    private ThreadState selected(long threadKey, int events) {
        if (threadKey == -1) {
            withoutThread += events;
            return null;
        }
        ThreadState ts = table.state(threadKey);
        if (!ts.selected) {
            report.unselectedEvents += events;
            return null;
        }
        report.minitraceEvents += events;
        return ts;
    }

    @Override
    public void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
        table.tracedMethod(methodKey, className, methodName, descriptor);
    }

    @Override
    public void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey) {
        ThreadState ts = table.state(threadKey);
        if (!ts.selected) {
            report.unselectedEvents++;
            return;
        }
        ts.addTrace(startNanos, Math.max(0, durationNanos), table.tracedMethodId(methodKey));
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
    public boolean gcsFirst(JfrChunk chunk) {
        return pipeline.mayOverflow(chunk.size());
    }

    @Override
    public boolean gcsFirstBySize(JfrChunk chunk) {
        return pipeline.mayOverflowBySize(chunk.size());
    }

    @Override
    public void buffersReordered(long records, long fileBytes) {
        report.reorderedRecords = records;
        report.reorderFileBytes = fileBytes;
    }

    @Override
    public void chunkGcsRead() {
        pipeline.chunkGcsRead();
    }

    @Override
    public void chunkEnd(JfrChunk chunk, long bytesDone) {
        pipeline.chunkEnd(chunk.startNanos());
        if (progress != null) {
            progress.accept(bytesDone);
        }
    }

    /** Writes every record still waiting and the MethodTrace records, and fills {@code info}. */
    void finish(MtlogInfo info, SequenceAudit audit) throws IOException {
        pipeline.finish();
        emitMethodTraces();
        report.threads = table.fill(info);
        gcs.addTo(info);
        report.gcs = gcs.size();
        report.countByType = emitter.countByType.clone();
        report.spilledRecords = pipeline.spilledRecords();
        report.spilledBytes = pipeline.spilledBytes();
        table.warn(report.warnings);
        warn(audit);
    }

    private void emitMethodTraces() throws IOException {
        ThreadState[] ts = new ThreadState[1];
        EventBuffer[] b = new EventBuffer[1];
        for (ThreadState t : table.sorted()) {
            if (t.traces == null) {
                continue;
            }
            EventBuffer out = new EventBuffer();
            MethodTraceNester.nest(t.traces, out);
            out.normalize();
            ts[0] = t;
            b[0] = out;
            emitter.points(gcs.pointTimes(), gcs.pointGcIds());
            emitter.emit(ts, b, 1);
            t.traces = null;
        }
    }

    private void warn(SequenceAudit audit) {
        java.util.List<String> w = report.warnings;
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
        if (audit.warn(w)) {
            report.lostData = true;
        }
        if (emitter.unknownReturns > 0) {
            w.add(emitter.unknownReturns + " method exit(s) by the method's only return instruction have no minitrace.MethodDefinition"
                    + " that gives its bytecode index; written with bytecode index 0");
            report.lostData = true;
        }
    }
}
