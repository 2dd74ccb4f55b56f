package dev.minitrace.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.jfr.JfrInputException;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.mtlog.Names;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt print FILE.mtlog}: one line per record with names resolved, stream by stream and
 * fragment by fragment ({@code --flat}, the default); {@code --json} writes the same as JSON
 * lines; {@code --tree} prints each thread as a call tree ({@link CallTree}), also for a
 * {@code .jfr}, whose records carry the times an {@code .mtlog} does not.
 */
@Command(name = "print", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints the records of an .mtlog file, one per line, names resolved, stream by stream and fragment by fragment.",
            "",
            "With --tree, prints each thread as a call tree instead: each record indented by",
            "the calls open in its thread, a call with nothing inside on one line, an exit by",
            "exception marked !threw (thread layout and JFR input), each line numbered by its",
            "position in its thread (page with --from, --to and --threads). Given the JFR",
            "recording (FILE.jfr), it also shows each record's time in ms since the recording",
            "started (an .mtlog holds no per-record times). Buffered records are stamped at",
            "the agent's 1 ms tick (agent option stamp=tick, the default): records between",
            "two ticks show the same time.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:printed", "1:not a readable .mtlog file (or, with --tree, JFR recording)", "2:bad command line",
            "3:the file is truncated (no END block) or the recording lost data; everything complete was printed"})
