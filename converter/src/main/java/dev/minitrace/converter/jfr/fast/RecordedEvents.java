package dev.minitrace.converter.jfr.fast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The sink calls of one chunk, recorded on the read-ahead thread of {@link JfrChunkReader} and
 * replayed on the caller's: the frequent events in primitive columns, one row per event (a column
 * holds one field of the kinds that have it, and is left alone by the others), reused from chunk
 * to chunk with no object per event; the rare ones (definitions, GCs, data loss, chunk start and
 * end) as calls in order.
 */
final class RecordedEvents implements JfrEventSink {
    private static final byte ENTRY = 0;
    private static final byte EXIT = 1;
    private static final byte ACQUIRE = 2;
    private static final byte RELEASE = 3;
    private static final byte ALLOC = 4;
    private static final byte TRACE = 5;
    private static final byte RARE = 6;
    private static final byte BUFFER = 7;

    private static final int INITIAL_ROWS = 1024;

    // Every row.
    private byte[] kind = new byte[INITIAL_ROWS];
    private long[] thread = new long[INITIAL_ROWS];
    private long[] start = new long[INITIAL_ROWS];
    /** Method entry and exit. */
    private int[] methodId = new int[INITIAL_ROWS];
    /** Method exit, lock acquire and release, allocation. */
    private int[] bytecodeIndex = new int[INITIAL_ROWS];
    private boolean[] exceptional = new boolean[INITIAL_ROWS];
    /** Lock acquire and release, allocation: the monitor's or the new object's class and identity. */
    private long[] classRef = new long[INITIAL_ROWS];
    private int[] identityHash = new int[INITIAL_ROWS];
    /** The trace events' sequence; a method buffer's first sequence. */
    private long[] sequence = new long[INITIAL_ROWS];
    /** jdk.MethodTrace. */
    private long[] methodRef = new long[INITIAL_ROWS];
    private long[] durationNanos = new long[INITIAL_ROWS];
    /** minitrace.MethodBuffer; its records, then its traced thread's name, follow the previous event's in {@link #text}. */
    private long[] tracedThreadRef = new long[INITIAL_ROWS];
    private int[] recordCount = new int[INITIAL_ROWS];
    private long[] baseTimeNanos = new long[INITIAL_ROWS];
    private long[] ticksPerSecond = new long[INITIAL_ROWS];
    private long[] tracedThreadId = new long[INITIAL_ROWS];
    private int[] recordsLength = new int[INITIAL_ROWS];
    private int[] nameLength = new int[INITIAL_ROWS];
    private char[] text = new char[4096];
    private char[] recordsScratch = new char[256];
    private char[] nameScratch = new char[64];
    private int textSize;
    private int size;
    private final List<Consumer<JfrEventSink>> rare = new ArrayList<>();

    void clear() {
        size = 0;
        textSize = 0;
        rare.clear();
    }

    private int next(byte k, long t, long s) {
        if (size == kind.length) {
            int n = size * 2;
            kind = Arrays.copyOf(kind, n);
            thread = Arrays.copyOf(thread, n);
            start = Arrays.copyOf(start, n);
            methodId = Arrays.copyOf(methodId, n);
            bytecodeIndex = Arrays.copyOf(bytecodeIndex, n);
            exceptional = Arrays.copyOf(exceptional, n);
            classRef = Arrays.copyOf(classRef, n);
            identityHash = Arrays.copyOf(identityHash, n);
            sequence = Arrays.copyOf(sequence, n);
            methodRef = Arrays.copyOf(methodRef, n);
            durationNanos = Arrays.copyOf(durationNanos, n);
            tracedThreadRef = Arrays.copyOf(tracedThreadRef, n);
            recordCount = Arrays.copyOf(recordCount, n);
            baseTimeNanos = Arrays.copyOf(baseTimeNanos, n);
            ticksPerSecond = Arrays.copyOf(ticksPerSecond, n);
            tracedThreadId = Arrays.copyOf(tracedThreadId, n);
            recordsLength = Arrays.copyOf(recordsLength, n);
            nameLength = Arrays.copyOf(nameLength, n);
        }
        int i = size++;
        kind[i] = k;
        thread[i] = t;
        start[i] = s;
        return i;
    }

