package dev.minitrace.query.export;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.jfr.FastRecordingSource;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.query.TraceInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Exports a trace to Parquet tables: a JFR recording through the converter (streaming, in bounded
 * memory, each thread's records in exact order), or an {@code .mtlog} by replaying it.
 */
public final class TraceExporter {
    /**
     * What an export did.
     *
     * @param recordingId the {@code recording} partition value of the new tables
     * @param warnings    problems of the input, one line each
     * @param lostData    true when the input was truncated or lost data (the tables hold what was left)
     * @param rows        the rows of {@code records}, {@code calls} and {@code locks}
     */
    public record Result(String recordingId, List<String> warnings, boolean lostData, long[] rows) {
    }

    private TraceExporter() {
    }

    /**
     * Exports {@code in} into folder {@code out}.
     *
     * @param options  what to keep of a JFR recording (an {@code .mtlog} is exported whole)
     * @param host     the {@code host} of the {@code recording} table
     * @param tempDir  where records that wait go, or null for beside {@code out}
     * @param progress receives the input offset after each chunk of a JFR recording, or null
     */
    public static Result export(Path in, Path out, ConvertOptions options, String host, Path tempDir, LongConsumer progress)
            throws IOException {
        TraceInput kind = TraceInput.of(in);
        switch (kind) {
            case JFR -> {
                Converter converter = new Converter(options, new FastRecordingSource(), tempDir);
                ParquetExport[] export = new ParquetExport[1];
                ConversionReport report = converter.convert(in, out, (start, end) -> {
                    export[0] = new ParquetExport(out, RecordingFacts.ofJfr(in, start, host));
                    return export[0];
                }, progress);
                return new Result(export[0].recordingId(), report.warnings(), report.lostData(), export[0].rows());
            }
            case MTLOG -> {
                try (MtlogReader log = MtlogReader.open(in);
                        ParquetExport e = new ParquetExport(out, RecordingFacts.ofMtlog(in, log.startNanos(), host))) {
                    List<String> warnings = new ArrayList<>();
                    if (log.truncated()) {
                        warnings.add(in + " is truncated (" + log.truncation() + "): the complete blocks before the cut are exported");
                    }
                    MtlogSource.replay(log, e);
                    return new Result(e.recordingId(), warnings, log.truncated(), e.rows());
                }
            }
            default -> throw new IOException(in + ": already a folder of exported tables");
        }
    }
}
