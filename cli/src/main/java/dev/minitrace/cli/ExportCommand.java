package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.FragmentPolicy;
import dev.minitrace.converter.TimeBound;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.query.TraceInput;
import dev.minitrace.query.export.RecordingFacts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt export --format FORMAT IN OUT}: writes a trace in another format. The formats are a
 * registry ({@link #FORMATS}): each is one {@link ExportFormat} class, added here in one line.
 */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, abbreviateSynopsis = true,
        description = {"Exports a trace (a JFR recording or an .mtlog) in the format --format names.",
            "",
            "parquet: the tables of docs/query.md (records, calls, locks, threads, classes,",
            "methods, gcs, fields, recording), zstd, in folder OUT, partitioned by",
            "recording: the exports of many JVMs can share OUT, and exporting a recording",
            "again replaces its tables. Query them with mt query OUT, DuckDB or Spark.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:exported (warnings go to stderr)",
            "1:failed: IN is not a trace, is unreadable, or OUT cannot be written",
            "2:bad command line (unknown format or option, bad value)",
            "3:IN was truncated or lost data; everything complete was exported",
        })
public final class ExportCommand implements Callable<Integer> {
    /** The formats by name; a new format is one line here. */
    static final Map<String, ExportFormat> FORMATS = new LinkedHashMap<>();

    static {
        register(new ParquetFormat());
    }

    private static void register(ExportFormat f) {
        FORMATS.put(f.name(), f);
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "The trace: a JFR recording (.jfr) or an .mtlog.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "Where to write (for parquet: a folder, created when missing).")
    Path out;

    @Option(names = "--format", required = true, paramLabel = "FORMAT", description = "The output format: parquet.")
    String format;

    @Option(names = "--host", paramLabel = "NAME",
            description = "The host the recording was made on, for the recording table (default: this machine's name; JFR records none).")
    String host;

    @Option(names = "--fragments", paramLabel = "moving|all|none", defaultValue = "moving",
            description = "JFR input: which GCs start a fragment: those that can move objects (default), every GC, or none.")
    String fragments;

    @Option(names = "--from", paramLabel = "TIME",
            description = "JFR input: start of the time window, an ISO instant or a duration after the recording's start (5s, 250ms).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "JFR input: end of the time window (exclusive), as --from.")
    String to;

    @Option(names = "--threads", paramLabel = "NAME|ID", split = ",",
            description = "JFR input: only these threads: names, JFR thread ids or Java thread ids, comma-separated.")
    List<String> threads;

    @Option(names = "--events", paramLabel = "KINDS", defaultValue = "method,lock,alloc,gc",
            description = "JFR input: the record kinds to keep, a subset of method,lock,alloc,gc (default: all).")
    String events;

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "Where records that wait for a late buffer or for memory go (default: OUT's folder).")
    Path tempDir;

    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "512m",
            description = "Memory the whole export may use, e.g. 512m or 4g (default 512m): bin/mt sizes the JVM to it.")
    String memory;

    @Override
    public Integer call() {
        ExportFormat f = FORMATS.get(format);
        if (f == null) {
            throw new CliException("unknown format '" + format + "' (available: " + String.join(", ", FORMATS.keySet()) + ")",
                    ExitCodes.USAGE);
        }
        MemorySize.parse(memory);
        ConvertOptions options = options();
        if (tempDir != null && !Files.isDirectory(tempDir)) {
            throw new CliException("--temp-dir " + tempDir + ": no such directory", ExitCodes.USAGE);
        }
        TraceInput kind;
        try {
            kind = TraceInput.of(in);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
        if (kind == TraceInput.EXPORT) {
            throw new CliException(in + ": already a folder of exported tables", ExitCodes.FAILED);
        }
        if (kind == TraceInput.MTLOG && !options.equals(ConvertOptions.defaults())) {
            throw new CliException("--threads, --events, --from, --to and --fragments apply to a JFR recording; " + in
                    + " is an .mtlog, exported whole", ExitCodes.USAGE);
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        int status;
        try {
            status = f.export(new ExportFormat.Request(in, out, options, host != null ? host : RecordingFacts.localHost(), tempDir),
                    stdout, err);
        } catch (JfrInputException e) {
            throw new CliException(in + ": " + e.getMessage(), ExitCodes.FAILED);
        } catch (AccessDeniedException e) {
            throw new CliException("cannot write " + out + ": permission denied", ExitCodes.FAILED);
        } catch (NoSuchFileException e) {
            throw new CliException("cannot export " + in + ": no such file or directory " + e.getFile(), ExitCodes.FAILED);
        } catch (IOException e) {
            throw new CliException("cannot export " + in + " to " + out + ": " + e.getMessage(), ExitCodes.FAILED);
        } catch (OutOfMemoryError e) {
            throw new CliException("cannot export " + in + " within --memory " + memory + " (" + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB heap); run again with a larger --memory, e.g. --memory 2g", ExitCodes.FAILED);
        }
        stdout.flush();
        err.flush();
        return status;
    }

    private ConvertOptions options() {
        try {
            Set<String> wanted = null;
            if (threads != null) {
                wanted = new LinkedHashSet<>();
                for (String t : threads) {
                    wanted.add(t.trim());
                }
            }
            return new ConvertOptions(false, FragmentPolicy.parse(fragments), from == null ? null : TimeBound.parse(from),
                    to == null ? null : TimeBound.parse(to), wanted, ConvertOptions.parseEvents(events));
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
