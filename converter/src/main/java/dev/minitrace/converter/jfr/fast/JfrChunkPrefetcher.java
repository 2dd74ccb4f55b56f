package dev.minitrace.converter.jfr.fast;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads chunks like {@link JfrChunkReader}, but parses the next chunk on a second thread while the
 * caller's sink consumes the current one. The parser thread records the decoded events in
 * primitive columns (reused from chunk to chunk, no object per trace event) and the caller's
 * thread replays them into its sink: the sink sees exactly the calls, in exactly the order, that
 * {@link JfrChunkReader} would make, including the events before a format error, which is thrown
 * after them. Two parsers alternate, so the constants of the chunk being replayed stay intact
 * while the next one is parsed. A chunk above {@code maxPrefetchBytes} is parsed on the caller's
 * thread straight into the sink, so that the recorded columns stay bounded (at most two chunks of
 * that size).
 */
public final class JfrChunkPrefetcher implements Closeable {
    private final FileChannel channel;
    private final ChunkSource source;
    private final ChunkHeader timeHeader;
    private final long maxPrefetchBytes;
    private final Worker direct;
    private final Worker[] workers;
    private final ExecutorService thread;
    private Future<Worker> ahead;
    private long aheadOffset = -1;
    private int submitted;

    /**
     * Opens {@code file}, whose first chunk starts at offset 0, to decode {@code kinds}; chunks of at
     * most {@code maxPrefetchBytes} (0: none) are parsed ahead.
     */
    public JfrChunkPrefetcher(Path file, Set<JfrEventKind> kinds, long maxPrefetchBytes) throws IOException {
        boolean[] wanted = new boolean[JfrEventKind.values().length];
        for (JfrEventKind k : kinds) {
            wanted[k.ordinal()] = true;
        }
        this.maxPrefetchBytes = maxPrefetchBytes;
        this.direct = new Worker(wanted);
        this.workers = new Worker[] {new Worker(wanted), new Worker(wanted)};
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            this.source = new ChunkSource(channel);
            this.timeHeader = source.headerAt(0, 0);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jfr-chunk-parser");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Delivers the chunk at {@code offset} to {@code sink}, and starts parsing the chunk at
     * {@code nextOffset} (-1: none) ahead. A format error of the chunk is thrown after its events
     * before the error were delivered.
     */
    public void readChunk(int index, long offset, int nextIndex, long nextOffset, JfrEventSink sink) throws IOException {
        Worker done = null;
        if (ahead != null && aheadOffset == offset) {
            done = ParseTasks.await(ahead, "parsing a chunk");
            ahead = null;
        }
        if (nextOffset >= 0 && ahead == null) {
            submitAhead(nextIndex, nextOffset);
        }
        if (done != null) {
            done.recorder.replay(sink);
            if (done.failure != null) {
                throw done.failure;
            }
            return;
        }
        parse(direct, index, offset, sink);
    }

    private void submitAhead(int index, long offset) throws IOException {
        ChunkHeader h;
        try {
            h = source.headerAt(offset, index);
        } catch (IOException e) {
            return; // reported when the chunk is read on this thread
        }
        if (h.size() > maxPrefetchBytes) {
            return;
        }
        Worker w = workers[submitted++ & 1];
        aheadOffset = offset;
        ahead = thread.submit(() -> {
            w.failure = null;
            w.recorder.clear();
            try {
                parse(w, index, offset, w.recorder);
            } catch (IOException e) {
                w.failure = e;
            }
            return w;
        });
    }

    private void parse(Worker w, int index, long offset, JfrEventSink sink) throws IOException {
        ChunkHeader h = source.headerAt(offset, index);
        if (h.size() < ChunkHeader.SIZE || h.size() > source.fileSize() - offset || h.size() > Integer.MAX_VALUE - 64) {
            throw new JfrFormatException(index, offset, "Chunk size " + h.size() + " does not fit the file", null);
        }
        JfrReader.parseChunk(w.parser, w.input, source, h, timeHeader, sink);
    }

    @Override
    public void close() throws IOException {
        thread.shutdownNow();
        channel.close();
    }

    /** One parser with its input window and the columns it records into. */
    private static final class Worker {
        final ChunkInput input = new ChunkInput();
        final ChunkParser parser;
        final Recorder recorder = new Recorder();
        IOException failure;

        Worker(boolean[] wanted) {
            parser = new ChunkParser(wanted);
        }
    }

    /**
     * The calls of one chunk in columns: kind, thread, start and four integer fields per event;
     * the rare events (definitions, GCs, data loss, chunk start) as objects in order.
     */
    static final class Recorder implements JfrEventSink {
        private static final byte ENTRY = 0;
        private static final byte EXIT = 1;
        private static final byte ACQUIRE = 2;
        private static final byte RELEASE = 3;
        private static final byte ALLOC = 4;
        private static final byte TRACE = 5;
        private static final byte RARE = 6;
        private static final byte BUFFER = 7;

        private byte[] kind = new byte[1024];
        private long[] thread = new long[1024];
        private long[] start = new long[1024];
        private long[] a = new long[1024];
        private long[] c = new long[1024];
        private int[] d = new int[1024];
        private long[] e = new long[1024];
        /** MethodBuffer: ticksPerSecond and baseTime per event, and the records of all events one after the other. */
        private long[] f = new long[1024];
        private long[] g = new long[1024];
        /** MethodBuffer: tracedThreadId, and the length of tracedThreadName (stored in text after the records). */
        private long[] h = new long[1024];
        private int[] nameLength = new int[1024];
        private char[] text = new char[4096];
        private char[] scratch = new char[256];
        private char[] nameScratch = new char[64];
        private int textSize;
        private int size;
        private final List<java.util.function.Consumer<JfrEventSink>> rare = new ArrayList<>();

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
                a = Arrays.copyOf(a, n);
                c = Arrays.copyOf(c, n);
                d = Arrays.copyOf(d, n);
                e = Arrays.copyOf(e, n);
                f = Arrays.copyOf(f, n);
                g = Arrays.copyOf(g, n);
                h = Arrays.copyOf(h, n);
                nameLength = Arrays.copyOf(nameLength, n);
            }
            int i = size++;
            kind[i] = k;
            thread[i] = t;
            start[i] = s;
            return i;
        }

