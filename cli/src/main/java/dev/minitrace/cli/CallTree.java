package dev.minitrace.cli;

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
 * <p>Records arrive one by one; an entry is held back until the next record says whether the call
 * was empty, so nothing but that one entry is buffered.
 */
final class CallTree {
    /** The pseudo record type of a hole: {@code value} records were lost. */
    static final int LOST = 0;
    /** Whether an exit's bci tells an exit by exception (0) from a return (the thread-local layout and .jfr input). */
    private final boolean exitsKnown;
    private final boolean times;
    private final long from;
    private final long to;
    private final PrintWriter out;
    private final LongFunction<String> methods;
    private final LongFunction<String> objects;
    private final StringBuilder line = new StringBuilder(160);

    private long index;
    private int depth;
    /** The held-back entry: its method, position and time; {@code pendingIndex} 0 when none. */
    private long pendingMethod;
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
     * @param text what to print for a GC_TIMESTAMP record, and for an object record whose value the
     *     object names of this tree do not resolve (null: resolve it)
     */
    void record(int type, long value, int bci, long timeNanos, String text) {
        if (type == MtlogFormat.GC_TIMESTAMP) {
            // A point between two records, not one of the thread's own: it takes no position, so
            // positions are the same in the .mtlog and the .jfr; shown with the next record's page.
            // A call open across it is shown open, since the point lies inside it.
            if (pendingIndex != 0) {
                emit(pendingIndex, pendingTime, depth, methods.apply(pendingMethod) + " {");
                pendingIndex = 0;
                depth++;
            }
            if (index + 1 >= from && index + 1 <= to) {
                line.setLength(0);
                line.append(" ".repeat(times ? 9 + 12 : 9)).append("  ~~ ").append(text);
                out.println(line);
                lines++;
            }
            return;
        }
        index++;
        if (pendingIndex != 0) {
            if (type == MtlogFormat.METHOD_EXIT && value == pendingMethod) {
                // An empty call: one line, at the entry's position and time.
                emit(pendingIndex, pendingTime, depth, methods.apply(value) + exitMark(bci));
                pendingIndex = 0;
                return;
            }
            emit(pendingIndex, pendingTime, depth, methods.apply(pendingMethod) + " {");
            pendingIndex = 0;
            depth++;
        }
        switch (type) {
            case MtlogFormat.METHOD_ENTRY -> {
                pendingMethod = value;
                pendingIndex = index;
                pendingTime = timeNanos;
            }
            case MtlogFormat.METHOD_EXIT -> {
                if (depth > 0) {
                    depth--;
                    emit(index, timeNanos, depth, "} " + methods.apply(value) + exitMark(bci));
                } else {
                    // The call began before the recording did: its exit has no opening line.
                    emit(index, timeNanos, 0, "} " + methods.apply(value) + exitMark(bci) + " (entered before the recording)");
                }
            }
            case MtlogFormat.LOCK_ACQUIRE -> emit(index, timeNanos, depth, "lock " + object(text, value));
            case MtlogFormat.LOCK_RELEASE -> emit(index, timeNanos, depth, "unlock " + object(text, value));
            case MtlogFormat.OBJECT_ALLOC -> emit(index, timeNanos, depth, "new " + object(text, value));
            case MtlogFormat.ARRAY_LENGTH -> emit(index, timeNanos, depth, "length " + value);
            case LOST -> emit(index, timeNanos, 0, "~~ " + value + " records lost here (a damaged minitrace.MethodBuffer event)");
            default -> emit(index, timeNanos, depth, MtlogFormat.typeName(type) + " value=" + Long.toUnsignedString(value));
        }
    }

    /** The thread's records are done: a held-back entry is a call still running when the recording ended. */
    void end() {
        if (pendingIndex != 0) {
            emit(pendingIndex, pendingTime, depth, methods.apply(pendingMethod) + " { (still running at the end)");
            pendingIndex = 0;
        }
    }

    /** The number of lines printed so far. */
    long lines() {
        return lines;
    }

    /** {@code class@hash}, an array class as Java writes it ({@code long[]@…} rather than {@code [J@…}). */
    private String object(String text, long value) {
        String o = text != null ? text : objects.apply(value);
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

    private String exitMark(int bci) {
        return exitsKnown && bci == 0 ? " !threw" : "";
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
