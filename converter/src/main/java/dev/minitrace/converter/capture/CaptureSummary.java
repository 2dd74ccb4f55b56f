package dev.minitrace.converter.capture;

import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.events.EventNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The {@code minitrace.MethodCapture} events of a recording, per captured method: calls, calls
 * that threw, total, mean and longest duration, and the arguments of the longest call. Captures
 * are few (one per call of a method the user named), so JFR's own stream reader, which skips every
 * event type without a handler, reads them.
 */
public final class CaptureSummary {
    private final Map<String, PerMethod> methods = new LinkedHashMap<>();
    private String problem;

    private CaptureSummary() {
    }

    /** Reads the captures of {@code recording}; a recording it cannot read to the end is noted, not thrown. */
    public static CaptureSummary of(Path recording) {
        CaptureSummary s = new CaptureSummary();
        try (EventStream es = EventStream.openFile(recording)) {
            es.setReuse(false);
            es.onEvent(EventNames.METHOD_CAPTURE, s::add);
            es.start();
        } catch (IOException | RuntimeException e) {
            s.problem = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        if (s.problem == null) {
            // EventStream ends quietly at most cuts inside a chunk: the chunk headers tell.
            try {
                JfrChunks chunks = JfrChunks.scan(recording);
                if (chunks.lostTail() > 0) {
                    s.problem = chunks.tailProblem();
                }
            } catch (IOException | RuntimeException e) {
                s.problem = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
        }
        return s;
    }

    private void add(RecordedEvent e) {
        String method = e.getString("method");
        PerMethod m = methods.computeIfAbsent(method == null ? "?" : method, k -> new PerMethod());
        long nanos = e.getDuration().toNanos();
        m.calls++;
        if (e.getString("thrown") != null) {
            m.threw++;
        }
        m.totalNanos += nanos;
        if (m.calls == 1 || nanos > m.maxNanos) {
            m.maxNanos = nanos;
            m.slowestArguments = e.getString("arguments");
        }
    }

    /** Number of capture events read. */
    public long captures() {
        long n = 0;
        for (PerMethod m : methods.values()) {
            n += m.calls;
        }
        return n;
    }

    /** Why the recording could not be read to the end, or null. */
    public String problem() {
        return problem;
    }

    /** Prints the section, the {@code top} methods with the most calls; nothing when there are no captures. */
    public void print(PrintWriter out, int top) {
        if (methods.isEmpty()) {
            return;
        }
        List<Map.Entry<String, PerMethod>> rows = new ArrayList<>(methods.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue().calls, a.getValue().calls));
        out.println("method captures (calls, threw, total ms, mean us, max us, arguments of the longest call):");
        for (int i = 0; i < rows.size() && i < top; i++) {
            PerMethod m = rows.get(i).getValue();
            out.printf(Locale.ROOT, "  %d %d %.3f %.1f %.1f %s %s%n", m.calls, m.threw, m.totalNanos / 1e6,
                    m.totalNanos / 1e3 / m.calls, m.maxNanos / 1e3, rows.get(i).getKey(),
                    m.slowestArguments == null ? "" : m.slowestArguments);
        }
    }

    private static final class PerMethod {
        long calls;
        long threw;
        long totalNanos;
        long maxNanos;
        String slowestArguments;
    }
}
