package dev.minitrace.converter;

import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Converts a JFR recording to an {@code .mtlog} file: splits the file into chunks, lets a
 * {@link RecordingSource} engine deliver them to a {@link ConversionSink}, and writes the result
 * with an {@link dev.minitrace.converter.mtlog.MtlogWriter}, which only replaces the output once
 * the file is complete. Problems in the input become warnings in the {@link ConversionReport};
 * only input that yields nothing at all is an exception.
 */
public final class Converter {
    private final ConvertOptions options;
    private final RecordingSource source;

    /** A converter with the given options and engine. */
    public Converter(ConvertOptions options, RecordingSource source) {
        this.options = options;
        this.source = source;
    }

    /**
     * Converts {@code in} to {@code out}.
     *
     * @param progress receives the input offset reached after each chunk, or null
     * @throws JfrInputException when {@code in} is not a JFR recording or has no complete chunk
     */
    public ConversionReport convert(Path in, Path out, LongConsumer progress) throws IOException {
        JfrChunks chunks = JfrChunks.scan(in);
        if (chunks.chunks().isEmpty()) {
            throw new JfrInputException("truncated before the end of its first chunk (" + chunks.tailProblem()
                    + "): nothing to convert");
        }
        long start = chunks.startNanos();
        long from = options.from() == null ? Long.MIN_VALUE : options.from().resolve(start);
        long to = options.to() == null ? Long.MAX_VALUE : options.to().resolve(start);
        ConversionReport report = new ConversionReport();
        GcTable gcs = new GcTable(options.fragments());
        int flags = options.globalLayout() ? MtlogFormat.LAYOUT_GLOBAL : MtlogFormat.LAYOUT_THREAD;
        try (MtlogWriter writer = new MtlogWriter(out, flags, start)) {
            RecordEmitter emitter = options.globalLayout()
                    ? new GlobalLayoutEmitter(writer, gcs, from, to, options.typeMask())
                    : new ThreadLayoutEmitter(writer, gcs, from, to, options.typeMask());
            List<RecordingSource.ChunkFailure> failures;
            MtlogInfo info = new MtlogInfo();
            // The sink writes on a thread of its own: closing it waits for that before the writer closes.
            try (ConversionSink sink = new ConversionSink(options, emitter, gcs, progress, report)) {
                try {
                    failures = source.read(chunks, sink);
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                sink.finish(info);
            }
            report.records = writer.recordCount();
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
                report.warnings.add("--threads " + String.join(",", new java.util.TreeSet<>(options.threads()))
                        + " selects none of the traced threads (" + report.unselectedEvents + " events of other threads skipped)");
            } else if (report.minitraceEvents == 0 && report.methodTraceEvents == 0) {
                report.warnings.add(report.gcs == 0 ? "the recording has no minitrace, jdk.MethodTrace or GC events"
                        : "the recording has no minitrace or jdk.MethodTrace events (only GCs)");
            }
        }
        return report;
    }
}