    private void rare(Consumer<JfrEventSink> call) {
        next(RARE, 0, 0);
        rare.add(call);
    }

    /** Makes the recorded calls on {@code sink}, in the order they were recorded. */
    void replay(JfrEventSink sink) {
        int r = 0;
        int at = 0;
        for (int i = 0; i < size; i++) {
            switch (kind[i]) {
                case ENTRY -> sink.onMethodEntry(thread[i], start[i], methodId[i], sequence[i]);
                case EXIT -> sink.onMethodExit(thread[i], start[i], methodId[i], bytecodeIndex[i], exceptional[i], sequence[i]);
                case ACQUIRE -> sink.onLockAcquire(thread[i], start[i], classRef[i], identityHash[i], bytecodeIndex[i], sequence[i]);
                case RELEASE -> sink.onLockRelease(thread[i], start[i], classRef[i], identityHash[i], bytecodeIndex[i], sequence[i]);
                case ALLOC -> sink.onObjectAlloc(thread[i], start[i], classRef[i], identityHash[i], bytecodeIndex[i], sequence[i]);
                case TRACE -> sink.onMethodTrace(thread[i], start[i], durationNanos[i], methodRef[i]);
                case BUFFER -> {
                    int n = recordsLength[i];
                    if (recordsScratch.length < n) {
                        recordsScratch = new char[Math.max(n, recordsScratch.length * 2)];
                    }
                    System.arraycopy(text, at, recordsScratch, 0, n);
                    at += n;
                    int m = nameLength[i];
                    if (nameScratch.length < m) {
                        nameScratch = new char[Math.max(m, nameScratch.length * 2)];
                    }
                    System.arraycopy(text, at, nameScratch, 0, m);
                    at += m;
                    sink.onMethodBuffer(thread[i], start[i], tracedThreadRef[i], sequence[i], recordCount[i], baseTimeNanos[i],
                            ticksPerSecond[i], recordsScratch, n, tracedThreadId[i], nameScratch, m);
                }
                default -> rare.get(r++).accept(sink);
            }
        }
    }

    @Override
    public void onChunkStart(ChunkHeader header, ChunkConstants constants) {
        rare(s -> s.onChunkStart(header, constants));
    }

    @Override
    public void onChunkEnd(ChunkHeader header) {
        rare(s -> s.onChunkEnd(header));
    }

    @Override
    public void onMethodEntry(long threadRef, long startNanos, int method, long seq) {
        int i = next(ENTRY, threadRef, startNanos);
        methodId[i] = method;
        sequence[i] = seq;
    }

    @Override
    public void onMethodExit(long threadRef, long startNanos, int method, int bci, boolean byException, long seq) {
        int i = next(EXIT, threadRef, startNanos);
        methodId[i] = method;
        bytecodeIndex[i] = bci;
        exceptional[i] = byException;
        sequence[i] = seq;
    }

    private void object(byte k, long threadRef, long startNanos, long cls, int hash, int bci, long seq) {
        int i = next(k, threadRef, startNanos);
        classRef[i] = cls;
        identityHash[i] = hash;
        bytecodeIndex[i] = bci;
        sequence[i] = seq;
    }

    @Override
    public void onLockAcquire(long threadRef, long startNanos, long cls, int hash, int bci, long seq) {
        object(ACQUIRE, threadRef, startNanos, cls, hash, bci, seq);
    }

    @Override
    public void onLockRelease(long threadRef, long startNanos, long cls, int hash, int bci, long seq) {
        object(RELEASE, threadRef, startNanos, cls, hash, bci, seq);
    }

    @Override
    public void onObjectAlloc(long threadRef, long startNanos, long cls, int hash, int bci, long seq) {
        object(ALLOC, threadRef, startNanos, cls, hash, bci, seq);
    }

    @Override
    public void onMethodTrace(long threadRef, long startNanos, long duration, long method) {
        int i = next(TRACE, threadRef, startNanos);
        durationNanos[i] = duration;
        methodRef[i] = method;
    }

