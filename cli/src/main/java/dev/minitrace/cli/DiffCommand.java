package dev.minitrace.cli;

import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.views.diff.CountedTrace;
import dev.minitrace.views.diff.DiffBy;
import dev.minitrace.views.diff.DiffOutput;
import dev.minitrace.views.diff.FailBound;
import dev.minitrace.views.diff.MethodFilter;
import dev.minitrace.views.diff.TraceCounts;
import dev.minitrace.views.diff.TraceDiff;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiPredicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mt diff BASE NEW}: the exact counts of two traces side by side, and a CI gate on their
 * changes. This class reads the command line and words the outcome; the counting and matching are
 * the views' {@code diff} package.
 */
@Command(name = "diff", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Compares the exact counts of two traces: calls, exits by exception, allocations, monitor acquisitions"
                + " and throws, per method (matched by class, name and descriptor), call path, allocation site, monitor class"
                + " or thrown exception. Rows with no difference are left out unless --all.",
            "",
            "BASE and NEW are each a JFR recording (or a JFR repository folder), an .mtlog,",
            "or a folder of tables exported by mt export --format parquet (one recording).",
            "",
            "Examples:",
            "  mt diff before.jfr after.jfr",
            "  mt diff --by alloc --format csv before.mtlog after.mtlog",
            "  mt diff --fail-if 'calls>+5%%' --fail-if 'allocs>+0' main.jfr branch.jfr",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:compared (and no --fail-if bound was crossed)",
            "1:failed: an input is unreadable or not a trace",
            "2:bad command line",
            "3:an input was truncated or lost data; everything complete was compared",
            "4:a row crossed a --fail-if bound (the rows are listed on stderr)",
        })
public final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BASE", description = "The trace to compare with.")
    Path base;

    @Parameters(index = "1", paramLabel = "NEW", description = "The trace to compare.")
    Path next;

    @Option(names = "--by", paramLabel = "ROW", defaultValue = "method",
            description = "What a row is: method (default), path (a call path, to --depth), alloc (allocated class and"
                    + " allocating method), lock (monitor class), exception (thrown class and throwing method).")
    String by;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "8",
            description = "--by path: call paths of at most N methods from a thread's outermost traced call (default 8).")
    int depth;

    @Option(names = "--threads", paramLabel = "THREAD,...", split = ",", hideParamSyntax = true,
            description = "Only these threads: names, JFR thread ids or Java thread ids, comma-separated.")
    List<String> threads;

    @Option(names = "--include", paramLabel = "FILTER",
            description = "Only rows of these classes or methods (repeatable, or several joined by ';'): pkg.Class,"
                    + " pkg.Class::method, ::method, with * in package and class names, as for the agent.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "FILTER",
            description = "Leave out rows of these classes or methods (syntax as --include).")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (default), csv (the header line first) or json.")
    String format;

    @Option(names = "--all", description = "Also the rows whose counts are the same in both traces.")
    boolean all;

    @Option(names = "--fail-if", paramLabel = "BOUND",
            description = "Exit with status 4 when a row's change crosses BOUND: METRIC OP CHANGE, e.g. 'calls>+5%%'"
                    + " (relative to the base count) or 'allocs>+0' (absolute); OP one of > >= < <=. Repeatable.")
    List<String> failIf = new ArrayList<>();

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "Where records that wait go while a recording is read (default: the system's temporary folder).")
    Path tempDir;

    @Mixin
    MemoryOption memory;

    @Mixin
    EngineOption engine;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DiffBy rowKind;
        DiffOutput.Format fmt;
        List<FailBound> bounds = new ArrayList<>();
        BiPredicate<String, String> filter;
        try {
            rowKind = DiffBy.parse(by);
            fmt = DiffOutput.Format.parse(format);
            for (String f : failIf) {
                FailBound b = FailBound.parse(f);
                b.check(rowKind);
                bounds.add(b);
            }
            filter = MethodFilter.of(includes, excludes);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
        if (depth < 1) {
            throw new CliException("--depth " + depth + ": expected at least 1", ExitCodes.USAGE);
        }
        long memoryBytes = memory.bytes();
        ConversionRun.checkTempDir(tempDir);
        RecordingSource source = engine.source();
        Set<String> selected = threads == null ? null : new HashSet<>(threads);
        int pathDepth = rowKind == DiffBy.PATH ? depth : 0;
        boolean lost = false;
        TraceCounts[] counts = new TraceCounts[2];
        Path[] inputs = {base, next};
        for (int i = 0; i < 2; i++) {
            CountedTrace c = TraceCounting.count("diff", inputs[i], selected, pathDepth, source, memoryBytes, tempDir, memory.toString(), err);
            for (String w : c.warnings()) {
                err.println("diff: warning: " + inputs[i] + ": " + w);
            }
            lost |= c.lostData();
            counts[i] = c.counts();
        }
        TraceDiff diff = TraceDiff.of(rowKind, counts[0], counts[1], filter);
        int[] rows = diff.rows(all);
        try {
            DiffOutput.write(diff, rows, fmt, out);
        } catch (IOException e) {
            throw new CliException("cannot write the rows: " + e.getMessage(), ExitCodes.FAILED);
        }
        int crossed = 0;
        // unchanged rows cross no bound worth failing on, but --all may show them: check every counted row
        for (int r : diff.rows(true)) {
            for (FailBound b : bounds) {
                if (b.crossed(diff.base(r, diffMetric(rowKind, b)), diff.next(r, diffMetric(rowKind, b)))) {
                    err.println("diff: fail-if: " + DiffOutput.offence(diff, r, b));
                    crossed++;
                }
            }
        }
        if (crossed > 0) {
            err.println("diff: " + crossed + " bound" + (crossed == 1 ? "" : "s") + " crossed");
        }
        out.flush();
        err.flush();
        if (crossed > 0) {
            return ExitCodes.THRESHOLD;
        }
        return lost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }

    private static int diffMetric(DiffBy by, FailBound b) {
        return by.metrics().indexOf(b.metric());
    }
}
