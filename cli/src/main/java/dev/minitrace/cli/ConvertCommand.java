package dev.minitrace.cli;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.FragmentPolicy;
import dev.minitrace.converter.jfr.RecordingSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mt convert IN.jfr OUT.mtlog}: converts a JFR recording to MiniTracing's {@code .mtlog}. */
@Command(name = "convert", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, abbreviateSynopsis = true,
        description = {"Converts a JFR recording to MiniTracing's fragmented binary log (.mtlog).",
            "OUT is written to a temporary file next to it and renamed when complete;",
            "IN may be a JFR repository folder; a chunk the JVM never finished (it died)",
            "is read up to its last complete flush segment (docs/recovery.md);",
            "an existing OUT is replaced."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:converted (warnings, e.g. no minitrace events, go to stderr)",
            "1:failed: IN is not a JFR recording, is empty, unreadable, or OUT cannot be written",
            "2:bad command line (unknown option, bad value, OUT is IN)",
            "3:IN was truncated or lost data (e.g. a recovered repository of a JVM that died); everything complete was converted and OUT written",
        })
public final class ConvertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN.jfr", description = "The JFR recording, or a JFR repository folder (the chunk files a JVM left, e.g. after a crash).")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT.mtlog", description = "The log to write (a folder for --format et).")
    Path out;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "mtlog", completionCandidates = ConvertFormats.class,
            description = "mtlog (default) or et: Elephant Tracks' trace and names files in the folder OUT (docs/elephant-tracks.md).")
    String format;

    @Option(names = "--layout", paramLabel = "thread|global", defaultValue = "thread",
            description = "thread: one stream per thread, aux = bytecode index (default); global: one stream, aux = thread id.")
    String layout;

    @Option(names = "--fragments", paramLabel = "moving|all|none", defaultValue = "moving",
            description = "Which GCs start a fragment: those that can move objects (default), every GC, or none.")
    String fragments;

    @Mixin
    WindowOptions window;

    @Option(names = "--events", paramLabel = "KINDS", defaultValue = "method,lock,alloc,gc,exception,field,death,receiver",
            description = "The record kinds to write, a subset of method,lock,alloc,gc,exception,field,death,receiver (default: all).")
    String events;

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "Where records that wait for a late buffer or for memory go (default: OUT's folder). The file is removed whatever happens.")
    Path tempDir;

    @Mixin
    MemoryOption memory;

    @Mixin
    EngineOption engine;

    /** The name its messages start with ({@code mt recover} runs this command under its own). */
    String name = "convert";

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ConvertOptions options = options();
        RecordingSource source = engine.source();
        memory.bytes();
        ConvertFormats.Format f = ConvertFormats.byName(format);
        if (f == null) {
            throw new CliException("unknown format '" + format + "' (expected " + String.join(" or ", ConvertFormats.all().keySet()) + ")",
                    ExitCodes.USAGE);
        }
        if (f.folder()) {
            if (Files.exists(out) && !Files.isDirectory(out)) {
                throw new CliException("cannot write " + out + ": not a directory (--format " + format + " writes a folder)", ExitCodes.FAILED);
            }
            Path parent = out.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new CliException("cannot write " + out + ": no such directory " + parent, ExitCodes.FAILED);
            }
            try {
                Files.createDirectories(out);
            } catch (java.io.IOException e) {
                throw new CliException("cannot write " + out + ": " + e.getMessage(), ExitCodes.FAILED);
            }
            ConversionRun.checkPaths(in, out.resolve("trace"), "a JFR recording");
        } else {
            ConversionRun.checkPaths(in, out, "a JFR recording");
        }
        ConversionRun.checkTempDir(tempDir);
        ConversionReport report;
        boolean recoveryLost;
        try (RecordingInput input = RecordingInput.open(in, tempDir, out, true);
                Progress progress = Progress.forInput(input.path(), name)) {
            report = new Converter(options, source, tempDir).convert(input.path(), f.folder() ? out.resolve("trace") : out,
                    f.writers().apply(out, options), progress);
            input.report(err, name, report.threads());
            recoveryLost = input.lostData();
        } catch (IOException | OutOfMemoryError e) {
            throw ConversionRun.failure(e, name, in, out, memory.text);
        }
        ConversionRun.warn(err, name, report, options);
        String waits = report.spilledRecords() == 0 ? ""
                : String.format(", %d records waited on disk (%d MB)", report.spilledRecords(), report.spilledBytes() >> 20);
        if (report.reorderedRecords() > 0) {
            waits += String.format(", %d records put back in order%s", report.reorderedRecords(),
                    report.reorderFileBytes() == 0 ? "" : String.format(" (%d MB through disk)", report.reorderFileBytes() >> 20));
        }
        spec.commandLine().getOut().printf("%s: %d records, %d threads, %d GCs, %d chunks%s%n", out, report.records(),
                report.threads(), report.gcs(), report.chunks(), waits);
        spec.commandLine().getOut().flush();
        err.flush();
        return report.lostData() || recoveryLost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }

    /**
     * Runs {@code mt convert ARGS} for another command ({@code mt recover}, {@code mt run}) under
     * its name, on its output streams: picocli parses the arguments, so a default added to convert
     * (a format, an event kind) reaches those commands too.
     */
    static int withDefaults(CommandSpec spec, String name, List<String> args) {
        ConvertCommand convert = new ConvertCommand();
        new CommandLine(convert).parseArgs(args.toArray(new String[0]));
        convert.spec = spec;
        convert.name = name;
        return convert.call();
    }

    private ConvertOptions options() {
        try {
            boolean global = switch (layout) {
                case "thread" -> false;
                case "global" -> true;
                default -> throw new IllegalArgumentException("unknown layout '" + layout + "' (expected thread or global)");
            };
            return new ConvertOptions(global, FragmentPolicy.parse(fragments), window.from(), window.to(), window.threads(),
                    ConvertOptions.parseEvents(events));
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
    }

}