public final class PrintCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "An .mtlog file; with --tree also a JFR recording (.jfr) or a JFR repository folder")
    Path file;

    @Option(names = "--json", description = "Write JSON lines, one object per record.")
    boolean json;

    @Option(names = "--flat", description = "One line per record, stream by stream (the default).")
    boolean flat;

    @Option(names = "--tree", description = "Each thread as an indented call tree (see above).")
    boolean tree;

    @Option(names = "--threads", paramLabel = "THREAD", split = ",",
            description = "--tree: only these threads, by id or name (* matches any run of characters); repeatable or joined by ','")
    List<String> threads = new ArrayList<>();

    @Option(names = "--from", paramLabel = "N", defaultValue = "1",
            description = "--tree: start at the N-th record of each thread (default: ${DEFAULT-VALUE})")
    long from;

    @Option(names = "--to", paramLabel = "N", defaultValue = "" + Long.MAX_VALUE, showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "--tree: end with the N-th record of each thread (default: the last)")
    long to;

    @Mixin
    EngineOption engine;

    @Mixin
    MemoryOption memory;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (tree && (flat || json)) {
            throw new CliException("--tree cannot be combined with " + (flat ? "--flat" : "--json"), ExitCodes.USAGE);
        }
        if (!tree && (!threads.isEmpty() || from != 1 || to != Long.MAX_VALUE)) {
            throw new CliException("--threads, --from and --to page a call tree: add --tree", ExitCodes.USAGE);
        }
        if (from < 1 || to < from) {
            throw new CliException("--from " + from + " --to " + (to == Long.MAX_VALUE ? "(last)" : to)
                    + ": expected 1 <= --from <= --to", ExitCodes.USAGE);
        }
        if (tree && (Files.isDirectory(file) || InputKind.isJfr(file))) {
            return printJfrTree(out);
        }
        try (MtlogReader r = MtlogReader.open(file)) {
            if (json) {
                printJson(r, out);
            } else if (tree) {
                printTree(r, out);
            } else {
                printText(r, out);
            }
            checkWritten(out);
            if (r.truncated()) {
                spec.commandLine().getErr().println("print: warning: " + file + " is truncated: " + r.truncation());
                return ExitCodes.PARTIAL;
            }
            return ExitCodes.OK;
        } catch (NoSuchFileException e) {
            throw new CliException(file + ": no such file");
        } catch (IOException e) {
            if (InputKind.isJfr(file)) {
                // the likeliest mistake: point the user at the step they skipped
                throw new CliException(file + ": a JFR recording, not an .mtlog file: convert it first (mt convert "
                        + file + " OUT.mtlog) or use mt summary");
            }
            throw new CliException(file + ": " + e.getMessage());
        }
    }

    private void printText(MtlogReader r, PrintWriter out) throws IOException {
        Names names = new Names(r.info());
        boolean global = r.globalLayout();
        out.printf("# %s: %s layout, version %d.%d, start %s, %d records%n", file, global ? "global" : "thread",
                r.major(), r.minor(), Names.time(r.startNanos()), r.recordCount());
        for (int stream : r.streamIds()) {
            long sid = stream & 0xFFFFFFFFL;
            out.println(global ? "== stream global" : "== stream " + sid + " thread \"" + names.thread(sid) + "\"");
            out.println("-- fragment 0");
            int[] fragment = {0};
            StringBuilder sb = new StringBuilder(128);
            r.forEachRecord(stream, (s, type, value, aux) -> {
                sb.setLength(0);
                if (type == MtlogFormat.GC_TIMESTAMP) {
                    fragment[0]++;
                    out.println("-- fragment " + fragment[0]);
                }
                if (global && type != MtlogFormat.GC_TIMESTAMP) {
                    sb.append('[').append(names.thread(aux & 0xFFFFFFFFL)).append("] ");
                }
                sb.append(MtlogFormat.typeName(type)).append(' ');
                switch (type) {
                    case MtlogFormat.METHOD_ENTRY -> sb.append(names.method(value));
                    case MtlogFormat.METHOD_EXIT -> sb.append(names.method(value));
                    case MtlogFormat.LOCK_ACQUIRE, MtlogFormat.LOCK_RELEASE, MtlogFormat.OBJECT_ALLOC, MtlogFormat.EXCEPTION_OBJECT,
                            MtlogFormat.STORE_HOLDER, MtlogFormat.STORE_OLD, MtlogFormat.STORE_NEW, MtlogFormat.OBJECT_DEATH,
                            MtlogFormat.METHOD_RECEIVER -> sb.append(names.object(value));
                    case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.ALLOC_SITE -> sb.append(names.method(value));
                    case MtlogFormat.FIELD_STORE -> sb.append(names.field(value));
                    case MtlogFormat.ARRAY_STORE -> sb.append("index ").append(value);
                    case MtlogFormat.ARRAY_LENGTH -> sb.append("length ").append(value);
                    case MtlogFormat.GC_TIMESTAMP -> sb.append("gc ").append(Integer.toUnsignedString(aux)).append(' ')
                            .append(names.gc(aux & 0xFFFFFFFFL)).append(" pause at ").append(Names.time(value));
                    default -> sb.append("value=").append(Long.toUnsignedString(value)).append(" aux=").append(Integer.toUnsignedString(aux));
                }
                if (!global && (type >= MtlogFormat.METHOD_EXIT && type <= MtlogFormat.OBJECT_ALLOC || hasBci(type))) {
                    sb.append(" bci=").append(aux);
                }
                if (!global && type == MtlogFormat.OBJECT_DEATH) {
                    sb.append(aux == -1 ? " before any gc" : " gc=" + Integer.toUnsignedString(aux));
                }
                out.println(sb);
            });
        }
    }

    /** The heap records whose aux is a bytecode index (the parts naming objects have aux 0). */
    private static boolean hasBci(int type) {
        return type == MtlogFormat.EXCEPTION_THROW || type == MtlogFormat.EXCEPTION_HANDLED || type == MtlogFormat.FIELD_STORE
                || type == MtlogFormat.ARRAY_STORE || type == MtlogFormat.ALLOC_SITE;
    }

    /** Whether the thread with this id and name is one of {@code --threads} (all without it). */
    private boolean wanted(long id, String name) {
        if (threads.isEmpty()) {
            return true;
        }
        for (String t : threads) {
            if (t.equals(Long.toString(id)) || glob(t, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean glob(String pattern, String name) {
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (regex.length() > 0 || pattern.startsWith("*")) {
                regex.append(".*");
            }
            regex.append(java.util.regex.Pattern.quote(part));
        }
        return name != null && name.matches(regex.toString());
    }

    private void printTree(MtlogReader r, PrintWriter out) throws IOException {
        Names names = new Names(r.info());
        boolean global = r.globalLayout();
        out.printf("# %s: call tree per thread, %s layout, %d records; an .mtlog holds no per-record times"
                + " (mt print --tree on the .jfr shows them)%s%n", file, global ? "global" : "thread", r.recordCount(),
                global ? "; the global layout does not record exits by exception" : "; !threw: an exit by exception");
        LongFunction<String> methods = methodNames(r.info(), names);
        MtlogInfo info = r.info();
        if (!global) {
            for (int stream : r.streamIds()) {
                long sid = stream & 0xFFFFFFFFL;
                if (!wanted(sid, names.thread(sid))) {
                    continue;
                }
                CallTree t = startThread(out, sid, names.thread(sid), methods, names::object, true, false);
                r.forEachRecord(stream, (s, type, value, aux) -> t.record(type, value, aux, 0, gcText(names, type, value, aux)));
                t.end();
            }
            return;
        }
        java.util.TreeSet<Long> ids = new java.util.TreeSet<>(info.threads().keySet());
        for (long id : ids) {
            if (!wanted(id, names.thread(id))) {
                continue;
            }
            CallTree t = startThread(out, id, names.thread(id), methods, names::object, false, false);
            for (int stream : r.streamIds()) {
                r.forEachRecord(stream, (s, type, value, aux) -> {
                    // One pass per thread: the global stream interleaves them, a tree is one thread's.
                    if (type == MtlogFormat.GC_TIMESTAMP || (aux & 0xFFFFFFFFL) == id) {
                        t.record(type, value, 0, 0, gcText(names, type, value, aux));
                    }
                });
            }
            t.end();
        }
    }

    private static String gcText(Names names, int type, long value, int aux) {
        return type != MtlogFormat.GC_TIMESTAMP ? null
                : "gc " + Integer.toUnsignedString(aux) + " " + names.gc(aux & 0xFFFFFFFFL) + " pause at " + Names.time(value);
    }

    private CallTree startThread(PrintWriter out, long id, String name, LongFunction<String> methods, LongFunction<String> objects,
            boolean exitsKnown, boolean times) {
        out.println("== thread " + id + " \"" + name + "\"");
        CallTree t = new CallTree(out, methods, objects, exitsKnown, times, from, to);
        out.println(t.columns());
        return t;
    }

    /**
     * Flushes the output and fails if any write to it failed: a PrintWriter swallows write errors,
     * so without this a full disk or a closed pipe would cut lines out of the output and still exit 0.
     * picocli's writer sits on System.out, a PrintStream that swallows them too and keeps its own flag.
     */
    private static void checkWritten(PrintWriter out) {
        if (out.checkError() | System.out.checkError()) {
            throw new CliException("writing the output failed (disk full or output closed): the output is incomplete");
        }
    }

    private int printJfrTree(PrintWriter out) {
        PrintWriter err = spec.commandLine().getErr();
        RecordingSource source = engine.source();
        // exact names and ids the converter selects itself, so only their records are kept
        boolean exact = !threads.isEmpty() && threads.stream().noneMatch(t -> t.contains("*"));
        ConvertOptions defaults = ConvertOptions.defaults();
        ConvertOptions options = !exact ? defaults : new ConvertOptions(defaults.globalLayout(), defaults.fragments(), null, null,
                new java.util.HashSet<>(threads), defaults.typeMask());
        List<TreeWriter> opened = new ArrayList<>(1);
        ConversionReport report;
        boolean recoveryLost;
        try (RecordingInput input = RecordingInput.open(file, RecordingInput.systemTemp(), file)) {
            report = new Converter(options, source, RecordingInput.systemTemp()).convert(input.path(), input.path(), (start, end) -> {
                TreeWriter w = new TreeWriter(start, to, RecordingInput.systemTemp());
                opened.add(w);
                return w;
            }, null);
            input.report(err, "print", -1);
            recoveryLost = input.lostData();
            TreeWriter trees = opened.get(0);
            MtlogInfo info = trees.info();
            Names names = new Names(info);
            LongFunction<String> methods = methodNames(info, names);
            out.printf("# %s: call tree per thread; ms: time since the recording started (%s); buffered records are stamped"
                    + " at the agent's 1 ms tick by default (stamp=tick), so records between two ticks share a time; !threw: an exit"
                    + " by exception%n", file, Names.time(trees.startNanos));
            for (TreeWriter.ThreadRecords t : trees.threads()) {
                if (!wanted(t.key, names.thread(t.key))) {
                    continue;
                }
                t.print(startThread(out, t.key, names.thread(t.key), methods, names::object, true, true), trees.startNanos);
            }
        } catch (NoSuchFileException e) {
            throw new CliException(file + ": no such file");
        } catch (JfrInputException e) {
            throw new CliException(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw new CliException(file + ": " + e.getMessage());
        } finally {
            for (TreeWriter w : opened) {
                w.discard();
            }
        }
        checkWritten(out);
        ConversionRun.warn(err, "print", report, options);
        err.flush();
        return report.lostData() || recoveryLost ? ExitCodes.PARTIAL : ExitCodes.OK;
    }

    /** {@code pkg.Class.method(Type)} of a method id, by the tables' names. */
    private static LongFunction<String> methodNames(MtlogInfo info, Names names) {
        return id -> {
            MtlogInfo.MethodInfo m = info.methods().get(id);
            return m == null ? names.method(id) : CallTree.methodName(m.className(), m.methodName(), m.descriptor());
        };
    }

    private void printJson(MtlogReader r, PrintWriter out) throws IOException {
        MtlogInfo info = r.info();
        Names names = new Names(info);
        boolean global = r.globalLayout();
        JsonGenerator g = new JsonFactory().createGenerator(out);
        g.setPrettyPrinter(new MinimalPrettyPrinter("\n"));
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        for (int stream : r.streamIds()) {
            int[] fragment = {0};
            r.forEachRecord(stream, (s, type, value, aux) -> {
                if (type == MtlogFormat.GC_TIMESTAMP) {
                    fragment[0]++;
                }
                g.writeStartObject();
                g.writeNumberField("stream", stream & 0xFFFFFFFFL);
                g.writeNumberField("fragment", fragment[0]);
                g.writeStringField("type", MtlogFormat.typeName(type));
                long thread = global ? aux & 0xFFFFFFFFL : stream & 0xFFFFFFFFL;
                if (type != MtlogFormat.GC_TIMESTAMP) {
                    g.writeNumberField("thread", thread);
                    g.writeStringField("threadName", names.thread(thread));
                }
                switch (type) {
                    case MtlogFormat.METHOD_ENTRY, MtlogFormat.METHOD_EXIT -> {
                        g.writeNumberField("methodId", value);
                        g.writeStringField("method", names.method(value));
                    }
                    case MtlogFormat.LOCK_ACQUIRE, MtlogFormat.LOCK_RELEASE, MtlogFormat.OBJECT_ALLOC -> {
                        g.writeNumberField("objectId", value);
                        g.writeStringField("class", names.className(value >>> 32));
                        g.writeNumberField("identityHash", (int) value);
                    }
                    case MtlogFormat.EXCEPTION_THROW, MtlogFormat.EXCEPTION_HANDLED, MtlogFormat.ALLOC_SITE -> {
                        g.writeNumberField("methodId", value);
                        g.writeStringField("method", names.method(value));
                    }
                    case MtlogFormat.FIELD_STORE -> {
                        g.writeNumberField("fieldId", value);
                        g.writeStringField("field", names.field(value));
                    }
                    case MtlogFormat.ARRAY_STORE -> g.writeNumberField("index", value);
                    case MtlogFormat.ARRAY_LENGTH -> g.writeNumberField("length", value);
                    case MtlogFormat.EXCEPTION_OBJECT, MtlogFormat.STORE_HOLDER, MtlogFormat.STORE_OLD, MtlogFormat.STORE_NEW,
                            MtlogFormat.OBJECT_DEATH, MtlogFormat.METHOD_RECEIVER -> {
                        g.writeNumberField("objectId", value);
                        g.writeStringField("class", value == 0 ? null : names.className(value >>> 32));
                        g.writeNumberField("identityHash", (int) value);
                    }
                    case MtlogFormat.GC_TIMESTAMP -> {
                        g.writeNumberField("gcId", aux & 0xFFFFFFFFL);
                        g.writeStringField("gc", names.gc(aux & 0xFFFFFFFFL));
                        g.writeNumberField("pauseStartNanos", value);
                    }
                    default -> {
                        g.writeNumberField("value", value);
                        g.writeNumberField("aux", aux & 0xFFFFFFFFL);
                    }
                }
                if (!global && (type >= MtlogFormat.METHOD_EXIT && type <= MtlogFormat.OBJECT_ALLOC || hasBci(type))) {
                    g.writeNumberField("bci", aux);
                }
                g.writeEndObject();
            });
        }
        if (r.recordCount() > 0) {
            g.writeRaw('\n'); // the pretty printer separates lines; the last one needs its end too
        }
        g.flush();
    }
}
