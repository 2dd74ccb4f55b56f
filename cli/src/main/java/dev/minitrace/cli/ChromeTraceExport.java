package dev.minitrace.cli;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.views.timeline.Timeline;
import dev.minitrace.views.timeline.TimelineOptions;
import dev.minitrace.views.timeline.TimelineSummary;
import java.io.IOException;
import java.nio.file.Files;

/** {@code --format chrome-trace}: the timeline in the Trace Event Format (Perfetto, chrome://tracing, speedscope). */
final class ChromeTraceExport implements ExportFormat {
    @Override
    public String description() {
        return "chrome-trace: a timeline (Trace Event Format JSON) for Perfetto's UI, chrome://tracing and speedscope; from a .jfr only";
    }

    @Override
    public boolean acceptsLog() {
        return false;
    }

    @Override
    public int export(Request r) throws IOException {
        Timeline.Result result = Timeline.export(r.in(), r.out(), r.conversion(),
                new TimelineOptions(r.from(), r.to(), r.maxEvents(), r.tempDir()), r.source(), r.tempDir(), r.progress());
        TimelineSummary t = result.timeline();
        r.stdout().printf("%s: %d events, %d threads, %d GCs, %d MB%n", r.out(), t.events(), t.threads(), t.gcs(),
                Files.size(r.out()) >> 20);
        if (t.cut()) {
            r.stdout().printf("%s: --max-events %d reached at %.3f s: no slice begins after it (calls open then are whole);"
                    + " %d later records not shown (narrow with --from/--to/--threads, or raise --max-events)%n",
                    r.out(), r.maxEvents(), t.cutAtNanos() / 1e9, t.cutRecords());
        }
        ConversionReport report = result.conversion();
        ConversionRun.warn(r.stderr(), "export", report, r.conversion());
        return report.lostData() ? ExitCodes.PARTIAL : ExitCodes.OK;
    }
}
