package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Parses the chunks of a recording on a small pool of threads. Chunks are self-contained (own
 * metadata, own constant pools), so each is parsed independently into its own sink, made by a
 * factory; the finished sinks are then handed to a consumer on the calling thread strictly in
 * chunk order. At most {@code 2 × threads} chunks are in flight, so memory stays bounded by a few
 * chunk buffers plus what the sinks keep. With {@link TimeBase#FIRST_CHUNK} (the default) the
 * first chunk's header converts every chunk's ticks, as in {@link JfrReader}.
 */
public final class ParallelJfrReader {
    private final boolean[] wanted = new boolean[JfrEventKind.values().length];
    private final int threads;
    private TimeBase timeBase = TimeBase.FIRST_CHUNK;

    /** A reader of all {@link JfrEventKind}s on {@code threads} threads. */
    public ParallelJfrReader(int threads) {
        this(EnumSet.allOf(JfrEventKind.class), threads);
    }

    /** A reader of {@code kinds} on {@code threads} (≥ 1) threads. */
    public ParallelJfrReader(Set<JfrEventKind> kinds, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        for (JfrEventKind k : kinds) {
            wanted[k.ordinal()] = true;
        }
        this.threads = threads;
    }

    /** Selects how ticks become nanoseconds; see {@link TimeBase}. */
    public ParallelJfrReader timeBase(TimeBase base) {
        this.timeBase = base;
        return this;
    }

    /** Per-thread parsing state: one window, one parser, reused for every chunk the thread parses. */
    private final class Worker {
        final ChunkInput input = new ChunkInput();
        final ChunkParser parser = new ChunkParser(wanted);
    }

    private record Done<S>(S sink, long events) {
    }

    /**
     * Reads {@code file}: each complete chunk is parsed into a fresh sink from {@code sinkPerChunk}
     * on a pool thread, and {@code inOrder} receives the sinks on this thread in chunk order.
     */
    public <S extends JfrEventSink> ReadResult read(Path file, Supplier<S> sinkPerChunk, Consumer<S> inOrder)
            throws IOException {
        ThreadLocal<Worker> workers = ThreadLocal.withInitial(Worker::new);
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "jfr-chunk-parser");
            t.setDaemon(true);
            return t;
        };
        ExecutorService pool = Executors.newFixedThreadPool(threads, factory);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ChunkSource source = new ChunkSource(channel);
            ArrayDeque<Future<Done<S>>> inFlight = new ArrayDeque<>();
            long events = 0;
            int chunks = 0;
            ChunkHeader first = null;
            ChunkHeader h;
            while ((h = source.nextHeader()) != null) {
                if (first == null) {
                    first = h;
                }
                final ChunkHeader header = h;
                final ChunkHeader timeHeader = timeBase == TimeBase.FIRST_CHUNK ? first : h;
                inFlight.add(pool.submit(() -> {
                    Worker w = workers.get();
                    long before = w.parser.delivered();
                    S sink = sinkPerChunk.get();
                    JfrReader.parseChunk(w.parser, w.input, source, header, timeHeader, sink);
                    return new Done<>(sink, w.parser.delivered() - before);
                }));
                chunks++;
                if (inFlight.size() >= 2 * threads) {
                    events += deliver(inFlight.poll(), inOrder);
                }
            }
            while (!inFlight.isEmpty()) {
                events += deliver(inFlight.poll(), inOrder);
            }
            return new ReadResult(chunks, events, source.fileSize(), source.bytesLost(), source.lostReason());
        } finally {
            pool.shutdownNow();
        }
    }

    private static <S> long deliver(Future<Done<S>> future, Consumer<S> inOrder) throws IOException {
        Done<S> done = ParseTasks.await(future, "reading chunks");
        inOrder.accept(done.sink());
        return done.events();
    }
}
