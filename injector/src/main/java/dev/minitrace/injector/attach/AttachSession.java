package dev.minitrace.injector.attach;

import dev.minitrace.events.EventNames;
import dev.minitrace.injector.AgentOptions;
import dev.minitrace.injector.TraceTransformer;
import dev.minitrace.injector.runtime.Capture;
import dev.minitrace.injector.runtime.Enablement;
import dev.minitrace.injector.runtime.TraceSettings;
import dev.minitrace.injector.runtime.TraceClock;
import dev.minitrace.injector.runtime.MethodRegistry;
import dev.minitrace.wire.AttachRequest;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * One attach of the agent to a running JVM: the transformer registered with retransformation,
 * the loaded classes it instruments, and the JFR recording named {@value #RECORDING}. The session
 * ends when {@code mt stop} asks, when the recording's duration passes, or when someone stops the
 * recording: the recording is written to its file, then every changed class gets its original
 * bytecode back (a class the JVM refuses keeps hooks that record nothing, and is named) and the
 * agent's JFR hooks are removed.
 *
 * <p>The agent's classes stay loaded by the system class loader after a session ends, so a later
 * attach of the same jar finds this class's static state: at most one session at a time, and a
 * new one can start once the previous one has ended.
 */
public final class AttachSession implements FlightRecorderListener {
    /** The name of the session's recording. */
    public static final String RECORDING = "minitrace";
    private static final String CAPTURE = EventNames.METHOD_CAPTURE;

    private static AttachSession current;

    private final Instrumenter instrumenter;
    private final Recording recording;
    private final Path out;
    private final Path partial;
    private boolean ended;
    private String outcome;

    private AttachSession(Instrumenter instrumenter, Recording recording, Path out, Path partial) {
        this.instrumenter = instrumenter;
        this.recording = recording;
        this.out = out;
        this.partial = partial;
    }

    /** The running session, or null. */
    public static synchronized AttachSession current() {
        return current;
    }

    /**
     * Starts a session.
     *
     * @return a one-line description of what was done
     * @throws IllegalArgumentException for bad options (the JVM is left untouched)
     * @throws IllegalStateException when a session already runs or a recording named minitrace exists
     */
    public static synchronized String start(AttachRequest request, Instrumentation inst) throws IOException, ParseException {
        if (current != null) {
            throw new IllegalStateException("MiniTrace is already attached to this JVM (recording to " + current.out + ")");
        }
        AgentOptions options = AgentOptions.parse(request.options());
        if (!inst.isRetransformClassesSupported()) {
            throw new IllegalStateException("this JVM cannot retransform classes");
        }
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (RECORDING.equals(r.getName()) && r.getState() != RecordingState.CLOSED) {
                throw new IllegalStateException("a recording named '" + RECORDING + "' already exists in this JVM");
            }
        }
        Path out = request.out() == null ? Path.of(RECORDING + ".jfr").toAbsolutePath() : request.out().toAbsolutePath();
        Map<String, String> settings;
        try {
            settings = new java.util.HashMap<>(request.jfc() == null ? defaultSettings()
                    : Configuration.create(request.jfc()).getSettings());
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("cannot read the settings " + request.jfc() + ": " + e.getMessage());
        }
        if (!options.captures().isEmpty() && !"false".equals(settings.get(CAPTURE + "#enabled"))) {
            // capture= asks for these events: on, with a stack trace, unless the settings say otherwise.
            settings.put(CAPTURE + "#enabled", "true");
            settings.putIfAbsent(CAPTURE + "#stackTrace", "true");
            settings.putIfAbsent(CAPTURE + "#threshold", "0 ns");
        }
        Path partial = out.resolveSibling("." + out.getFileName() + ".part");
        Files.deleteIfExists(partial);

        TraceClock.open(inst, options.stampEvery());
        TraceSettings.measureSizesWith(inst);
        TraceSettings.preferBuffered(options.bufferMethods());
        TraceSettings.watchDeaths(options.events().contains(dev.minitrace.injector.runtime.EventKind.DEATH));
        TraceTransformer transformer = new TraceTransformer(options, true);
        Instrumenter instrumenter = new Instrumenter(inst, transformer);
        Recording recording = new Recording(settings);
        recording.setName(RECORDING);
        recording.setToDisk(true);
        recording.setMaxSize(0);
        recording.setDestination(partial);
        if (request.duration() != null) {
            recording.setDuration(request.duration());
        }
        AttachSession session = new AttachSession(instrumenter, recording, out, partial);
        long t0 = System.nanoTime();
        Enablement.initializeEventClasses();
        Capture.redact(options.redaction());
        Capture.requested(!options.captures().isEmpty());
        Enablement.install();
        instrumenter.install();
        Retransformation classes;
        try {
            classes = instrumenter.instrumentLoaded();
        } catch (Throwable t) {
            transformer.setActive(false);
            instrumenter.restore();
            recording.close();
            throw t;
        }
        long t1 = System.nanoTime();
        Filters.use(instrumenter);
        FlightRecorder.addListener(session);
        RepositoryKeeping.set(true);
        recording.start();
        current = session;
        System.setProperty(AttachRequest.STATE_PROPERTY, AttachRequest.STATE_ATTACHED);
        return "tracing: " + classes.instrumented() + " in " + millis(t1 - t0) + " ms; recording '"
                + RECORDING + "' will be written to " + out;
    }

    /** Ends the running session, if any, and returns what happened. */
    public static String stop() {
        AttachSession session;
        synchronized (AttachSession.class) {
            session = current;
        }
        if (session == null) {
            throw new IllegalStateException("MiniTrace is not attached to this JVM");
        }
        return session.end();
    }

    @Override
    public void recordingStateChanged(Recording r) {
        if (r == recording && (r.getState() == RecordingState.STOPPED || r.getState() == RecordingState.CLOSED)) {
            // Not on JFR's thread, which holds the recorder's lock while it notifies.
            Thread t = new Thread(this::end, "minitrace-detach");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Writes the recording, restores the original classes and removes the hooks; idempotent. */
    synchronized String end() {
        if (ended) {
            return outcome;
        }
        ended = true;
        StringBuilder result = new StringBuilder();
        try {
            FlightRecorder.removeListener(this);
        } catch (Throwable ignored) {
            // already gone
        }
        try {
            if (recording.getState() == RecordingState.RUNNING || recording.getState() == RecordingState.DELAYED) {
                recording.stop();
            }
            recording.close();
            if (Files.exists(partial)) {
                move(partial, out);
                result.append("recording written to ").append(out);
                RepositoryKeeping.set(false); // written: the chunks need not outlive the JVM any more
            } else {
                result.append("no recording written (it was closed without being written)");
            }
        } catch (Throwable t) {
            result.append("could not write the recording: ").append(t);
        }
        long t0 = System.nanoTime();
        String restored = "restored no class";
        try {
            Filters.release(instrumenter);
            instrumenter.transformer().setActive(false); // classes loaded from now on keep their own bytes
            restored = instrumenter.restore().restored();
        } catch (Throwable t) {
            result.append("; could not restore every class: ").append(t);
        }
        long t1 = System.nanoTime();
        try {
            Enablement.uninstall();
            MethodRegistry.forgetAll();
        } catch (Throwable ignored) {
            // JFR may be shutting down
        }
        result.append("; ").append(restored).append(" in ").append(millis(t1 - t0)).append(" ms");
        outcome = result.toString();
        synchronized (AttachSession.class) {
            if (current == this) {
                current = null;
            }
        }
        System.clearProperty(AttachRequest.STATE_PROPERTY);
        System.setProperty(AttachRequest.LAST_PROPERTY, outcome);
        return outcome;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static Map<String, String> defaultSettings() {
        Map<String, String> s = new java.util.HashMap<>();
        for (String e : new String[] {EventNames.METHOD_ENTRY, EventNames.METHOD_EXIT, EventNames.LOCK_ACQUIRE,
            EventNames.LOCK_RELEASE, EventNames.OBJECT_ALLOC, EventNames.METHOD_CAPTURE}) {
            s.put(e + "#enabled", "true");
        }
        s.put(EventNames.METHOD_DEFINITION + "#enabled", "true");
        s.put(EventNames.METHOD_DEFINITION + "#period", "everyChunk");
        return s;
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
