package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.views.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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
        Report.Result r;
        boolean recoveryLost;
        try (RecordingInput input = RecordingInput.open(in, tempDir, out);
                Progress progress = Progress.forInput(input.path(), "report")) {
            InputKind kind = InputKind.of(input.path());
            r = switch (kind) {
                case JFR -> Report.ofRecording(input.path(), out, ConvertOptions.defaults(), source, tempDir, progress);
                case MTLOG -> Report.ofLog(in, out);
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
        return r.lostData() || recoveryLost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }
}
