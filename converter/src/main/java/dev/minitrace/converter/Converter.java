package dev.minitrace.converter;

import dev.minitrace.converter.jfr.BufferReorder;
import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.recovery.RecordingRepository;
import dev.minitrace.converter.recovery.Recovery;
import dev.minitrace.converter.write.MtlogGlobalLayout;
import dev.minitrace.converter.write.MtlogThreadLayout;
import dev.minitrace.converter.write.TraceWriter;
import dev.minitrace.converter.write.TraceWriterFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Converts a JFR recording (a file, or a repository folder of finished chunks) to an {@code .mtlog} file, or to what another {@link TraceWriter} makes
 * ({@link #convert(Path, Path, TraceWriterFactory, LongConsumer)}): splits the file into chunks, lets a
 * {@link RecordingSource} engine deliver them to a {@link RecordingCollector}, whose
 * {@link OrderingPipeline} puts each thread's records in exact order and hands them to a
 * {@link TraceWriter}, which only replaces the output once the file is complete. Problems in the input become warnings in the {@link ConversionReport};
 * only input that yields nothing at all is an exception.
 */
public final class Converter {
    private final ConvertOptions options;
    private final RecordingSource source;
    private final Path tempDir;

    /** A converter with the given options and engine; records that must wait on disk go beside the output. */
    public Converter(ConvertOptions options, RecordingSource source) {
        this(options, source, null);
    }

    /** As {@link #Converter(ConvertOptions, RecordingSource)}, with waiting records in {@code tempDir} (null: beside the output). */
    public Converter(ConvertOptions options, RecordingSource source, Path tempDir) {
        this.options = options;
        this.source = source;
        this.tempDir = tempDir;
    }

    /**
     * Converts {@code in} to {@code out}.
     *
     * @param progress receives the input offset reached after each chunk, or null
     * @throws JfrInputException when {@code in} is not a JFR recording or has no complete chunk
     */
    public ConversionReport convert(Path in, Path out, LongConsumer progress) throws IOException {
        return convert(in, out, (start, end) -> options.globalLayout() ? new MtlogGlobalLayout(out, start)
                : new MtlogThreadLayout(out, start), progress);
    }

    /**
     * Converts {@code in} for the writer {@code writers} opens; {@code out} is the writer's output,
     * beside which records that must wait on disk go (unless a temporary folder was given).
     * {@link ConvertOptions#globalLayout()} is not used: the writer chooses its order.
     *
     * @param progress receives the input offset reached after each chunk, or null
     * @throws JfrInputException when {@code in} is not a JFR recording or has no complete chunk
     */
    public ConversionReport convert(Path in, Path out, TraceWriterFactory writers, LongConsumer progress) throws IOException {
        JfrChunks chunks = JfrChunks.scan(files(in));
        if (chunks.chunks().isEmpty()) {
            throw new JfrInputException("truncated before the end of its first chunk (" + chunks.tailProblem()
                    + "): nothing to convert");
        }
        long start = chunks.startNanos();
        long from = options.from() == null ? Long.MIN_VALUE : options.from().resolve(start);
        long to = options.to() == null ? Long.MAX_VALUE : options.to().resolve(start);
        ConversionReport report = new ConversionReport();
        GcTable gcs = new GcTable(options.fragments());
        MtlogInfo info = new MtlogInfo();
        List<RecordingSource.ChunkFailure> failures;
        Path dir = tempDir != null ? tempDir : out.toAbsolutePath().getParent();
        List<JfrChunk> read = chunks.chunks();
        try (TraceWriter writer = writers.open(start, read.get(read.size() - 1).endNanos())) {
            RecordEmitter emitter = RecordEmitter.forWriter(writer, from, to, options.typeMask());
            MemoryMeter meter = new MemoryMeter();
            ThreadTable table = new ThreadTable(options.threads(), meter);
            SequenceAudit audit = new SequenceAudit();
            // Test switches (docs/cli.md): a small bound to make small recordings spill, and the
            // serial writer to compare with the writer thread.
            long maxPending = Long.getLong("minitrace.maxPendingEvents", Long.MAX_VALUE);
            // The pipeline writes on a thread of its own: closing it waits for that before the writer closes.
            try (OrderingPipeline pipeline = new OrderingPipeline(table, emitter, gcs, audit,
                    writer.order() == TraceWriter.Order.TIME, meter, slotBudget(writer.heapBytes()), maxPending,
                    !Boolean.getBoolean("minitrace.serialWrite"),
                    dir, out.getFileName().toString())) {
                RecordingCollector collector = new RecordingCollector(table, gcs, pipeline, emitter, progress, report);
                // the engine reads on this thread, the collector and pipeline order on another
                try (HandOffSink handOff = new HandOffSink(collector)) {
                    failures = source.read(chunks, handOff, new BufferReorder.Room(dir, out.getFileName().toString(),
                            Long.getLong("minitrace.reorderMemoryBytes", REORDER_MEMORY_BYTES)));
                    handOff.finish();
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                collector.finish(info, audit);
            }
            long total = 0;
            for (long c : report.countByType) {
                total += c;
            }
            report.records = total;
            writer.finish(info);
            for (RecordingSource.ChunkFailure f : failures) {
                report.warnings.add("chunk " + f.chunk().index() + " at offset " + f.chunk().offset() + " ("
                        + f.chunk().size() + " bytes) could not be read and was skipped: " + f.reason());
                report.lostData = true;
            }
            if (chunks.lostTail() > 0) {
                report.warnings.add(0, "truncated recording: " + chunks.chunks().size() + " complete chunk(s) converted, the last "
                        + chunks.lostTail() + " bytes lost (" + chunks.tailProblem() + ")");
                report.lostData = true;
            }
            if (report.minitraceEvents == 0 && report.methodTraceEvents == 0 && report.unselectedEvents > 0) {
                // Not a warning of the library: only the caller knows how the selection was given.
                report.selectedNoThread = true;
            } else if (report.minitraceEvents == 0 && report.methodTraceEvents == 0) {
                report.warnings.add(report.gcs == 0 ? "the recording has no minitrace, jdk.MethodTrace or GC events"
                        : "the recording has no minitrace or jdk.MethodTrace events (only GCs)");
            }
        }
        return report;
    }

    /**
     * The files of recording {@code in}: itself, or the chunk files of a JFR repository folder in
     * the order the JVM wrote them, read in place as one recording. A folder whose last chunk the
     * JVM never finished needs {@link Recovery} first ({@link Recovery#needed}).
     */
    static List<Path> files(Path in) throws IOException {
        if (!Files.isDirectory(in)) {
            return List.of(in);
        }
        List<Path> files = RecordingRepository.chunkFiles(in);
        if (files.isEmpty()) {
            throw new JfrInputException(Recovery.NO_CHUNK_FILES);
        }
        return files;
    }

    /**
     * Heap kept for everything but the waiting records' columns: the engine's 1 MB read window,
     * its two windows on pooled text (up to 1 MB each) and constant pools, the hand-over's batches
     * (about 5.4 MB, {@link HandOffSink}), the id tables, the writer's buffers (16 MB for an
     * {@code .mtlog}; a writer that needs more says so, {@link TraceWriter#heapBytes}), merge
     * blocks and spill cursors, and the 64 MB of {@link #REORDER_MEMORY_BYTES}.
     */
    static final long FIXED_HEAP_BYTES = 152L << 20;

    /**
     * Packed buffer events that wait in memory for an earlier one of their thread before the rest
     * go to a scratch file ({@link BufferReorder}); within the fixed share. Sized for JDK 17
     * recordings, where a thread's events reach the file millions of records out of order within a
     * chunk: taken from the waiting records' columns, which the early writing keeps small
     * (docs/decisions.md, "Buffer events put in their thread's order before decoding").
     */
    static final long REORDER_MEMORY_BYTES = 64L << 20;

    /**
     * The column bytes the waiting records' buffers may hold before they are written early or
     * spilled: 3/5 of what the heap has beside the fixed share. The rest is for a buffer that grows
     * (its old and new columns for a moment; no buffer may pass a third of the budget, see
     * {@link OrderingPipeline}, so that is at most half the budget more) and for sorting one. The
     * global layout holds about two chunks: 156 MB of columns for the standard bench recording.
     */
    static long slotBudget(long writerHeapBytes) {
        long fixed = FIXED_HEAP_BYTES + Math.max(0, writerHeapBytes - TraceWriter.DEFAULT_HEAP_BYTES);
        long free = Runtime.getRuntime().maxMemory() - fixed;
        return Math.max(4L << 20, free / 5 * 3);
    }
}
