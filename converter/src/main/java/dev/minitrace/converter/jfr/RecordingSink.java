package dev.minitrace.converter.jfr;

import dev.minitrace.converter.mtlog.MtlogFormat;

/**
 * Receives the decoded content of a recording from a {@link RecordingSource}, with primitive
 * arguments so that an engine can deliver millions of events without allocating per event.
 *
 * <p>Contract for every engine (so that conversion results do not depend on the engine): chunks
 * are delivered in file order, each between {@link #chunkBegin} and {@link #chunkEnd}; within a
 * chunk, events in file order. A thread, class or MethodTrace method is declared (with
 * {@link #thread}, {@link #classDefinition}, {@link #tracedMethod}) before the first event that
 * uses its key, and may be declared again. Keys are the recording's own ids: the JFR thread id,
 * the JFR class id, the JFR method id; they are stable across the chunks of one recording.
 * Exception: the classes of buffered object records ({@code docs/trace-buffer.md}) are the agent's
 * class ids, keyed {@link #agentClassKey}, and declared by {@code minitrace.ClassDefinition}
 * events, which can come after the records that use them within the chunk (another thread
 * commits them), or not at all: a sink resolves these keys late.
 * Timestamps are ns since the Unix epoch, converted from ticks as {@code RecordingFile} does.
 * A trace event whose thread the recording does not resolve (JFR loses the constant of a thread
 * that ended shortly before the recording did) is delivered with {@code threadKey} -1.
 */
public interface RecordingSink {
    /**
     * The class keys of the agent's class ids (buffered object records, {@code minitrace.ClassDefinition})
     * are this bit or'ed with the unsigned id, apart from the JFR class ids, which stay far below it.
     */
    long AGENT_CLASS_KEY_BIT = 1L << 62;

    /**
     * The bytecode index of a METHOD_EXIT decoded from a {@code DEFINED_EXIT} record
     * ({@code docs/trace-buffer.md}): the method's {@code returnBci}, which its
     * {@link #methodDefinition} gives, maybe later in the chunk; the writer resolves it.
     */
    int DEFINED_RETURN_BCI = Integer.MIN_VALUE;

    /** The class key of a null reference (heap records): its object id is 0. */
    long NULL_CLASS_KEY = -2;

    /** The class key of a packed record's object of class id {@code classId}: -1 in a heap record is a null reference. */
    static long bufferClassKey(int type, int classId) {
        return classId == -1 && type > MtlogFormat.OBJECT_ALLOC ? NULL_CLASS_KEY : agentClassKey(classId);
    }

    /** The class key of the agent's class id {@code classId} (unsigned 32-bit). */
    static long agentClassKey(int classId) {
        return AGENT_CLASS_KEY_BIT | (classId & 0xFFFFFFFFL);
    }

    /** A chunk starts. */
    void chunkBegin(JfrChunk chunk);

    /** A thread: its JFR id, Java thread id (-1 when none), name, and whether it is virtual. */
    void thread(long threadKey, long javaThreadId, String name, boolean virtual);

    /**
     * A class that events refer to by {@code classKey}; the name in binary form with dots ({@code [I} for arrays).
     * A {@code minitrace.ClassDefinition} event is delivered as {@link #agentClassKey} of its {@code classId}.
     */
    void classDefinition(long classKey, String className);

    /**
     * The sizes of the objects of class {@code classKey} (after its {@link #classDefinition}), from
     * a {@code minitrace.ClassDefinition} that carries them: the instance size, or for an array class
     * the offset of element 0 and the element size; sizes round up to {@code alignment}.
     */
    default void classLayout(long classKey, int instanceSize, int elementSize, int alignment) {
    }

    /**
     * A {@code minitrace.MethodDefinition} event; {@code returnBci} is the bytecode index of the
     * method's only return instruction, -1 when none (or the recording's definitions lack the field).
     */
    void methodDefinition(int methodId, String className, String methodName, String descriptor, int returnBci);

    /** A {@code minitrace.FieldDefinition} event. */
    default void fieldDefinition(int fieldId, String className, String fieldName, String descriptor, boolean isStatic) {
    }

