package dev.minitrace.junit;

import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.views.diff.CountedTrace;
import dev.minitrace.views.diff.DiffBy;
import dev.minitrace.views.diff.MethodFilter;
import dev.minitrace.views.diff.TraceCounts;
import dev.minitrace.views.diff.TraceDiff;
import dev.minitrace.wire.AttachRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * One trace of a test: a JFR recording with MiniTrace's settings ({@code minitrace.jfc}) started in
 * the test JVM, stopped (which makes the agent hand over every thread's buffered records), written
 * to a temporary file, and counted by {@code mt diff}'s own {@link TraceCounts}, which the methods
 * the test names filter.
 */
final class TraceSession {
    private static final String SETTINGS = "/dev/minitrace/jfc/minitrace.jfc";
    /** The agent's rewriting strategy (docs/agent.md): eager rewrites every selected class as it loads. */
    static final String EAGER_PROPERTY = "minitrace.rewrite";

    private final BiPredicate<String, String> filter;
    private final Recording recording;
    private final Path file;

    private TraceSession(BiPredicate<String, String> filter, Recording recording, Path file) {
        this.filter = filter;
        this.recording = recording;
        this.file = file;
    }

    /** Starts a trace of the methods {@code filters} names (the agent's filter syntax). */
    static TraceSession start(String[] filters) throws IOException {
        if (System.getProperty(AttachRequest.STATE_PROPERTY) == null) {
            throw new IllegalStateException("@Traced needs the MiniTrace agent in the test JVM: run it with"
                    + " -javaagent:minitrace-agent.jar=include=... (Surefire's argLine; docs/junit.md)");
        }
        if (!"eager".equals(System.getProperty(EAGER_PROPERTY))) {
            // Otherwise classes loaded before the trace are rewritten on a worker thread after it
            // starts, and what they run meanwhile is missing from the counts.
            throw new IllegalStateException("@Traced needs the agent to rewrite classes as they load: run the test JVM with -D"
                    + EAGER_PROPERTY + "=eager (docs/junit.md)");
        }
        BiPredicate<String, String> filter = MethodFilter.of(List.of(filters), List.of());
        Configuration settings;
        try (InputStream in = TraceSession.class.getResourceAsStream(SETTINGS)) {
            if (in == null) {
                throw new IOException(SETTINGS + " is not on the class path (minitrace-jfc-profiles)");
            }
            try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                settings = Configuration.create(r);
            }
        } catch (ParseException e) {
            throw new IOException(SETTINGS + ": " + e.getMessage(), e);
        }
        Path file = Files.createTempFile("minitrace-junit-", ".jfr");
        Recording recording = new Recording(settings);
        recording.setName("minitrace-junit");
        recording.setToDisk(true);
        recording.setDestination(file);
        recording.start();
        return new TraceSession(filter, recording, file);
    }

    /** Stops the trace and counts it. */
    ExactCounts stop() throws IOException {
        try {
            recording.stop();
            recording.close();
            CountedTrace counted = CountedTrace.ofRecording(file, null, 0, Engines.byName(Engines.DEFAULT),
                    file.toAbsolutePath().getParent(), null);
            if (counted.lostData()) {
                throw new IOException("the trace lost data: " + String.join("; ", counted.warnings()));
            }
            return counts(counted.counts());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Stops the trace without counting it. */
    void abandon() {
        try {
            recording.close();
            Files.deleteIfExists(file);
        } catch (IOException | RuntimeException e) {
            // the test's own failure is what matters
        }
    }

    private ExactCounts counts(TraceCounts trace) {
        TraceCounts none = TraceCounts.none();
        TraceDiff methods = TraceDiff.of(DiffBy.METHOD, none, trace, filter);
        Map<String, ExactCounts.MethodCounts> m = new HashMap<>();
        for (int r : methods.rows(false)) {
            m.put(methods.label(r), new ExactCounts.MethodCounts(methods.next(r, 0), methods.next(r, 1), methods.next(r, 2),
                    methods.next(r, 3)));
        }
        return new ExactCounts(m, byClass(TraceDiff.of(DiffBy.ALLOC, none, trace, filter)), byClass(TraceDiff.of(DiffBy.LOCK, none,
                trace, filter)));
    }

    private static Map<String, Long> byClass(TraceDiff d) {
        Map<String, Long> m = new HashMap<>();
        for (int r : d.rows(false)) {
            m.merge(d.key(r).get(0), d.next(r, 0), Long::sum);
        }
        return m;
    }
}