        private void rare(java.util.function.Consumer<JfrEventSink> call) {
            next(RARE, 0, 0);
            rare.add(call);
        }

        void replay(JfrEventSink sink) {
            int r = 0;
            int at = 0;
            for (int i = 0; i < size; i++) {
                switch (kind[i]) {
                    case ENTRY -> sink.onMethodEntry(thread[i], start[i], (int) a[i], e[i]);
                    case EXIT -> sink.onMethodExit(thread[i], start[i], (int) a[i], (int) c[i], d[i] != 0, e[i]);
                    case ACQUIRE -> sink.onLockAcquire(thread[i], start[i], a[i], (int) c[i], d[i], e[i]);
                    case RELEASE -> sink.onLockRelease(thread[i], start[i], a[i], (int) c[i], d[i], e[i]);
                    case ALLOC -> sink.onObjectAlloc(thread[i], start[i], a[i], (int) c[i], d[i], e[i]);
                    case TRACE -> sink.onMethodTrace(thread[i], start[i], a[i], c[i]);
                    case BUFFER -> {
                        int n = (int) c[i];
                        if (scratch.length < n) {
                            scratch = new char[Math.max(n, scratch.length * 2)];
                        }
                        System.arraycopy(text, at, scratch, 0, n);
                        at += n;
                        int m = nameLength[i];
                        if (nameScratch.length < m) {
                            nameScratch = new char[Math.max(m, nameScratch.length * 2)];
                        }
                        System.arraycopy(text, at, nameScratch, 0, m);
                        at += m;
                        sink.onMethodBuffer(thread[i], start[i], a[i], e[i], d[i], g[i], f[i], scratch, n, h[i], nameScratch, m);
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
        public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
            int i = next(ENTRY, threadRef, startNanos);
            a[i] = methodId;
            e[i] = sequence;
        }

        @Override
        public void onMethodExit(long threadRef, long startNanos, int methodId, int bytecodeIndex, boolean exceptional,
                long sequence) {
            int i = next(EXIT, threadRef, startNanos);
            a[i] = methodId;
            c[i] = bytecodeIndex;
            d[i] = exceptional ? 1 : 0;
            e[i] = sequence;
        }

        private void object(byte k, long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            int i = next(k, threadRef, startNanos);
            a[i] = classRef;
            c[i] = identityHash;
            d[i] = bytecodeIndex;
            e[i] = sequence;
        }

        @Override
        public void onLockAcquire(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            object(ACQUIRE, threadRef, startNanos, classRef, identityHash, bytecodeIndex, sequence);
        }

        @Override
        public void onLockRelease(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            object(RELEASE, threadRef, startNanos, classRef, identityHash, bytecodeIndex, sequence);
        }

        @Override
        public void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash, int bytecodeIndex,
                long sequence) {
            object(ALLOC, threadRef, startNanos, classRef, identityHash, bytecodeIndex, sequence);
        }

        @Override
        public void onMethodTrace(long threadRef, long startNanos, long durationNanos, long methodRef) {
            int i = next(TRACE, threadRef, startNanos);
            a[i] = durationNanos;
            c[i] = methodRef;
        }

        @Override
        public void onMethodBuffer(long threadRef, long startNanos, long tracedThreadRef, long firstSequence, int recordCount,
                long baseTimeNanos, long ticksPerSecond, char[] records, int length, long tracedThreadId,
                char[] tracedThreadName, int nameLen) {
            int i = next(BUFFER, threadRef, startNanos);
            a[i] = tracedThreadRef;
            c[i] = length;
            d[i] = recordCount;
            e[i] = firstSequence;
            f[i] = ticksPerSecond;
            g[i] = baseTimeNanos;
            h[i] = tracedThreadId;
            nameLength[i] = nameLen;
            if (text.length - textSize < length + nameLen) {
                text = Arrays.copyOf(text, Math.max(textSize + length + nameLen, text.length * 2));
            }
            System.arraycopy(records, 0, text, textSize, length);
            System.arraycopy(tracedThreadName, 0, text, textSize + length, nameLen);
            textSize += length + nameLen;
        }

        @Override
        public void onMethodDefinition(long threadRef, long startNanos, int methodId, String className, String methodName,
                String descriptor, int modifiers) {
            rare(s -> s.onMethodDefinition(threadRef, startNanos, methodId, className, methodName, descriptor, modifiers));
        }

        @Override
        public void onClassDefinition(long threadRef, long startNanos, int classId, String className) {
            rare(s -> s.onClassDefinition(threadRef, startNanos, classId, className));
        }

        @Override
        public void onGarbageCollection(long threadRef, long startNanos, long durationNanos, long gcId, String name,
                String cause, long sumOfPausesNanos, long longestPauseNanos) {
            rare(s -> s.onGarbageCollection(threadRef, startNanos, durationNanos, gcId, name, cause, sumOfPausesNanos,
                    longestPauseNanos));
        }

        @Override
        public void onGcPhasePause(long threadRef, long startNanos, long durationNanos, long gcId, String name) {
            rare(s -> s.onGcPhasePause(threadRef, startNanos, durationNanos, gcId, name));
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
}
