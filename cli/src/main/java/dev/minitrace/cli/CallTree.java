package dev.minitrace.cli;

import dev.minitrace.converter.calls.CallModel;
import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * Prints one thread's records as a call tree ({@code mt print --tree}): each record indented by
 * the number of calls open in its thread; a call with nothing inside is one line
 * ({@code Class.method(Args)}), any other opens with {@code {} and closes with {@code }} and the
 * method's name; an exit by exception is marked {@code !threw}. Every line starts with the
 * record's position in its thread (so {@code --from/--to} can page) and, when the input has
 * times, the time in ms since the recording's start.
 *
 * <p>The calls are the thread's {@link CallModel}'s, so what a trace lacks reads as in the other
 * views (docs/query.md): an exit without entry is a line of its own marked
 * {@code (entered before the recording)}; a call whose exit was lost closes, marked
 * {@code (exit lost)}, where a call below it exits; the calls still open at the end close, marked
 * {@code (still running at the end)}, after the thread's last record.
 *
 * <p>Records arrive one by one; an entry is held back until the next record says whether the call
 * was empty, so nothing but that one entry is buffered.
 */
final class CallTree implements CallModel.Listener<RuntimeException> {
    /** Whether an exit's bci tells an exit by exception (0) from a return (the thread-local layout and .jfr input). */
    private final boolean exitsKnown;
    private final boolean times;
    private final long from;
    private final long to;
    private final PrintWriter out;
    private final LongFunction<String> methods;
    private final LongFunction<String> objects;
    private final StringBuilder line = new StringBuilder(160);
    private final CallModel<RuntimeException> model = new CallModel<>(this);

    private long index;
    private long time;
    /** The held-back entry: its position and time; {@code pendingIndex} 0 when none. */
    private long pendingIndex;
    private long pendingTime;
    private long lines;

    CallTree(PrintWriter out, LongFunction<String> methods, LongFunction<String> objects, boolean exitsKnown, boolean times,
            long from, long to) {
        this.out = out;
        this.methods = methods;
        this.objects = objects;
        this.exitsKnown = exitsKnown;
        this.times = times;
        this.from = from;
        this.to = to;
    }

    /** The header line of the columns. */
    String columns() {
        return times ? String.format(Locale.ROOT, "%9s %11s  %s", "#", "ms", "call tree") : String.format(Locale.ROOT, "%9s  %s", "#", "call tree");
    }

    /**
     * One record of the thread, in the thread's order.
     *
     * @param timeNanos ns since the recording's start (ignored without times)
     * @param bci the record's bytecode index (for an exit: 0 when it was by exception, if {@link #exitsKnown})
     * @param text what to print for a GC_TIMESTAMP record (null for the others)
     */
    void record(int type, long value, int bci, long timeNanos, String text) {
        if (type == MtlogFormat.GC_TIMESTAMP) {
            // A point between two records, not one of the thread's own: it takes no position, so
            // positions are the same in the .mtlog and the .jfr; shown with the next record's page.
            // A call open across it is shown open, since the point lies inside it.
            flushPending();
            if (index + 1 >= from && index + 1 <= to) {
                line.setLength(0);
                line.append(" ".repeat(times ? 9 + 12 : 9)).append("  ~~ ").append(text);
                out.println(line);
                lines++;
            }
            return;
        }
        index++;
        time = timeNanos;
        if (pendingIndex != 0 && type != MtlogFormat.METHOD_EXIT) {
            flushPending();
        }
        model.record(type, value, exitsKnown || type != MtlogFormat.METHOD_EXIT ? bci : Integer.MIN_VALUE, timeNanos);
        int depth = model.calls();
        switch (type) {
            case MtlogFormat.METHOD_ENTRY, MtlogFormat.METHOD_EXIT -> {
                // the model's listener methods print calls
            }
            case MtlogFormat.LOCK_ACQUIRE -> emit(index, timeNanos, depth, "lock " + object(value));
            case MtlogFormat.LOCK_RELEASE -> emit(index, timeNanos, depth, "unlock " + object(value));
            case MtlogFormat.OBJECT_ALLOC -> emit(index, timeNanos, depth, "new " + object(value));
            case MtlogFormat.ARRAY_LENGTH -> emit(index, timeNanos, depth, "length " + value);
            default -> emit(index, timeNanos, depth, MtlogFormat.typeName(type) + " value=" + Long.toUnsignedString(value));
        }
    }

