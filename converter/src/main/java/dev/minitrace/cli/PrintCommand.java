package dev.minitrace.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.mtlog.Names;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code mt print FILE.mtlog}: one line per record with names resolved, stream by stream and
 * fragment by fragment; {@code --json} writes the same as JSON lines.
 */
@Command(name = "print", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints the records of an .mtlog file, one per line, names resolved, stream by stream and fragment by fragment."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:printed", "1:not a readable .mtlog file", "2:bad command line",
            "3:the file is truncated (no END block); the complete blocks were printed"})
public final class PrintCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.mtlog")
    Path file;

    @Option(names = "--json", description = "Write JSON lines, one object per record.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (MtlogReader r = MtlogReader.open(file)) {
            if (json) {
                printJson(r, out);
            } else {
                printText(r, out);
            }
            out.flush();
            if (r.truncated()) {
                spec.commandLine().getErr().println("print: warning: " + file + " is truncated: " + r.truncation());
                return ExitCodes.PARTIAL;
            }
            return ExitCodes.OK;
        } catch (NoSuchFileException e) {
            throw new CliException(file + ": no such file");
        } catch (IOException e) {
            if (SummaryCommand.isJfr(file)) {
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
                    case MtlogFormat.LOCK_ACQUIRE, MtlogFormat.LOCK_RELEASE, MtlogFormat.OBJECT_ALLOC -> sb.append(names.object(value));
                    case MtlogFormat.GC_TIMESTAMP -> sb.append("gc ").append(Integer.toUnsignedString(aux)).append(' ')
                            .append(names.gc(aux & 0xFFFFFFFFL)).append(" pause at ").append(Names.time(value));
                    default -> sb.append("value=").append(Long.toUnsignedString(value)).append(" aux=").append(Integer.toUnsignedString(aux));
                }
                if (!global && type >= MtlogFormat.METHOD_EXIT && type <= MtlogFormat.OBJECT_ALLOC) {
                    sb.append(" bci=").append(aux);
                }
                out.println(sb);
            });
        }
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
                if (!global && type >= MtlogFormat.METHOD_EXIT && type <= MtlogFormat.OBJECT_ALLOC) {
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