    @Override
    public void onMethodBuffer(long threadRef, long startNanos, long traced, long firstSequence, int count,
            long baseTime, long frequency, char[] records, int length, long tracedId, char[] tracedThreadName, int nameLen) {
        int i = next(BUFFER, threadRef, startNanos);
        tracedThreadRef[i] = traced;
        sequence[i] = firstSequence;
        recordCount[i] = count;
        baseTimeNanos[i] = baseTime;
        ticksPerSecond[i] = frequency;
        tracedThreadId[i] = tracedId;
        recordsLength[i] = length;
        nameLength[i] = nameLen;
        if (text.length - textSize < length + nameLen) {
            text = Arrays.copyOf(text, Math.max(textSize + length + nameLen, text.length * 2));
        }
        System.arraycopy(records, 0, text, textSize, length);
        System.arraycopy(tracedThreadName, 0, text, textSize + length, nameLen);
        textSize += length + nameLen;
    }

    @Override
    public void onMethodDefinition(long threadRef, long startNanos, int method, String className, String methodName,
            String descriptor, int modifiers, int returnBci) {
        rare(s -> s.onMethodDefinition(threadRef, startNanos, method, className, methodName, descriptor, modifiers, returnBci));
    }

    @Override
    public void onClassDefinition(long threadRef, long startNanos, int classId, String className, int instanceSize,
            int elementSize, int objectAlignment) {
        rare(s -> s.onClassDefinition(threadRef, startNanos, classId, className, instanceSize, elementSize, objectAlignment));
    }

    // The per-event heap forms (methods=events) are replayed as calls too: a recording has them
    // only when it has no packed records, and then a JFR event per record costs far more than this.

    @Override
    public void onFieldDefinition(long threadRef, long startNanos, int fieldId, String className, String fieldName,
            String descriptor, boolean isStatic) {
        rare(s -> s.onFieldDefinition(threadRef, startNanos, fieldId, className, fieldName, descriptor, isStatic));
    }

    @Override
    public void onException(long threadRef, long startNanos, boolean handled, int methodId, int bytecodeIndex, long classRef,
            int identityHash, long sequence) {
        rare(s -> s.onException(threadRef, startNanos, handled, methodId, bytecodeIndex, classRef, identityHash, sequence));
    }

    @Override
    public void onMethodReceiver(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
        rare(s -> s.onMethodReceiver(threadRef, startNanos, classRef, identityHash, sequence));
    }

    @Override
    public void onObjectDeath(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
        rare(s -> s.onObjectDeath(threadRef, startNanos, classRef, identityHash, sequence));
    }

    @Override
    public void onArrayLength(long threadRef, long startNanos, int length, long sequence) {
        rare(s -> s.onArrayLength(threadRef, startNanos, length, sequence));
    }

    @Override
    public void onReferenceStore(long threadRef, long startNanos, int fieldId, int index, int bytecodeIndex, long holderRef,
            int holderHash, long oldRef, int oldHash, long newRef, int newHash, long sequence) {
        rare(s -> s.onReferenceStore(threadRef, startNanos, fieldId, index, bytecodeIndex, holderRef, holderHash, oldRef, oldHash,
                newRef, newHash, sequence));
    }

    @Override
    public void onGarbageCollection(long threadRef, long startNanos, long duration, long gcId, String name,
            String cause, long sumOfPausesNanos, long longestPauseNanos) {
        rare(s -> s.onGarbageCollection(threadRef, startNanos, duration, gcId, name, cause, sumOfPausesNanos,
                longestPauseNanos));
    }

    @Override
    public void onGcPhasePause(long threadRef, long startNanos, long duration, long gcId, String name) {
        rare(s -> s.onGcPhasePause(threadRef, startNanos, duration, gcId, name));
    }

    @Override
    public void onDataLoss(long startNanos, long amount, long total) {
        rare(s -> s.onDataLoss(startNanos, amount, total));
    }

    @Override
    public void onThreadStart(long eventThreadRef, long startNanos, long threadRef, long parentThreadRef) {
        rare(s -> s.onThreadStart(eventThreadRef, startNanos, threadRef, parentThreadRef));
    }

    @Override
    public void onThreadEnd(long eventThreadRef, long startNanos, long threadRef) {
        rare(s -> s.onThreadEnd(eventThreadRef, startNanos, threadRef));
    }
}
