package dev.minitrace.cli;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.MtlogSummary;
import dev.minitrace.converter.capture.CaptureSummary;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt summary FILE}: counts per record type, thread and fragment, and the top methods,
 * allocated classes and monitors, of an {@code .mtlog} or (converted on the fly with the default
 * options) a {@code .jfr}; for a {@code .jfr} also the argument captures per method. The kind of
 * file is told by its first bytes, not its name.
 */
@Command(name = "summary", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Summarizes an .mtlog file or a .jfr recording: counts per record type, thread and fragment; top methods, allocated classes and monitors; for a .jfr also the argument captures (minitrace.MethodCapture) per method."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:summarized", "1:not a readable .mtlog or JFR file", "2:bad command line",
            "3:the input is truncated or lost data; what was complete is summarized"})
public final class SummaryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "An .mtlog file, a JFR recording (.jfr) or a JFR repository folder.")
    Path file;

    @Option(names = "--top", defaultValue = "10", description = "How many top methods, classes and monitors to list (default 10).")
    int top;

    @Mixin
    EngineOption engine;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (Files.isDirectory(file) || InputKind.of(file) == InputKind.JFR) {
                RecordingSource source = engine.source();
                Path dir = Files.createTempDirectory("minitrace-summary-");
                Path log = dir.resolve("summary.mtlog");
                // removed on Ctrl-C too (deleteOnExit deletes in reverse order: the log, then its folder)
                dir.toFile().deleteOnExit();
                log.toFile().deleteOnExit();
                try (RecordingInput input = RecordingInput.open(file, dir, log)) {
                    ConversionReport report = new Converter(ConvertOptions.defaults(), source)
                            .convert(input.path(), log, null);
                    input.report(err, "summary", report.threads());
                    for (String w : report.warnings()) {
                        err.println("summary: warning: " + w);
                    }
                    int status = summarize(log, out, err);
                    if (input.lostData()) {
                        status = ExitCodes.PARTIAL;
                    }
                    CaptureSummary captures = CaptureSummary.of(input.path());
                    captures.print(out, top);
                    if (captures.problem() != null && captures.captures() > 0) {
                        err.println("summary: warning: captures read up to an unreadable part: " + captures.problem());
                    }
                    return report.lostData() ? ExitCodes.PARTIAL : status;
                } finally {
                    Files.deleteIfExists(log);
                    Files.deleteIfExists(dir);
                }
            }
            try {
                return summarize(file, out, err);
            } catch (IOException e) {
                if (e instanceof NoSuchFileException || InputKind.of(file) != InputKind.OTHER) {
                    throw e;
                }
                // summary takes both formats: naming only .mtlog would mislead about a broken .jfr
                throw new CliException(file + ": neither an .mtlog file nor a JFR recording"
                        + (Files.size(file) == 0 ? " (empty file)" : ""));
            }
        } catch (NoSuchFileException e) {
            throw new CliException(file + ": no such file");
        } catch (JfrInputException e) {
            throw new CliException(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw new CliException(file + ": " + e.getMessage());
        } finally {
            err.flush();
        }
    }

    private int summarize(Path log, PrintWriter out, PrintWriter err) throws IOException {
        try (MtlogReader r = MtlogReader.open(log)) {
            MtlogSummary.of(r).print(out, top);
            if (r.truncated()) {
                err.println("summary: warning: " + file + " is truncated: " + r.truncation());
                return ExitCodes.PARTIAL;
            }
            return ExitCodes.OK;
        }
    }
}
