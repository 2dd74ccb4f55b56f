package dev.minitrace.converter.jfr;

import dev.minitrace.converter.jfr.fast.ChunkConstants;
import dev.minitrace.converter.jfr.fast.ChunkHeader;
import dev.minitrace.converter.jfr.fast.JfrChunkReader;
import dev.minitrace.converter.jfr.fast.JfrEventKind;
import dev.minitrace.converter.jfr.fast.JfrEventSink;
import dev.minitrace.converter.jfr.fast.JfrFormatException;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.LongIntMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * The default engine: MiniTrace's own chunk parser ({@link dev.minitrace.converter.jfr.fast}),
 * which decodes only the event types the converter needs and skips the others by their size.
 * It delivers exactly what {@link RecordingFileSource} delivers (same keys, same times, threads
 * and classes declared at their first use in each chunk), so conversion results do not depend on
 * the engine; the tests compare both engines' outputs byte for byte. A chunk that fails to parse
 * is lost and reported; the following chunks are still read.
 */
public final class FastRecordingSource implements RecordingSource {
    private static final EnumSet<JfrEventKind> KINDS = EnumSet.of(JfrEventKind.METHOD_ENTRY, JfrEventKind.METHOD_EXIT,
            JfrEventKind.LOCK_ACQUIRE, JfrEventKind.LOCK_RELEASE, JfrEventKind.OBJECT_ALLOC,
            JfrEventKind.METHOD_DEFINITION, JfrEventKind.GARBAGE_COLLECTION, JfrEventKind.GC_PHASE_PAUSE,
            JfrEventKind.DATA_LOSS, JfrEventKind.METHOD_TRACE, JfrEventKind.METHOD_BUFFER,
            JfrEventKind.CLASS_DEFINITION, JfrEventKind.FIELD_DEFINITION, JfrEventKind.EXCEPTION_THROW,
            JfrEventKind.EXCEPTION_HANDLED, JfrEventKind.REFERENCE_STORE, JfrEventKind.OBJECT_DEATH,
            JfrEventKind.METHOD_RECEIVER, JfrEventKind.ARRAY_LENGTH);

    /**
     * Chunks up to this size can be parsed on a second thread while the previous one is converted
     * (system property {@code minitrace.prefetchChunkBytes}, documented in docs/cli.md; the parsed
     * chunk waits in columns, at most two chunks). Off by default: recording and replaying the
     * events costs more CPU than the overlap saves when the converter's parser and writer threads
     * already keep the cores busy (docs/decisions.md, "No chunk prefetch by default").
     */
    static final long DEFAULT_PREFETCH_BYTES = 0;

