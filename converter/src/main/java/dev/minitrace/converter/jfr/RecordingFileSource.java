package dev.minitrace.converter.jfr;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.util.FileSequence;
import dev.minitrace.events.EventNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The reference engine: reads each complete chunk with {@code jdk.jfr.consumer.RecordingFile}.
 * {@code RecordingFile} fails on a file that ends in an incomplete chunk, so each chunk is given to
 * it on its own: a file that is one complete chunk is read in place, otherwise each chunk's bytes
 * are copied to a temporary file first. This also gives the sink exact chunk boundaries.
 */
public final class RecordingFileSource implements RecordingSource {
    private final Map<String, Long> tracedMethodKeys = new HashMap<>();
    private final MethodBufferDecoder buffers = new MethodBufferDecoder();
    private final TracedThreadKeys tracedThreads = new TracedThreadKeys();
    /**
     * Ticks become nanoseconds with the file's first chunk, as {@code RecordingFile} does for a
     * whole file (each chunk is read here as a file of its own, whose own base would differ).
     */
    private long baseNanos;
    private long baseTicks;
    private double ticksPerNano;

    /** Null: buffer events are decoded in file order. */
    private BufferReorder reorder;

    @Override
    public List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink) throws IOException {
        return read(chunks, sink, (BufferReorder.Room) null);
    }

    /** Puts each thread's buffer events in order within a chunk when {@code room} is given, as the fast engine does. */
    @Override
    public List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink, BufferReorder.Room room) throws IOException {
        try (BufferReorder r = room == null ? null : new BufferReorder(room)) {
            reorder = r;
            List<ChunkFailure> failures = readAll(chunks, sink);
            if (r != null) {
                sink.buffersReordered(r.heldRecords(), r.fileBytes());
            }
            return failures;
        } finally {
            reorder = null;
        }
    }

    private List<ChunkFailure> readAll(JfrChunks chunks, RecordingSink sink) throws IOException {
        List<ChunkFailure> failures = new ArrayList<>();
        if (!chunks.chunks().isEmpty()) {
            JfrChunk first = chunks.chunks().get(0);
            baseNanos = first.startNanos();
            baseTicks = first.startTicks();
            ticksPerNano = (double) first.ticksPerSecond() / 1_000_000_000L;
        }
        boolean inPlace = chunks.chunks().size() == 1 && chunks.lostTail() == 0 && chunks.files().size() == 1;
        Path temp = inPlace ? null : Files.createTempFile("minitrace-chunk-", ".jfr");
        try (FileSequence files = inPlace ? null : FileSequence.open(chunks.files())) {
            for (JfrChunk chunk : chunks.chunks()) {
                Path input = chunks.files().get(0);
                if (!inPlace) {
                    copyRegion(files, chunk.offset(), chunk.size(), temp);
                    input = temp;
                }
                sink.chunkBegin(chunk);
                if (sink.gcsFirst(chunk)) {
                    try {
                        readGcs(input, sink);
                        sink.chunkGcsRead();
                    } catch (IOException | RuntimeException e) {
                        // the full read below reports the chunk
                    }
                }
                try {
                    readChunk(input, sink);
                } catch (ScratchFailure e) {
                    throw e.getCause(); // the reorder's file, not the recording
                } catch (IOException | RuntimeException e) {
                    // RecordingFile signals a corrupt chunk with an exception: the chunk is lost, the others are not.
                    failures.add(new ChunkFailure(chunk, e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage())));
                }
                if (reorder != null) {
                    reorder.endOfChunk(buffers, sink);
                }
                tracedThreads.endOfChunk(buffers, sink); // the buffer events that waited for their thread
                sink.chunkEnd(chunk, chunk.offset() + chunk.size());
            }
        } finally {
            if (temp != null) {
                Files.deleteIfExists(temp);
            }
        }
        return failures;
    }

    private static void copyRegion(FileSequence files, long offset, long size, Path to) throws IOException {
        try (FileChannel out = FileChannel.open(to, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            files.transferTo(offset, size, out);
        }
    }

    /** The event's start, ns since the epoch, exactly as RecordingFile computes it for the whole file. */
    private long start(RecordedEvent e) {
        return time(e.getLong("startTime"));
    }

    /** A tick timestamp in ns since the epoch, as RecordingFile converts it for the whole file. */
    private long time(long ticks) {
        return baseNanos + (long) ((ticks - baseTicks) / ticksPerNano);
    }

    /**
     * The event's duration in ns as {@code RecordedEvent.getDuration()} computes it: the converted
     * end minus the converted start (which can differ by 1 ns from converting the tick span alone).
     */
    private long duration(RecordedEvent e) {
        long startTicks = e.getLong("startTime");
        long end = baseNanos + (long) ((startTicks + e.getLong("duration") - baseTicks) / ticksPerNano);
        return end - start(e);
    }

    /** The chunk's GC events, read before the others (see {@link RecordingSink#chunkGcsRead}). */
    private void readGcs(Path chunkFile, RecordingSink sink) throws IOException {
        try (RecordingFile rf = new RecordingFile(chunkFile)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                gc(e, sink);
            }
        }
    }

    /** Delivers a {@code minitrace.MethodDefinition}. */
    private void methodDefinition(RecordedEvent e, RecordingSink sink) {
        sink.methodDefinition(e.getInt("methodId"), str(e.getString("className")), str(e.getString("methodName")),
                str(e.getString("descriptor")), e.hasField("returnBci") ? e.getInt("returnBci") : -1);
    }

    /** Delivers {@code e} if it is a GC event or a method definition (the records released early may need it). */
    private void gc(RecordedEvent e, RecordingSink sink) {
        switch (e.getEventType().getName()) {
            case EventNames.METHOD_DEFINITION -> methodDefinition(e, sink);
            case "jdk.GarbageCollection" -> sink.garbageCollection(e.getLong("gcId") & 0xFFFFFFFFL, str(e.getString("name")),
                    str(e.getString("cause")), start(e), duration(e));
            case "jdk.GCPhasePause" -> sink.gcPause(e.getLong("gcId") & 0xFFFFFFFFL, str(e.getString("name")), start(e),
                    duration(e));
            default -> {
            }
        }
    }

    private void readChunk(Path chunkFile, RecordingSink sink) throws IOException {
        // RecordingFile resolves each constant once per chunk, so identity maps avoid re-declaring.
        Map<RecordedThread, Long> threads = new IdentityHashMap<>();
        Map<RecordedClass, Boolean> classes = new IdentityHashMap<>();
        Map<RecordedMethod, Long> methods = new IdentityHashMap<>();
        try (RecordingFile rf = new RecordingFile(chunkFile)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String name = e.getEventType().getName();
                switch (name) {
                    case EventNames.METHOD_ENTRY -> sink.methodEvent(MtlogFormat.METHOD_ENTRY, thread(e, threads, sink),
                            e.getLong("sequence"), start(e), e.getInt("methodId"), 0);
                    case EventNames.METHOD_EXIT -> sink.methodEvent(MtlogFormat.METHOD_EXIT, thread(e, threads, sink),
                            e.getLong("sequence"), start(e), e.getInt("methodId"), e.getInt("bytecodeIndex"));
                    case EventNames.METHOD_BUFFER -> {
                        // the records are the traced thread's, not the committing thread's
                        Object traced = e.getValue("tracedThread");
                        long t = thread(traced instanceof RecordedThread rt ? rt : null, threads, sink);
                        long javaId = e.hasField("tracedThreadId") ? e.getLong("tracedThreadId") : 0;
                        // getLong gives a @Timestamp(TICKS) field's raw ticks, like startTime's
                        long base = time(e.getLong("baseTime"));
                        if (t == -1 && javaId > 0) {
                            tracedThreads.buffer(javaId, e.hasField("tracedThreadName") ? e.getString("tracedThreadName") : null,
                                    e.getString("records"), e.getLong("firstSequence"), e.getInt("recordCount"), base,
                                    e.getLong("ticksPerSecond"), buffers, sink);
                        } else if (reorder != null) {
                            String records = e.getString("records");
                            int n = records == null ? 0 : records.length();
                            char[] chars = buffers.buffer(n);
                            if (n > 0) {
                                records.getChars(0, n, chars, 0);
                            }
                            try {
                                reorder.buffer(t, chars, n, e.getLong("firstSequence"), e.getInt("recordCount"), base,
                                        e.getLong("ticksPerSecond"), buffers, sink);
                            } catch (IOException x) {
                                throw new ScratchFailure(x);
                            }
                        } else {
                            buffers.decode(e.getString("records"), t, e.getLong("firstSequence"), e.getInt("recordCount"),
                                    base, e.getLong("ticksPerSecond"), sink);
                        }
                    }
                    case EventNames.LOCK_ACQUIRE -> objectEvent(MtlogFormat.LOCK_ACQUIRE, "monitorClass", e, threads, classes, sink);
                    case EventNames.LOCK_RELEASE -> objectEvent(MtlogFormat.LOCK_RELEASE, "monitorClass", e, threads, classes, sink);
                    case EventNames.OBJECT_ALLOC -> objectEvent(MtlogFormat.OBJECT_ALLOC, "objectClass", e, threads, classes, sink);
                    case EventNames.ARRAY_LENGTH -> sink.methodEvent(MtlogFormat.ARRAY_LENGTH, thread(e, threads, sink), e.getLong("sequence"),
                            start(e), e.getInt("length"), 0);
                    case EventNames.METHOD_RECEIVER -> {
                        long t = thread(e, threads, sink);
                        sink.objectEvent(MtlogFormat.METHOD_RECEIVER, t, e.getLong("sequence"), start(e),
                                heapClassKey(e.getValue("receiverClass"), classes, sink), e.getInt("identityHash"), 0);
                    }
                    case EventNames.OBJECT_DEATH -> {
                        long t = thread(e, threads, sink);
                        sink.objectEvent(MtlogFormat.OBJECT_DEATH, t, e.getLong("sequence"), start(e),
                                heapClassKey(e.getValue("objectClass"), classes, sink), e.getInt("identityHash"), 0);
                    }
                    case EventNames.CLASS_DEFINITION -> {
                        String className = e.getString("className");
                        if (className != null) { // a definition without a name leaves the class missing
                            long key = RecordingSink.agentClassKey(e.getInt("classId"));
                            sink.classDefinition(key, className);
                            int size = e.hasField("instanceSize") ? e.getInt("instanceSize") : 0;
                            if (size > 0) {
                                sink.classLayout(key, size, e.getInt("elementSize"), e.getInt("objectAlignment"));
                            }
                        }
                    }
                    case EventNames.FIELD_DEFINITION -> sink.fieldDefinition(e.getInt("fieldId"), str(e.getString("className")),
                            str(e.getString("fieldName")), str(e.getString("descriptor")), e.getBoolean("isStatic"));
                    case EventNames.EXCEPTION_THROW, EventNames.EXCEPTION_HANDLED -> {
                        long t = thread(e, threads, sink);
                        long seq = e.getLong("sequence");
                        sink.methodEvent(EventNames.EXCEPTION_HANDLED.equals(name) ? MtlogFormat.EXCEPTION_HANDLED
                                : MtlogFormat.EXCEPTION_THROW, t, seq, start(e), e.getInt("methodId"), e.getInt("bytecodeIndex"));
                        sink.objectEvent(MtlogFormat.EXCEPTION_OBJECT, t, seq + 1, start(e),
                                heapClassKey(e.getValue("exceptionClass"), classes, sink), e.getInt("identityHash"), 0);
                    }
                    case EventNames.REFERENCE_STORE -> {
                        long t = thread(e, threads, sink);
                        long seq = e.getLong("sequence");
                        int fieldId = e.getInt("fieldId");
                        if (fieldId == -1) {
                            sink.methodEvent(MtlogFormat.ARRAY_STORE, t, seq, start(e), e.getInt("index"), e.getInt("bytecodeIndex"));
                        } else {
                            sink.methodEvent(MtlogFormat.FIELD_STORE, t, seq, start(e), fieldId, e.getInt("bytecodeIndex"));
                        }
                        sink.objectEvent(MtlogFormat.STORE_HOLDER, t, seq + 1, start(e), heapClassKey(e.getValue("holderClass"), classes, sink),
                                e.getInt("holderHash"), 0);
                        sink.objectEvent(MtlogFormat.STORE_OLD, t, seq + 2, start(e), heapClassKey(e.getValue("oldClass"), classes, sink),
                                e.getInt("oldHash"), 0);
                        sink.objectEvent(MtlogFormat.STORE_NEW, t, seq + 3, start(e), heapClassKey(e.getValue("newClass"), classes, sink),
                                e.getInt("newHash"), 0);
                    }
                    case EventNames.METHOD_DEFINITION -> methodDefinition(e, sink);
                    case "jdk.MethodTrace" -> {
                        long t = thread(e, threads, sink);
                        RecordedMethod m = e.getValue("method");
                        if (t != -1 && m != null) {
                            Long key = methods.get(m);
                            if (key == null) {
                                String cls = m.getType() == null ? "?" : binaryName(m.getType().getName());
                                String mn = str(m.getName());
                                String desc = str(m.getDescriptor());
                                key = tracedMethodKeys.computeIfAbsent(cls + ' ' + mn + ' ' + desc, k -> (long) tracedMethodKeys.size());
                                methods.put(m, key);
                                sink.tracedMethod(key, cls, mn, desc);
                            }
                            sink.methodTrace(t, start(e), duration(e), key);
                        }
                    }
                    case "jdk.GarbageCollection", "jdk.GCPhasePause" -> gc(e, sink);
                    case "jdk.DataLoss" -> sink.dataLoss(e.getLong("amount"));
                    default -> {
                        // every other event type is of no use to the converter
                    }
                }
            }
        }
    }

    private void objectEvent(int type, String classField, RecordedEvent e, Map<RecordedThread, Long> threads,
            Map<RecordedClass, Boolean> classes, RecordingSink sink) {
        long t = thread(e, threads, sink);
        RecordedClass c = e.getValue(classField);
        long classKey = -1;
        if (c != null) {
            classKey = c.getId();
            if (classes.put(c, Boolean.TRUE) == null) {
                sink.classDefinition(classKey, binaryName(c.getName()));
            }
        }
        sink.objectEvent(type, t, e.getLong("sequence"), start(e), classKey, e.getInt("identityHash"),
                e.getInt("bytecodeIndex"));
    }

    /** The class key of a heap event's object class, declared on first use; null: a null reference. */
    private static long heapClassKey(RecordedClass c, Map<RecordedClass, Boolean> classes, RecordingSink sink) {
        if (c == null) {
            return RecordingSink.NULL_CLASS_KEY;
        }
        if (classes.put(c, Boolean.TRUE) == null) {
            sink.classDefinition(c.getId(), binaryName(c.getName()));
        }
        return c.getId();
    }

    private long thread(RecordedEvent e, Map<RecordedThread, Long> threads, RecordingSink sink) {
        return thread(e.getThread(), threads, sink);
    }

    private long thread(RecordedThread t, Map<RecordedThread, Long> threads, RecordingSink sink) {
        if (t == null) {
            return -1;
        }
        Long key = threads.get(t);
        if (key == null) {
            key = t.getId();
            threads.put(t, key);
            String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
            boolean virtual = t.hasField("virtual") && t.getBoolean("virtual");
            sink.thread(key, t.getJavaThreadId(), name == null ? "" : name, virtual);
            tracedThreads.declared(key, t.getJavaThreadId());
        }
        return key;
    }

    private static String str(String s) {
        return s == null ? "" : s;
    }

    /** JFR spells class names with dots or slashes depending on the path; the .mtlog wants dots. */
    static String binaryName(String name) {
        return name == null ? "?" : name.replace('/', '.');
    }

    /** A failure of the reorder's scratch file, told apart from a corrupt chunk (which {@code RecordingFile} reports as an IOException too). */
    private static final class ScratchFailure extends RuntimeException {
        ScratchFailure(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }
}