    /**
     * A {@code minitrace.MethodEntry} ({@code type} 1) or {@code minitrace.MethodExit} ({@code type} 2),
     * or one such record of a {@code minitrace.MethodBuffer} event (decoded by {@link MethodBufferDecoder}).
     * {@code bci} is 0 for an entry and for an exit by exception, {@link #DEFINED_RETURN_BCI} for
     * an exit at the method's {@code returnBci}.
     */
    void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci);

    // The heap records (exception, reference store) arrive as consecutive parts, one sequence number
    // each: the parts with an id (EXCEPTION_THROW/HANDLED: method id, FIELD_STORE: field id,
    // ARRAY_STORE: index) through methodEvent, the parts naming an object through objectEvent
    // (NULL_CLASS_KEY for null).

    /**
     * A {@code minitrace.LockAcquire} (3), {@code LockRelease} (4) or {@code ObjectAlloc} (5) event,
     * or one such object record of a {@code minitrace.MethodBuffer} event (class key
     * {@link #agentClassKey}), about an object of class {@code classKey}; {@code classKey} is -1
     * when the class is missing.
     */
    void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci);

    /**
     * The records {@code [from, to)} of one {@code minitrace.MethodBuffer} event, decoded into
     * columns by {@link MethodBufferDecoder}: each is a {@link #methodEvent} (types 1-2, id = method
     * id) or an {@link #objectEvent} (types 3-5, id = the agent's class id, key
     * {@link #agentClassKey}), at {@code baseTimeNanos + (long) (ticks[i] * nanosPerTick)}
     * ({@code docs/trace-buffer.md}). A sink that moves records elsewhere can take the columns at
     * once; by default each record is delivered on its own.
     */
    default void records(long threadKey, long baseTimeNanos, double nanosPerTick, int[] types, int[] ids, int[] hashes,
            int[] bcis, long[] sequences, long[] ticks, int from, int to) {
        for (int i = from; i < to; i++) {
            long t = baseTimeNanos + (long) (ticks[i] * nanosPerTick);
            int type = types[i];
            if (!MtlogFormat.objectValued(type)) {
                methodEvent(type, threadKey, sequences[i], t, ids[i], bcis[i]);
            } else {
                objectEvent(type, threadKey, sequences[i], t, bufferClassKey(type, ids[i]), hashes[i], bcis[i]);
            }
        }
    }

    /** A method that {@code jdk.MethodTrace} events refer to by {@code methodKey}. */
    void tracedMethod(long methodKey, String className, String methodName, String descriptor);

    /** A {@code jdk.MethodTrace} event (JDK 25, JEP 520): the method ran from {@code startNanos} for {@code durationNanos}. */
    void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey);

    /** A {@code jdk.GarbageCollection} event. */
    void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos);

    /**
     * A {@code jdk.GCPhasePause} event (a whole pause of GC {@code gcId}); {@code name} is the
     * pause's name ({@code GC Pause}, {@code Pause Remark}, ...).
     */
    void gcPause(long gcId, String name, long startNanos, long durationNanos);

    /**
     * A {@code minitrace.MethodBuffer} event that breaks its encoding ({@code docs/trace-buffer.md}):
     * none of its {@code recordCount} records was delivered; {@code reason} says what is wrong.
     */
    void corruptMethodBuffer(long threadKey, int recordCount, String reason);

    /**
     * After the last chunk, from an engine that put buffer events in order ({@link BufferReorder}):
     * {@code records} records waited for an earlier buffer of their thread, {@code fileBytes} bytes of them in a file.
     */
    default void buffersReordered(long records, long fileBytes) {
    }

    /** A {@code jdk.DataLoss} event: {@code amount} bytes were lost. */
    void dataLoss(long amountBytes);

    /** The chunk ends; {@code bytesDone} is the file offset after it (for progress). */
    void chunkEnd(JfrChunk chunk, long bytesDone);

    /**
     * Whether the engine should read the current chunk's GC events first (asked after
     * {@link #chunkBegin}): a sink that may have to write the chunk's records before the chunk
     * ends says yes. The engine then delivers the chunk's {@code jdk.GarbageCollection} and
     * {@code jdk.GCPhasePause} events and its {@code minitrace.MethodDefinition}s (whose
     * {@code returnBci} a record written early may need), calls {@link #chunkGcsRead}, and reads the
     * chunk as usual (delivering them again in file order). The answer must depend only on what was delivered so
     * far, so that every engine reads the same.
     */
    default boolean gcsFirst(JfrChunk chunk) {
        return false;
    }

    /**
     * True when {@link #gcsFirst} says yes for this chunk whatever was delivered before it (the
     * chunk's size alone decides), so that a sink on another thread answers without waiting for
     * the calls still in flight; false says nothing.
     */
    default boolean gcsFirstBySize(JfrChunk chunk) {
        return false;
    }

    /** Every GC event of the current chunk has been delivered (see {@link #gcsFirst}). */
    default void chunkGcsRead() {
    }
}
