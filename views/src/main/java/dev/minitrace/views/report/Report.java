package dev.minitrace.views.report;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.jfr.JvmFacts;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Writes the one-file HTML report of a JFR recording (converted on the fly, with times) or of an
 * {@code .mtlog} (counts only: it has no time per record).
 */
public final class Report {
    /**
     * What was written.
     *
     * @param conversion the conversion's report (null for an {@code .mtlog})
     * @param pageBytes  size of the HTML file
     * @param threads    threads in the report
     * @param records    records aggregated
     * @param warnings   the input's warnings, one line each
     * @param lostData   the input lost data or was truncated
     */
    public record Result(ConversionReport conversion, long pageBytes, int threads, long records, List<String> warnings, boolean lostData) {
    }

    private Report() {
    }

    /** The report of a JFR recording. */
    public static Result ofRecording(Path in, Path out, ConvertOptions options, RecordingSource source, Path tempDir,
            LongConsumer progress) throws IOException {
        return ofRecording(in, out, options, source, tempDir, progress, null);
    }

    /** The report of a JFR recording, with the differential section {@code diff} (views diff/DiffJson; null: none). */
    public static Result ofRecording(Path in, Path out, ConvertOptions options, RecordingSource source, Path tempDir,
            LongConsumer progress, String diff) throws IOException {
        JvmFacts facts = JvmFacts.read(in);
        List<ReportAggregator> opened = new ArrayList<>(1);
        ConversionReport conversion = new Converter(options, source, tempDir).convert(in, out, (start, end) -> {
            ReportAggregator a = new ReportAggregator(start, end, true);
            opened.add(a);
            return a;
        }, progress);
        ReportAggregator agg = opened.get(0);
        ReportContext context = new ReportContext(in.getFileName().toString(), "JFR recording", facts, conversion.warnings(),
                conversion.lostData());
        long bytes = ReportPage.write(agg, context, out, diff);
        return new Result(conversion, bytes, agg.threads.size(), records(agg), conversion.warnings(), conversion.lostData());
    }

    /** The report of an {@code .mtlog} file. */
    public static Result ofLog(Path in, Path out) throws IOException {
        return ofLog(in, out, null);
    }

    /** The report of an {@code .mtlog} file, with the differential section {@code diff} (null: none). */
    public static Result ofLog(Path in, Path out, String diff) throws IOException {
        try (MtlogReader reader = MtlogReader.open(in)) {
            MtlogInfo info = reader.info();
            long end = reader.startNanos() + 1;
            for (MtlogInfo.GcInfo g : info.gcs().values()) {
                end = Math.max(end, g.startNanos() + Math.max(0, g.durationNanos()));
            }
            ReportAggregator agg = new ReportAggregator(reader.startNanos(), end, false);
            MtlogReplay.replay(reader, agg);
            List<String> warnings = new ArrayList<>();
            if (reader.truncated()) {
                warnings.add("the .mtlog is truncated (" + reader.truncation() + "): the complete blocks before the cut are shown");
            }
            if (!reader.hasInfo()) {
                warnings.add("the .mtlog has no INFO block: methods, classes and threads have no names");
            }
            ReportContext context = new ReportContext(in.getFileName().toString(), ".mtlog", JvmFacts.none(
                    "an .mtlog does not keep the JVM's information; a report of the .jfr shows it"), warnings, reader.truncated());
            long bytes = ReportPage.write(agg, context, out, diff);
            return new Result(null, bytes, agg.threads.size(), records(agg), warnings, reader.truncated());
        }
    }

    private static long records(ReportAggregator agg) {
        long n = 0;
        for (long c : agg.countByType) {
            n += c;
        }
        return n;
    }
}