    /** Prints the held-back entry as the opening line of a call with something inside. */
    private void flushPending() {
        if (pendingIndex != 0) {
            int frame = model.calls() - 1;
            emit(pendingIndex, pendingTime, frame, methods.apply(model.method(frame)) + " {");
            pendingIndex = 0;
        }
    }

    @Override
    public void enter(int frame, long seq, long method, long t) {
        flushPending();
        pendingIndex = index;
        pendingTime = time;
    }

    @Override
    public void exit(int frame, int end, long seq, int bci, long t, long duration, long self) {
        String mark = switch (end) {
            case CallModel.THREW -> " !threw";
            case CallModel.EXIT_LOST -> " (exit lost)";
            case CallModel.OPEN -> " (still running at the end)";
            default -> "";
        };
        String name = methods.apply(model.method(frame));
        if (pendingIndex != 0) {
            // an empty call: one line, at the entry's position and time
            emit(pendingIndex, pendingTime, frame, name + (end == CallModel.OPEN ? " {" : "") + mark);
            pendingIndex = 0;
        } else {
            emit(index, time, frame, "} " + name + mark);
        }
    }

    @Override
    public void exitWithoutEntry(long method, int end, long seq, int bci, long t, int depth) {
        flushPending();
        // The call began before the recording did: its exit has no opening line.
        emit(index, time, model.calls(), "} " + methods.apply(method) + (end == CallModel.THREW ? " !threw" : "")
                + " (entered before the recording)");
    }

    /** The thread's records are done: the calls still open are still running at the end. */
    void end() {
        model.finish();
    }

    /** The number of lines printed so far. */
    long lines() {
        return lines;
    }

    /** {@code class@hash}, an array class as Java writes it ({@code long[]@…} rather than {@code [J@…}). */
    private String object(long value) {
        String o = objects.apply(value);
        int at = o.lastIndexOf('@');
        if (!o.startsWith("[") || at < 0) {
            return o;
        }
        String name = o.substring(0, at);
        int dims = 0;
        while (dims < name.length() && name.charAt(dims) == '[') {
            dims++;
        }
        String element = name.substring(dims);
        String base = switch (element) {
            case "Z" -> "boolean";
            case "B" -> "byte";
            case "C" -> "char";
            case "S" -> "short";
            case "I" -> "int";
            case "J" -> "long";
            case "F" -> "float";
            case "D" -> "double";
            default -> element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1) : null;
        };
        return base == null ? o : base + "[]".repeat(dims) + o.substring(at);
    }

    private void emit(long position, long timeNanos, int indent, String text) {
        if (position < from || position > to) {
            return;
        }
        line.setLength(0);
        line.append(String.format(Locale.ROOT, "%9d", position));
        if (times) {
            line.append(timeNanos == Long.MIN_VALUE ? String.format(Locale.ROOT, " %11s", "?")
                    : String.format(Locale.ROOT, " %11.3f", timeNanos / 1e6));
        }
        line.append("  ");
        for (int i = 0; i < indent; i++) {
            line.append("  ");
        }
        line.append(text);
        out.println(line);
        lines++;
    }

    /** {@code pkg.Class.method(Type, Type[])}: the descriptor's types by their simple names. */
    static String methodName(String className, String methodName, String descriptor) {
        StringBuilder b = new StringBuilder(className.length() + methodName.length() + 16);
        b.append(className).append('.').append(methodName).append('(');
        int i = descriptor.indexOf('(') + 1;
        boolean first = true;
        while (i > 0 && i < descriptor.length() && descriptor.charAt(i) != ')') {
            int dims = 0;
            while (descriptor.charAt(i) == '[') {
                dims++;
                i++;
            }
            String simple;
            char c = descriptor.charAt(i);
            if (c == 'L') {
                int end = descriptor.indexOf(';', i);
                if (end < 0) {
                    return className + "." + methodName + descriptor;
                }
                String name = descriptor.substring(i + 1, end);
                simple = name.substring(name.lastIndexOf('/') + 1);
                i = end + 1;
            } else {
                simple = switch (c) {
                    case 'Z' -> "boolean";
                    case 'B' -> "byte";
                    case 'C' -> "char";
                    case 'S' -> "short";
                    case 'I' -> "int";
                    case 'J' -> "long";
                    case 'F' -> "float";
                    case 'D' -> "double";
                    default -> null;
                };
                if (simple == null) {
                    return className + "." + methodName + descriptor;
                }
                i++;
            }
            if (!first) {
                b.append(", ");
            }
            first = false;
            b.append(simple).append("[]".repeat(dims));
        }
        return b.append(')').toString();
    }
}
