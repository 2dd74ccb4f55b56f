package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.views.diff.CountedTrace;
import dev.minitrace.views.diff.DiffBy;
import dev.minitrace.views.diff.DiffJson;
import dev.minitrace.views.diff.TraceCounts;
import dev.minitrace.views.diff.TraceDiff;
import dev.minitrace.views.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.BiPredicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt report IN OUT.html}: a self-contained HTML report of a recording or an {@code .mtlog}. */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Writes a one-file HTML report that opens offline in any browser: flame graphs (merged and per thread,"
                + " by calls or by time, with search and zoom), the threads over time with GCs and fragment points, top"
                + " methods, allocation sites and classes, monitors, exceptions, and the recording's facts and warnings.",
            "",
            "IN is a JFR recording (converted on the fly) or an .mtlog (counts only: an",
            ".mtlog has no time per record).",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:written (warnings go to stderr and into the page)",
            "1:failed: IN is not a JFR recording or an .mtlog, is unreadable, or OUT cannot be written",
            "2:bad command line",
            "3:IN was truncated or lost data; the report shows everything complete",
        })
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "The JFR recording (or a JFR repository folder) or .mtlog file.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT.html", description = "The page to write.")
    Path out;

    @Option(names = "--baseline", paramLabel = "BASE",
            description = "Adds the changes from BASE (a recording, an .mtlog or an exported folder, as for mt diff): a"
                    + " differential flame graph of the call paths of both (red: called more now, blue: less, hatched: removed)"
                    + " and the methods, allocations, monitors and exceptions whose counts changed.")
    Path baseline;

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "Where records that wait go (default: OUT's folder). The files are removed whatever happens.")
    Path tempDir;

    @Mixin
    MemoryOption memory;

    @Mixin
    EngineOption engine;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        RecordingSource source = engine.source();
        memory.bytes();
        ConversionRun.checkPaths(in, out, "a recording or an .mtlog");
        ConversionRun.checkTempDir(tempDir);
        String diff = baseline == null ? null : diff(source, err);
        Report.Result r;
        boolean recoveryLost;
        try (RecordingInput input = RecordingInput.open(in, tempDir, out);
                Progress progress = Progress.forInput(input.path(), "report")) {
            InputKind kind = InputKind.of(input.path());
            r = switch (kind) {
                case JFR -> Report.ofRecording(input.path(), out, ConvertOptions.defaults(), source, tempDir, progress, diff);
                case MTLOG -> Report.ofLog(in, out, diff);
                case OTHER -> throw new CliException(in + ": not a JFR recording or an .mtlog file", ExitCodes.FAILED);
            };
            input.report(err, "report", r.threads());
            recoveryLost = input.lostData();
        } catch (IOException | OutOfMemoryError e) {
            throw ConversionRun.failure(e, "report", in, out, memory.text);
        }
        for (String w : r.warnings()) {
            err.println("report: warning: " + w);
        }
        spec.commandLine().getOut().printf("%s: %d records, %d threads, %d KB%n", out, r.records(), r.threads(), r.pageBytes() >> 10);
        spec.commandLine().getOut().flush();
        err.flush();
        return r.lostData() || recoveryLost || baselineLost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }

    private boolean baselineLost;

    /** The differential section's data: BASE and IN counted as mt diff counts them (IN read once more for it). */
    private String diff(RecordingSource source, PrintWriter err) {
        long memoryBytes = memory.bytes();
        CountedTrace[] sides = new CountedTrace[2];
        Path[] inputs = {baseline, in};
        for (int i = 0; i < 2; i++) {
            sides[i] = TraceCounting.count("report", inputs[i], null, DIFF_DEPTH, source, memoryBytes, tempDir, memory.toString(), err);
            for (String w : sides[i].warnings()) {
                if (i == 0) {
                    err.println("report: warning: " + inputs[i] + ": " + w); // IN's own warnings come with its report
                }
            }
            baselineLost |= i == 0 && sides[i].lostData();
        }
        TraceCounts base = sides[0].counts();
        TraceCounts next = sides[1].counts();
        BiPredicate<String, String> all = (c, m) -> true;
        return DiffJson.write(baseline.getFileName().toString(), in.getFileName().toString(), TraceDiff.of(DiffBy.PATH, base, next, all),
                TraceDiff.of(DiffBy.METHOD, base, next, all), TraceDiff.of(DiffBy.ALLOC, base, next, all),
                TraceDiff.of(DiffBy.LOCK, base, next, all), TraceDiff.of(DiffBy.EXCEPTION, base, next, all));
    }

    /** The call paths the differential flame graph shows: deeper calls are in their ancestors' frames. */
    static final int DIFF_DEPTH = 64;
}
