package dev.minitrace.views.timeline;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.jfr.RecordingSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Exports a JFR recording as a timeline (the Trace Event Format) through the converter. An
 * {@code .mtlog} has no time per record (only its fragments' GC points have times), so it cannot
 * be a timeline without inventing times: the timeline is made from the recording.
 */
public final class Timeline {
    /** The conversion's report (warnings, lost data) and what the timeline holds. */
    public record Result(ConversionReport conversion, TimelineSummary timeline) {
    }

    private Timeline() {
    }

    /** Converts {@code in} (a JFR recording) to the timeline {@code out}. */
    public static Result export(Path in, Path out, ConvertOptions conversion, TimelineOptions options, RecordingSource source,
            Path tempDir, LongConsumer progress) throws IOException {
        List<ChromeTraceWriter> opened = new ArrayList<>(1);
        ConversionReport report = new Converter(conversion, source, tempDir)
                .convert(in, out, ChromeTraceWriter.factory(out, options, opened), progress);
        return new Result(report, opened.get(0).summary());
    }
}