    @Override
    public List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink) throws IOException {
        return read(chunks, sink, (BufferReorder.Room) null);
    }

    /** Puts each thread's buffer events in order within each chunk when {@code room} is given ({@link BufferReorder}). */
    @Override
    public List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink, BufferReorder.Room room) throws IOException {
        if (chunks.chunks().isEmpty()) {
            return new ArrayList<>();
        }
        try (BufferReorder reorder = room == null ? null : new BufferReorder(room)) {
            List<ChunkFailure> failures = readAll(chunks, sink, reorder);
            if (reorder != null) {
                sink.buffersReordered(reorder.heldRecords(), reorder.fileBytes());
            }
            return failures;
        } catch (UncheckedIOException e) {
            throw e.getCause(); // the scratch file's, through the parser's sink
        }
    }

    private List<ChunkFailure> readAll(JfrChunks chunks, RecordingSink sink, BufferReorder reorder) throws IOException {
        List<ChunkFailure> failures = new ArrayList<>();
        Adapter adapter = new Adapter(sink, reorder);
        List<JfrChunk> all = chunks.chunks();
        GcEvents gcEvents = new GcEvents(sink);
        try (JfrChunkReader reader = new JfrChunkReader(chunks.files(), KINDS,
                Long.getLong("minitrace.prefetchChunkBytes", DEFAULT_PREFETCH_BYTES));
                JfrChunkReader gcReader = new JfrChunkReader(chunks.files(), GC_KINDS, 0)) {
            for (int i = 0; i < all.size(); i++) {
                JfrChunk chunk = all.get(i);
                JfrChunk next = i + 1 < all.size() ? all.get(i + 1) : null;
                sink.chunkBegin(chunk);
                if (sink.gcsFirst(chunk)) {
                    try {
                        // the chunk's GC events first, every other event skipped by its size
                        gcReader.readChunk(chunk.index(), chunk.offset(), gcEvents);
                        sink.chunkGcsRead();
                    } catch (JfrFormatException e) {
                        // the full read below reports the chunk
                    }
                }
                adapter.startChunk();
                try {
                    reader.readChunk(chunk.index(), chunk.offset(), next == null ? -1 : next.index(),
                            next == null ? -1 : next.offset(), adapter);
                } catch (JfrFormatException e) {
                    // A corrupt chunk is lost, the others are not (as with RecordingFile).
                    failures.add(new ChunkFailure(chunk, e.getMessage()));
                }
                adapter.endChunk();
                sink.chunkEnd(chunk, chunk.offset() + chunk.size());
            }
        }
        return failures;
    }

    /**
     * Turns the fast reader's constant-pool references into the {@link RecordingSink}'s keys and
     * declarations. Per chunk, a thread or class is declared once, at its first use; the checks
     * cost an array read (threads) or a compare with the last class (classes) per event.
     */
    private static final EnumSet<JfrEventKind> GC_KINDS = EnumSet.of(JfrEventKind.GARBAGE_COLLECTION, JfrEventKind.GC_PHASE_PAUSE,
            JfrEventKind.METHOD_DEFINITION);

    /**
     * The GC events of a chunk, for the pass that reads them before the others, and its method
     * definitions: the records released before the chunk ends may need their {@code returnBci}.
     */
    private static final class GcEvents implements JfrEventSink {
        private final RecordingSink sink;

        GcEvents(RecordingSink sink) {
            this.sink = sink;
        }

        @Override
        public void onGarbageCollection(long threadRef, long startNanos, long durationNanos, long gcId, String name,
                String cause, long sumOfPausesNanos, long longestPauseNanos) {
            sink.garbageCollection(gcId & 0xFFFFFFFFL, name == null ? "" : name, cause == null ? "" : cause, startNanos,
                    durationNanos);
        }

        @Override
        public void onGcPhasePause(long threadRef, long startNanos, long durationNanos, long gcId, String name) {
            sink.gcPause(gcId & 0xFFFFFFFFL, name == null ? "" : name, startNanos, durationNanos);
        }

        @Override
        public void onMethodDefinition(long threadRef, long startNanos, int methodId, String className, String methodName,
                String descriptor, int modifiers, int returnBci) {
            sink.methodDefinition(methodId, Adapter.str(className), Adapter.str(methodName), Adapter.str(descriptor), returnBci);
        }
    }

    private static final class Adapter implements JfrEventSink {
        private static final int SMALL = 1 << 16;
        private final RecordingSink sink;
        private ChunkConstants constants;
        /** Per small thread ref, the chunk stamp in which it was declared. */
        private int[] threadStamp = new int[256];
        private final LongIntMap largeThreads = new LongIntMap(16);
        private final LongIntMap classes = new LongIntMap(256);
        private final LongIntMap methods = new LongIntMap(64);
        private final MethodBufferDecoder buffers = new MethodBufferDecoder();
        private final TracedThreadKeys tracedThreads = new TracedThreadKeys();
        private int stamp;
        private long lastThreadRef = Long.MIN_VALUE;
        private long lastClassRef = Long.MIN_VALUE;
        private long lastClassKey;

        /** Null: buffer events are decoded in file order. */
        private final BufferReorder reorder;

        Adapter(RecordingSink sink, BufferReorder reorder) {
            this.sink = sink;
            this.reorder = reorder;
        }

        void startChunk() {
            stamp++;
            lastThreadRef = Long.MIN_VALUE;
            lastClassRef = Long.MIN_VALUE;
        }

        @Override
        public void onChunkStart(ChunkHeader header, ChunkConstants chunkConstants) {
            this.constants = chunkConstants;
        }

        /** The thread key of {@code ref}, declaring the thread at its first use in the chunk; -1 for none. */
        private long thread(long ref) {
            if (ref == lastThreadRef) {
                return ref;
            }
            if (ref == 0 || !constants.hasThread(ref)) {
                return -1;
            }
            boolean fresh;
            if (ref > 0 && ref < SMALL) {
                int r = (int) ref;
                if (r >= threadStamp.length) {
                    threadStamp = Arrays.copyOf(threadStamp, Math.min(SMALL, Math.max(r + 1, threadStamp.length * 2)));
                }
                fresh = threadStamp[r] != stamp;
                threadStamp[r] = stamp;
            } else {
                fresh = largeThreads.get(ref) != stamp;
                largeThreads.put(ref, stamp);
            }
            if (fresh) {
                String javaName = constants.threadJavaName(ref);
                String name = javaName != null ? javaName : constants.threadOsName(ref);
                long javaId = constants.threadJavaId(ref);
                sink.thread(ref, javaId, name == null ? "" : name, constants.threadVirtual(ref));
                tracedThreads.declared(ref, javaId);
            }
            lastThreadRef = ref;
            return ref;
        }

        private long classKey(long ref) {
            if (ref == lastClassRef) {
                return lastClassKey;
            }
            long key = -1;
            if (ref != 0 && classes.get(ref) == stamp) {
                key = ref; // declared in this chunk already
            } else {
                String name = ref == 0 ? null : constants.className(ref);
                if (name != null) {
                    key = ref;
                    classes.put(ref, stamp);
                    sink.classDefinition(ref, RecordingFileSource.binaryName(name));
                }
            }
            lastClassRef = ref;
            lastClassKey = key;
            return key;
        }

        @Override
        public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
            sink.methodEvent(MtlogFormat.METHOD_ENTRY, thread(threadRef), sequence, startNanos, methodId, 0);
        }

        @Override
        public void onMethodExit(long threadRef, long startNanos, int methodId, int bytecodeIndex, boolean exceptional,
                long sequence) {
            sink.methodEvent(MtlogFormat.METHOD_EXIT, thread(threadRef), sequence, startNanos, methodId, bytecodeIndex);
        }

        @Override
        public void onMethodBuffer(long threadRef, long startNanos, long tracedThreadRef, long firstSequence, int recordCount,
                long baseTimeNanos, long ticksPerSecond, char[] records, int length, long tracedThreadId,
                char[] tracedThreadName, int nameLength) {
            // the records are the traced thread's, not the committing thread's
            long t = thread(tracedThreadRef);
            if (t == -1 && tracedThreadId > 0) {
                tracedThreads.buffer(tracedThreadId, tracedThreadName, nameLength, records, length, firstSequence,
                        recordCount, baseTimeNanos, ticksPerSecond, buffers, sink);
            } else if (reorder != null) {
                try {
                    reorder.buffer(t, records, length, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, buffers, sink);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else {
                buffers.decode(records, length, t, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, sink);
            }
        }

        /** The chunk's events are all delivered: the buffer events that waited for their thread. */
        void endChunk() {
            if (reorder != null) {
                try {
                    reorder.endOfChunk(buffers, sink);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            tracedThreads.endOfChunk(buffers, sink);
        }

        @Override
        public void onLockAcquire(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            long t = thread(threadRef);
            sink.objectEvent(MtlogFormat.LOCK_ACQUIRE, t, sequence, startNanos, classKey(classRef), identityHash, bytecodeIndex);
        }

        @Override
        public void onLockRelease(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            long t = thread(threadRef);
            sink.objectEvent(MtlogFormat.LOCK_RELEASE, t, sequence, startNanos, classKey(classRef), identityHash, bytecodeIndex);
        }

        @Override
        public void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            long t = thread(threadRef);
            sink.objectEvent(MtlogFormat.OBJECT_ALLOC, t, sequence, startNanos, classKey(classRef), identityHash, bytecodeIndex);
        }

        @Override
        public void onFieldDefinition(long threadRef, long startNanos, int fieldId, String className, String fieldName,
                String descriptor, boolean isStatic) {
            sink.fieldDefinition(fieldId, str(className), str(fieldName), str(descriptor), isStatic);
        }

        @Override
        public void onException(long threadRef, long startNanos, boolean handled, int methodId, int bytecodeIndex, long classRef,
                int identityHash, long sequence) {
            long t = thread(threadRef);
            sink.methodEvent(handled ? MtlogFormat.EXCEPTION_HANDLED : MtlogFormat.EXCEPTION_THROW, t, sequence, startNanos,
                    methodId, bytecodeIndex);
            sink.objectEvent(MtlogFormat.EXCEPTION_OBJECT, t, sequence + 1, startNanos, heapClassKey(classRef), identityHash, 0);
        }

        @Override
        public void onReferenceStore(long threadRef, long startNanos, int fieldId, int index, int bytecodeIndex, long holderRef,
                int holderHash, long oldRef, int oldHash, long newRef, int newHash, long sequence) {
            long t = thread(threadRef);
            if (fieldId == -1) {
                sink.methodEvent(MtlogFormat.ARRAY_STORE, t, sequence, startNanos, index, bytecodeIndex);
            } else {
                sink.methodEvent(MtlogFormat.FIELD_STORE, t, sequence, startNanos, fieldId, bytecodeIndex);
            }
            sink.objectEvent(MtlogFormat.STORE_HOLDER, t, sequence + 1, startNanos, heapClassKey(holderRef), holderHash, 0);
            sink.objectEvent(MtlogFormat.STORE_OLD, t, sequence + 2, startNanos, heapClassKey(oldRef), oldHash, 0);
            sink.objectEvent(MtlogFormat.STORE_NEW, t, sequence + 3, startNanos, heapClassKey(newRef), newHash, 0);
        }

        @Override
        public void onMethodReceiver(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
            sink.objectEvent(MtlogFormat.METHOD_RECEIVER, thread(threadRef), sequence, startNanos, heapClassKey(classRef), identityHash, 0);
        }

        @Override
        public void onArrayLength(long threadRef, long startNanos, int length, long sequence) {
            sink.methodEvent(MtlogFormat.ARRAY_LENGTH, thread(threadRef), sequence, startNanos, length, 0);
        }

        @Override
        public void onObjectDeath(long threadRef, long startNanos, long classRef, int identityHash, long sequence) {
            sink.objectEvent(MtlogFormat.OBJECT_DEATH, thread(threadRef), sequence, startNanos, heapClassKey(classRef), identityHash, 0);
        }

        /** The class key of a heap event's object; a null class is a null reference. */
        private long heapClassKey(long ref) {
            return ref == 0 ? RecordingSink.NULL_CLASS_KEY : classKey(ref);
        }

        @Override
        public void onMethodDefinition(long threadRef, long startNanos, int methodId, String className, String methodName,
                String descriptor, int modifiers, int returnBci) {
            sink.methodDefinition(methodId, str(className), str(methodName), str(descriptor), returnBci);
        }

        @Override
        public void onClassDefinition(long threadRef, long startNanos, int classId, String className, int instanceSize,
                int elementSize, int objectAlignment) {
            if (className != null) { // as the reference engine: a definition without a name leaves the class missing
                long key = RecordingSink.agentClassKey(classId);
                sink.classDefinition(key, className);
                if (instanceSize > 0) {
                    sink.classLayout(key, instanceSize, elementSize, objectAlignment);
                }
            }
        }

        @Override
        public void onMethodTrace(long threadRef, long startNanos, long durationNanos, long methodRef) {
            long t = thread(threadRef);
            if (t == -1 || methodRef == 0 || !constants.hasMethod(methodRef)) {
                return;
            }
            if (methods.get(methodRef) != stamp) {
                methods.put(methodRef, stamp);
                String cls = constants.methodClassName(methodRef);
                sink.tracedMethod(methodRef, cls == null ? "?" : RecordingFileSource.binaryName(cls),
                        str(constants.methodName(methodRef)), str(constants.methodDescriptor(methodRef)));
            }
            sink.methodTrace(t, startNanos, durationNanos, methodRef);
        }

        @Override
        public void onGarbageCollection(long threadRef, long startNanos, long durationNanos, long gcId, String name,
                String cause, long sumOfPausesNanos, long longestPauseNanos) {
            sink.garbageCollection(gcId & 0xFFFFFFFFL, str(name), str(cause), startNanos, durationNanos);
        }

        @Override
        public void onGcPhasePause(long threadRef, long startNanos, long durationNanos, long gcId, String name) {
            sink.gcPause(gcId & 0xFFFFFFFFL, str(name), startNanos, durationNanos);
        }

        @Override
        public void onDataLoss(long startNanos, long amount, long total) {
            sink.dataLoss(amount);
        }

        private static String str(String s) {
            return s == null ? "" : s;
        }
    }
}
