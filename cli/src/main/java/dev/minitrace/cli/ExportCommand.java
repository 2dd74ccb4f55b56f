package dev.minitrace.cli;

import dev.minitrace.query.export.RecordingFacts;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.FragmentPolicy;
import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.TimeBound;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.views.timeline.TimelineOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt export --format FORMAT IN OUT}: writes a trace in another format ({@link ExportFormats}). */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, abbreviateSynopsis = true,
        description = {"Exports a trace in a format other tools open (--format lists them). IN is a JFR recording, converted on"
                + " the fly; OUT is written to a temporary file next to it and renamed when complete.",
            "",
            "chrome-trace: the Trace Event Format (JSON). One track per thread, named like",
            "the thread; calls and monitor holds as nested slices, allocations as instants,",
            "GCs and fragment points on the GC track. Open OUT in ui.perfetto.dev,",
            "chrome://tracing or speedscope. Times have the agent's tick resolution",
            "(docs/views.md).",
            "",
            "parquet: the tables of docs/query.md (records, calls, locks, threads, classes,",
            "methods, gcs, fields, recording), zstd, in folder OUT, partitioned by",
            "recording: the exports of many JVMs can share OUT, and exporting a recording",
            "again replaces its tables. IN may also be an .mtlog. Query them with",
            "mt query OUT, DuckDB or Spark.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:exported (warnings go to stderr)",
            "1:failed: IN is not a recording the format can take, is unreadable, or OUT cannot be written",
            "2:bad command line (unknown format or option, bad value, OUT is IN)",
            "3:IN was truncated or lost data; everything complete was exported",
        })
public final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", required = true, completionCandidates = ExportFormats.class,
            description = "The output format: ${COMPLETION-CANDIDATES}.")
    String format;

    @Parameters(index = "0", paramLabel = "IN", description = "The JFR recording or a JFR repository folder (parquet: or an .mtlog).")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "The file to write (parquet: a folder, created when missing).")
    Path out;

    @Option(names = "--host", paramLabel = "NAME",
            description = "parquet: the host the recording was made on, for the recording table (default: this machine's name;"
                    + " JFR records none).")
    String host;

    @Mixin
    WindowOptions window;

    @Option(names = "--no-alloc", description = "Leave out the allocations.")
    boolean noAlloc;

    @Option(names = "--events", paramLabel = "KINDS", defaultValue = "method,lock,alloc,gc,exception,field,death,receiver",
            description = "The record kinds to keep, a subset of method,lock,alloc,gc,exception,field,death,receiver (default: all).")
    String events;

    @Option(names = "--fragments", paramLabel = "moving|all|none", defaultValue = "moving",
            description = "Which GCs start a fragment: those that can move objects (default), every GC, or none.")
    String fragments;

    @Option(names = "--max-events", paramLabel = "N", defaultValue = "" + TimelineOptions.DEFAULT_MAX_EVENTS,
            description = "chrome-trace: once N events are written no slice begins (open calls still end, so calls stay whole);"
                    + " default ${DEFAULT-VALUE}, about what speedscope and chrome://tracing open.")
    long maxEvents;

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
        ExportFormat f = ExportFormats.byName(format);
        if (f == null) {
            throw new CliException("unknown format '" + format + "' (expected one of " + String.join(", ", ExportFormats.all().keySet())
                    + ")", ExitCodes.USAGE);
        }
        ConvertOptions options = options();
        TimeBound fromBound = options.from();
        TimeBound toBound = options.to();
        if (maxEvents < 1) {
            throw new CliException("--max-events must be at least 1, not " + maxEvents, ExitCodes.USAGE);
        }
        RecordingSource source = engine.source();
        memory.bytes();
        if (f.writesFolder()) {
            checkFolder();
        } else {
            ConversionRun.checkPaths(in, out, "a recording");
        }
        ConversionRun.checkTempDir(tempDir);
        try (RecordingInput input = RecordingInput.open(in, tempDir, out)) {
            int status = export(f, input, options, fromBound, toBound, source, err);
            return status == ExitCodes.OK && input.lostData() ? ExitCodes.PARTIAL : status;
        }
    }

    private int export(ExportFormat f, RecordingInput input, ConvertOptions options, TimeBound fromBound, TimeBound toBound,
            RecordingSource source, PrintWriter err) {
        Path in = input.path();
        InputKind kind;
        try {
            kind = InputKind.of(in);
        } catch (IOException e) {
            throw new CliException("cannot read " + this.in + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        if (kind == InputKind.MTLOG && !f.acceptsLog()) {
            throw new CliException(this.in + " is an .mtlog, which has no time per record: " + format
                    + " needs the JFR recording it was converted from (docs/views.md)", ExitCodes.FAILED);
        }
        if (kind == InputKind.MTLOG && !options.equals(ConvertOptions.defaults())) {
            throw new CliException("--threads, --events, --from, --to, --fragments and --no-alloc apply to a JFR recording; " + this.in
                    + " is an .mtlog, exported whole", ExitCodes.USAGE);
        }
        if (kind == InputKind.OTHER) {
            throw new CliException(this.in + ": not a JFR recording" + (f.acceptsLog() ? " or an .mtlog file" : ""), ExitCodes.FAILED);
        }
        int status;
        try (Progress progress = Progress.forInput(in, "export")) {
            status = f.export(new ExportFormat.Request(in, kind == InputKind.MTLOG, out, options, fromBound, toBound, maxEvents, source,
                    tempDir, progress, host != null ? host : RecordingFacts.localHost(), spec.commandLine().getOut(), err));
        } catch (IOException | OutOfMemoryError e) {
            throw ConversionRun.failure(e, "export", this.in, out, memory.text);
        }
        input.report(err, "export", -1);
        spec.commandLine().getOut().flush();
        err.flush();
        return status;
    }

    /** OUT of a format that writes a folder: not IN, and a folder or nothing yet in an existing folder. */
    private void checkFolder() {
        if (!Files.exists(in)) {
            throw new CliException(in + ": no such file", ExitCodes.FAILED);
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CliException("cannot write " + out + ": not a folder (" + format + " writes a folder of tables)", ExitCodes.FAILED);
        }
        Path dir = out.toAbsolutePath().getParent();
        if (!Files.exists(out) && (dir == null || !Files.isDirectory(dir))) {
            throw new CliException("cannot write " + out + ": no such directory " + dir, ExitCodes.FAILED);
        }
    }

    private ConvertOptions options() {
        try {
            int mask = ConvertOptions.parseEvents(events);
            if (noAlloc) {
                mask &= ~(1 << MtlogFormat.OBJECT_ALLOC);
            }
            return new ConvertOptions(false, FragmentPolicy.parse(fragments), window.from(), window.to(), window.threads(), mask);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
