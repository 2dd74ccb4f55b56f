package dev.minitrace.converter.jfr.fast;

/**
 * Receives decoded events, one call per event with primitive arguments: no object per event.
 * Times are epoch nanoseconds and durations nanoseconds, converted from the chunk's ticks exactly
 * as {@code jdk.jfr.consumer.RecordingFile} does. {@code threadRef}, {@code classRef} and
 * {@code methodRef} are constant-pool keys valid within the current chunk: resolve them with the
 * {@link ChunkConstants} given to {@link #onChunkStart}. A thread reference of 0 means "no
 * thread". Every method has an empty default, so a sink implements only what it consumes; select
 * the kinds to decode with {@link JfrChunkReader#JfrChunkReader(java.nio.file.Path, java.util.Set)} so the others are skipped.
 */
public interface JfrEventSink {
    /** A chunk begins; its constant pools are fully read (all checkpoints, all flush segments). */
    default void onChunkStart(ChunkHeader header, ChunkConstants constants) {
    }

    /** The chunk's last event was delivered. */
    default void onChunkEnd(ChunkHeader header) {
    }

    /** {@code minitrace.MethodEntry}. */
    default void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
    }

    /** {@code minitrace.MethodExit}. */
    default void onMethodExit(long threadRef, long startNanos, int methodId, int bytecodeIndex,
                              boolean exceptional, long sequence) {
    }

    /** {@code minitrace.LockAcquire}; {@code classRef} is the monitor's class. */
    default void onLockAcquire(long threadRef, long startNanos, long classRef, int identityHash,
                               int bytecodeIndex, long sequence) {
    }

    /** {@code minitrace.LockRelease}; {@code classRef} is the monitor's class. */
    default void onLockRelease(long threadRef, long startNanos, long classRef, int identityHash,
                               int bytecodeIndex, long sequence) {
    }

    /** {@code minitrace.ObjectAlloc}; {@code classRef} is the new object's class. */
    default void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash,
                               int bytecodeIndex, long sequence) {
    }

    /** {@code minitrace.FieldDefinition} (rare: strings are fine here). */
    default void onFieldDefinition(long threadRef, long startNanos, int fieldId, String className, String fieldName,
                                   String descriptor, boolean isStatic) {
    }

    /** {@code minitrace.ExceptionThrow} ({@code handled} false) or {@code minitrace.ExceptionHandled}. */
    default void onException(long threadRef, long startNanos, boolean handled, int methodId, int bytecodeIndex, long classRef,
                             int identityHash, long sequence) {
    }

    /** {@code minitrace.MethodReceiver}. */
    default void onMethodReceiver(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
    }

    /** {@code minitrace.ObjectDeath}. */
    default void onObjectDeath(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
    }

    /** {@code minitrace.ArrayLength}. */
    default void onArrayLength(long threadRef, long startNanos, int length, long sequence) {
    }

    /** {@code minitrace.ReferenceStore}; a class ref of 0 is a null reference (or no holder). */
    default void onReferenceStore(long threadRef, long startNanos, int fieldId, int index, int bytecodeIndex, long holderRef,
                                  int holderHash, long oldRef, int oldHash, long newRef, int newHash, long sequence) {
    }

    /**
     * {@code minitrace.MethodDefinition} (rare: strings are fine here); {@code returnBci} is 0 in a
     * recording whose definitions lack the field (made before it, with no exit record that needs it).
     */
    default void onMethodDefinition(long threadRef, long startNanos, int methodId, String className,
                                    String methodName, String descriptor, int modifiers, int returnBci) {
    }

    /**
     * {@code jdk.GarbageCollection}; name and cause resolved from their pools ({@code null} if
     * absent). {@code threadRef} is 0 where the JDK writes no thread (JDK 17), the VM thread on JDK 25.
     */
    default void onGarbageCollection(long threadRef, long startNanos, long durationNanos, long gcId, String name,
                                     String cause, long sumOfPausesNanos, long longestPauseNanos) {
    }

    /** {@code jdk.GCPhasePause}. */
    default void onGcPhasePause(long threadRef, long startNanos, long durationNanos, long gcId, String name) {
    }

    /** {@code jdk.DataLoss}: {@code amount} bytes lost now, {@code total} bytes lost so far. */
    default void onDataLoss(long startNanos, long amount, long total) {
    }

    /** {@code jdk.MethodTrace} (JDK 25): resolve {@code methodRef} with {@link ChunkConstants}. */
    default void onMethodTrace(long threadRef, long startNanos, long durationNanos, long methodRef) {
    }

    /** {@code jdk.ThreadStart}: {@code threadRef} started, by {@code parentThreadRef} (0 if none). */
    default void onThreadStart(long eventThreadRef, long startNanos, long threadRef, long parentThreadRef) {
    }

    /**
     * {@code minitrace.MethodBuffer}: {@code records[0, length)} are the event's packed records
     * (valid only during this call: the array is the parser's, reused for the next event);
     * {@code baseTimeNanos} is {@code baseTime} converted like every timestamp; {@code tracedThreadId}
     * and {@code tracedThreadName[0, nameLength)} (valid during the call too) identify the thread
     * when {@code tracedThreadRef} does not (0 and empty when the event lacks them). Decode them with
     * {@code dev.minitrace.converter.jfr.MethodBufferDecoder}.
     */
    default void onMethodBuffer(long threadRef, long startNanos, long tracedThreadRef, long firstSequence, int recordCount,
                                long baseTimeNanos, long ticksPerSecond, char[] records, int length,
                                long tracedThreadId, char[] tracedThreadName, int nameLength) {
    }

    /**
     * {@code minitrace.ClassDefinition} (rare: strings are fine here): {@code classId} is the
     * agent's id of the class in buffered object records, {@code className} its {@code Class.getName()}
     * ({@code null} if absent).
     */
    default void onClassDefinition(long threadRef, long startNanos, int classId, String className, int instanceSize,
                                   int elementSize, int objectAlignment) {
    }

    /** {@code jdk.ThreadEnd}. */
    default void onThreadEnd(long eventThreadRef, long startNanos, long threadRef) {
    }
}
