package dev.minitrace.cli;

import dev.minitrace.converter.TimeBound;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.query.NamedQuery;
import dev.minitrace.query.ResultPrinter;
import dev.minitrace.query.TraceQuery;
import dev.minitrace.query.export.RecordingFacts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt query TRACE 'SQL'}: SQL on a trace with embedded DuckDB, over the tables of
 * docs/query.md as views; or one of the ready-made questions, each an SQL query that
 * {@code --show-sql} prints.
 */
@Command(name = "query", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, abbreviateSynopsis = true,
        description = {"Answers SQL on a trace with embedded DuckDB.",
            "",
            "TRACE is a folder of exported tables (mt export --format parquet), or a JFR",
            "recording or an .mtlog, exported to a temporary folder first. The tables of",
            "docs/query.md are views: records, calls, locks, threads, classes, methods, gcs,",
            "fields, recording. Give SQL, --file, or one ready-made question; --show-sql",
            "prints a question's SQL to read and adapt.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:answered",
            "1:failed: TRACE is not a trace or cannot be read",
            "2:bad command line, or bad SQL (DuckDB's message, one line)",
            "3:TRACE was truncated or lost data; the answer is from everything complete",
        })
public final class QueryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRACE", description = "A folder of exported tables, a JFR recording or an .mtlog.")
    Path trace;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SQL", description = "The SQL to run (the last statement's result is printed).")
    String sql;

    @Option(names = "--file", paramLabel = "FILE", description = "Run the SQL in FILE.")
    Path file;

    @Option(names = "--format", paramLabel = "table|csv|json", defaultValue = "table",
            description = "Output: an aligned table (default), CSV with a header line, or JSON lines.")
    String format;

    @Option(names = "--top-methods", description = "Where the time went: calls, self and total time per method.")
    boolean topMethods;

    @Option(names = "--call-tree", paramLabel = "METHOD", description = "The calls below METHOD ([pkg.]Class::method) as a tree of call paths.")
    String callTree;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "12",
            description = "With --call-tree: the levels shown below METHOD (default 12; 0: every level, which a deep recursion makes millions of lines)."
                    + " A line's times include the levels below it.")
    int depth;

    @Option(names = "--slow-calls", paramLabel = "METHOD", description = "The calls of METHOD ([pkg.]Class::method) longer than --over, slowest first.")
    String slowCalls;

    @Option(names = "--over", paramLabel = "DURATION", defaultValue = "0ms",
            description = "With --slow-calls: the least duration (5ms, 250us, 1.5s; default 0ms).")
    String over;

    @Option(names = "--lock-holds", description = "The monitors held longest.")
    boolean lockHolds;

    @Option(names = "--alloc-by-site", description = "Allocations per allocating method, bytecode index and class.")
    boolean allocBySite;

    @Option(names = "--between-gcs", arity = "2", paramLabel = "GC", description = "Allocations between GC N and GC M (gc ids, as in the gcs table).")
    List<Long> betweenGcs;

    @Option(names = "--show-sql", description = "Print the question's SQL instead of running it.")
    boolean showSql;

    @Option(names = "--host", paramLabel = "NAME", description = "For a JFR recording or .mtlog: the host for the recording table (default: this machine's name).")
    String host;

    @Option(names = "--temp-dir", paramLabel = "DIR", description = "Where the temporary export and DuckDB's spill files go (default: the system's temporary folder).")
    Path tempDir;

    @Mixin
    MemoryOption memory;

    @Override
    public Integer call() {
        ResultPrinter.Format fmt;
        try {
            fmt = ResultPrinter.Format.parse(format);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
        long memoryBytes = memory.bytes();
        String text = statement();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (showSql) {
            out.println(text.strip());
            out.flush();
            return ExitCodes.OK;
        }
        ConversionRun.checkTempDir(tempDir);
        boolean lost;
        try (RecordingInput input = recording() ? RecordingInput.open(trace, tempDir != null ? tempDir : RecordingInput.systemTemp(), trace) : null;
                TraceQuery q = open(input != null ? input.path() : trace, memoryBytes)) {
            if (input != null) {
                input.report(err, "query", -1);
            }
            lost = q.exported() != null && q.exported().lostData() || input != null && input.lostData();
            if (q.exported() != null) {
                for (String w : q.exported().warnings()) {
                    err.println("query: warning: " + w);
                }
            }
            try {
                q.run(text, fmt, out);
            } catch (SQLException e) {
                err.println(firstLine(e) + outOfMemoryHint(e, memoryBytes));
                err.flush();
                return isUsersMistake(e) ? ExitCodes.USAGE : ExitCodes.FAILED;
            }
        } catch (IOException | SQLException e) {
            throw new CliException("cannot close " + trace + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        out.flush();
        err.flush();
        return lost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }

    /**
     * Whether TRACE is a JFR recording to read through {@link RecordingInput}: a JFR repository
     * folder (it holds chunk files, where an export holds tables) or a file with an unfinished
     * chunk; an export folder, an .mtlog and a complete recording are opened as they are.
     */
    private boolean recording() {
        if (Files.isDirectory(trace)) {
            try (java.util.stream.Stream<Path> files = Files.list(trace)) {
                return files.anyMatch(f -> f.getFileName().toString().endsWith(".jfr"));
            } catch (IOException e) {
                return false; // the export's own checks word it
            }
        }
        try {
            return Files.isRegularFile(trace) && dev.minitrace.converter.recovery.Recovery.needed(trace);
        } catch (IOException e) {
            return false;
        }
    }

    private TraceQuery open(Path source, long memoryBytes) {
        try {
            return TraceQuery.open(source, memoryBytes, tempDir, host != null ? host : RecordingFacts.localHost());
        } catch (JfrInputException e) {
            throw new CliException(trace + ": " + e.getMessage(), ExitCodes.FAILED);
        } catch (NoSuchFileException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        } catch (IOException e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        } catch (SQLException e) {
            throw new CliException("cannot open " + trace + ": " + firstLine(e), ExitCodes.FAILED);
        } catch (OutOfMemoryError e) {
            throw new CliException("cannot export " + trace + " within --memory " + memory + "; run again with a larger --memory, e.g. --memory 2g",
                    ExitCodes.FAILED);
        }
    }

    private void requires(String option, String question, boolean asked) {
        if (!asked && spec.commandLine().getParseResult().hasMatchedOption(option)) {
            throw new CliException(option + " goes with " + question, ExitCodes.USAGE);
        }
    }

    /** The SQL to run: the argument, the file, or a question's. Exactly one must be given. */
    private String statement() {
        // an option of one question given without it would be silently ignored
        requires("--depth", "--call-tree", callTree != null);
        requires("--over", "--slow-calls", slowCalls != null);
        List<String> given = new ArrayList<>();
        NamedQuery named = null;
        Map<String, Object> values = new HashMap<>();
        if (sql != null) {
            given.add("SQL");
        }
        if (file != null) {
            given.add("--file");
        }
        if (topMethods) {
            given.add("--top-methods");
            named = NamedQuery.TOP_METHODS;
        }
        if (callTree != null) {
            given.add("--call-tree");
            named = NamedQuery.CALL_TREE;
            values.put("method", callTree);
            if (depth < 0) {
                throw new CliException("--depth must be 0 (every level) or more, not " + depth, ExitCodes.USAGE);
            }
            values.put("depth", depth == 0 ? Integer.MAX_VALUE : depth);
        }
        if (slowCalls != null) {
            given.add("--slow-calls");
            named = NamedQuery.SLOW_CALLS;
            values.put("method", slowCalls);
            values.put("over_ns", duration(over));
        }
        if (lockHolds) {
            given.add("--lock-holds");
            named = NamedQuery.LOCK_HOLDS;
        }
        if (allocBySite) {
            given.add("--alloc-by-site");
            named = NamedQuery.ALLOC_BY_SITE;
        }
        if (betweenGcs != null) {
            given.add("--between-gcs");
            named = NamedQuery.BETWEEN_GCS;
            values.put("from_gc", betweenGcs.get(0));
            values.put("to_gc", betweenGcs.get(1));
        }
        if (given.size() != 1) {
            throw new CliException(given.isEmpty() ? "give SQL, --file FILE or a question (--top-methods, --call-tree METHOD, --slow-calls METHOD, "
                    + "--lock-holds, --alloc-by-site, --between-gcs N M)" : "give one of " + String.join(", ", given) + ", not several",
                    ExitCodes.USAGE);
        }
        if (showSql && named == null) {
            throw new CliException("--show-sql prints a question's SQL (--top-methods, --call-tree, ...)", ExitCodes.USAGE);
        }
        if (named != null) {
            return named.sql(values);
        }
        if (file != null) {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new CliException("--file " + file + ": cannot read it (" + e.getMessage() + ")", ExitCodes.USAGE);
            }
        }
        return sql;
    }

    /** Nanoseconds of a duration such as {@code 5ms}; an instant or anything else is a usage error. */
    private static long duration(String text) {
        try {
            TimeBound b = TimeBound.parse(text);
            // an instant resolves the same whatever the start; a duration moves with it
            if (b.resolve(0) != b.resolve(1) - 1) {
                throw new IllegalArgumentException(text);
            }
            return b.resolve(0);
        } catch (IllegalArgumentException e) {
            throw new CliException("--over '" + text + "': expected a duration such as 5ms, 250us or 1.5s", ExitCodes.USAGE);
        }
    }

    /** DuckDB's message, its first line: the error and what it is about, without the quoted statement. */
    static String firstLine(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).strip();
    }

    /**
     * For DuckDB's {@code Out of Memory Error}, what to do about it (on the same line): the limit was
     * the command's {@code --memory}, which the user can raise. Empty for every other error.
     */
    static String outOfMemoryHint(SQLException e, long memoryBytes) {
        if (!firstLine(e).startsWith("Out of Memory Error")) {
            return "";
        }
        long mib = memoryBytes >> 20;
        return " (DuckDB's share of --memory " + mib + "m; run again with a larger --memory, e.g. --memory " + 2 * mib + "m)";
    }

    /** True for the errors a statement makes (syntax, names, types); false for reading files, memory, DuckDB itself. */
    static boolean isUsersMistake(SQLException e) {
        String m = firstLine(e);
        return !(m.startsWith("IO Error") || m.startsWith("Out of Memory Error") || m.startsWith("INTERNAL Error")
                || m.startsWith("Fatal Error") || m.startsWith("Invalid Error"));
    }
}
