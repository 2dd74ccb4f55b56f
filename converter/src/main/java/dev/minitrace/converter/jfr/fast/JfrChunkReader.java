package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.FileSequence;
import dev.minitrace.converter.util.Tasks;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The fast reader's entry point: reads single chunks of a recording whose chunk boundaries the
 * caller already knows ({@code jfr.JfrChunks}), for a caller that decides itself which chunks are
 * complete and that must go on with the next chunk when one is malformed (the converter: a corrupt
 * chunk is lost, the others are not). Ticks are converted with the header of the file's first
 * chunk, as {@code jdk.jfr.consumer.RecordingFile} does (its {@code ChunkParser} hands the first
 * chunk's time converter on to the following chunks), so times equal the JDK's to the nanosecond.
 *
 * <p>Optionally the next chunk is parsed on a second thread while the caller's sink consumes the
 * current one: the parser thread records the decoded events in {@link RecordedEvents} and the
 * caller's thread replays them into its sink, which sees exactly the calls, in exactly the order,
 * of a direct read, including the events before a format error, which is thrown after them. Two
 * parsers alternate, so the constants of the chunk being replayed stay intact while the next one
 * is parsed. A chunk above {@code maxPrefetchBytes} is parsed on the caller's thread straight into
 * the sink, so that the recorded events stay bounded (at most two chunks of that size).
 * Not thread-safe.
 */
public final class JfrChunkReader implements Closeable {
    private final FileSequence files;
    private final ChunkSource source;
    private final ChunkHeader timeHeader;
    private final long maxPrefetchBytes;
    private final Worker direct;
    private final Worker[] workers;
    private final ExecutorService thread;
    private Future<Worker> ahead;
    private long aheadOffset = -1;
    private int submitted;

    /** Opens {@code file}, whose first chunk starts at offset 0, to decode {@code kinds}; no chunk is parsed ahead. */
    public JfrChunkReader(Path file, Set<JfrEventKind> kinds) throws IOException {
        this(List.of(file), kinds, 0);
    }

    /**
     * Opens {@code file}, whose first chunk starts at offset 0, to decode {@code kinds}; chunks of at
     * most {@code maxPrefetchBytes} (0: none) are parsed ahead.
     */
    public JfrChunkReader(Path file, Set<JfrEventKind> kinds, long maxPrefetchBytes) throws IOException {
        this(List.of(file), kinds, maxPrefetchBytes);
    }

    /**
     * Opens {@code files}, read as their concatenation ({@link FileSequence}) whose first chunk
     * starts at offset 0, to decode {@code kinds}; chunks of at most {@code maxPrefetchBytes} (0:
     * none) are parsed ahead.
     */
    public JfrChunkReader(List<Path> files, Set<JfrEventKind> kinds, long maxPrefetchBytes) throws IOException {
        boolean[] wanted = new boolean[JfrEventKind.values().length];
        for (JfrEventKind k : kinds) {
            wanted[k.ordinal()] = true;
        }
        this.maxPrefetchBytes = maxPrefetchBytes;
        this.direct = new Worker(wanted);
        this.workers = new Worker[] {new Worker(wanted), new Worker(wanted)};
        this.files = FileSequence.open(files);
        try {
            this.source = new ChunkSource(this.files);
            this.timeHeader = source.headerAt(0, 0);
        } catch (IOException | RuntimeException e) {
            this.files.close();
            throw e;
        }
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jfr-chunk-parser");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Delivers the selected events of the complete chunk number {@code index} at file offset
     * {@code offset} to {@code sink}, in file order; parses nothing ahead.
     *
     * @throws JfrFormatException when the chunk is malformed, after the events before the problem
     *                            were delivered; an exception of the sink is rethrown unchanged
     */
    public void readChunk(int index, long offset, JfrEventSink sink) throws IOException {
        readChunk(index, offset, -1, -1, sink);
    }

    /**
     * Delivers the selected events of the complete chunk number {@code index} at file offset
     * {@code offset} to {@code sink}, in file order, and starts parsing the chunk at
     * {@code nextOffset} (-1: none) ahead when it is small enough.
     *
     * @throws JfrFormatException when the chunk is malformed, after the events before the problem
     *                            were delivered; an exception of the sink is rethrown unchanged
     */
    public void readChunk(int index, long offset, int nextIndex, long nextOffset, JfrEventSink sink) throws IOException {
        Worker done = null;
        if (ahead != null && aheadOffset == offset) {
            done = Tasks.await(ahead, "parsing a chunk");
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
        parseChunk(w.parser, w.input, source, h, timeHeader, sink);
    }

    /** Parses chunk {@code h} with {@code parser} into {@code sink}, ticks converted by {@code timeHeader}. */
    static void parseChunk(ChunkParser parser, ChunkInput in, ChunkSource source, ChunkHeader h,
                           ChunkHeader timeHeader, JfrEventSink sink) throws IOException {
        in.reset(source, h);
        try {
            parser.parse(in, h, timeHeader, sink);
        } catch (ChunkParser.SinkFailure e) {
            throw e.sinkException(); // the sink's own failure, unchanged
        } catch (RuntimeException e) {
            // Defence in depth: a malformed chunk must never surface as an unchecked exception.
            throw new JfrFormatException(h.index(), h.fileOffset() + in.base + in.pos, "Corrupt chunk: " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        thread.shutdownNow();
        files.close();
    }

    /** One parser with its input window and the events it records. */
    private static final class Worker {
        final ChunkInput input = new ChunkInput();
        final ChunkParser parser;
        final RecordedEvents recorder = new RecordedEvents();
        IOException failure;

        Worker(boolean[] wanted) {
            parser = new ChunkParser(wanted);
        }
    }
}
