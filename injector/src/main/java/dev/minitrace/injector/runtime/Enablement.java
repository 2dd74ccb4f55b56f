package dev.minitrace.injector.runtime;

import dev.minitrace.events.ClassDefinitionEvent;
import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.MethodCaptureEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.util.EnumSet;
import java.util.Map;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Keeps {@link Trace}'s per-kind flags in step with JFR: recomputed when the recorder initializes
 * and on every recording state change (so a recording started by {@code -XX:StartFlightRecording}
 * before or after the agent, or later by {@code jcmd JFR.start}, turns tracing on, and stopping
 * the last one turns it off).
 *
 * <p>An event kind is on when JFR reports its type enabled, or when a running recording's
 * settings enable it (the listener may be told about a new recording before JFR has applied its
 * settings). The flag is only a fast pre-filter: the hooks still ask the event's
 * {@code shouldCommit()}, so a flag that is on a moment too long costs time, never wrong data.
 */
public final class Enablement implements FlightRecorderListener {
    private static final Enablement INSTANCE = new Enablement();

    private Enablement() {
    }

    private static boolean definitionsHooked;
    private static boolean installed;
    private static final Object INSTALL_LOCK = new Object();
    /**
     * At every chunk boundary: every thread's buffered records, then every method and class
     * definition. A class, not a lambda, as every callback premain creates: the first lambda of a
     * JVM bootstraps the lambda machinery, milliseconds of start-up an agent without a recording
     * should not cost.
     */
    private static final Runnable COMMIT_ALL = new Runnable() {
        @Override
        public void run() {
            TraceBuffers.flushAll();
            MethodRegistry.commitAll();
            ClassIds.commitAll();
            FieldRegistry.commitAll();
        }
    };
    /** Told after every update whether any MiniTrace event is on (see {@link #onChange}); null: nobody listens. */
    private static volatile java.util.function.Consumer<Boolean> changeListener;

    /**
     * Calls {@code listener} after every update of the flags with whether any trace or capture
     * event is on now, and once right away with the current state. It runs on whatever thread
     * JFR tells the change on, holding JFR's recorder lock: it must not call into JFR or wait.
     */
    public static synchronized void onChange(java.util.function.Consumer<Boolean> listener) {
        changeListener = listener;
        if (listener != null) {
            listener.accept(pendingSetup == null && (TraceSettings.methodEnabled() || TraceSettings.lockEnabled() || TraceSettings.allocEnabled() || TraceSettings.exceptionEnabled()
                    || TraceSettings.fieldEnabled() || Capture.on));
        }
    }

    /** True once JFR is initialized: before that no recording exists and no event is worth committing. */
    private static volatile boolean jfrReady;

    /** Whether JFR is initialized (so committing a definition event can matter). */
    static boolean jfrReady() {
        return jfrReady;
    }

    /**
     * Registers the listener and, once JFR is initialized (now, or when the first recording is
     * created), the periodic hook that re-commits every method definition in every chunk.
     * Registering that hook initializes JFR's event metadata, which costs start-up time, so a JVM
     * that never records does not pay for it.
     */
    public static void install() {
        // Not synchronized on the class: JFR calls update() holding its own lock, and
        // addListener below takes that lock.
        synchronized (INSTALL_LOCK) {
            if (installed) {
                return;
            }
            installed = true;
        }
        FlightRecorder.addListener(INSTANCE);
        if (FlightRecorder.isInitialized()) {
            hookDefinitions();
            update();
        }
    }

    private static synchronized void hookDefinitions() {
        if (!definitionsHooked) {
            definitionsHooked = true;
            FlightRecorder.addPeriodicEvent(MethodDefinitionEvent.class, COMMIT_ALL);
            jfrReady = true;
        }
    }

    /**
     * Initializes every MiniTrace event class now, which registers it with JFR (and initializes
     * JFR). An attached agent calls this before any hook can run: a hook that first touched an
     * event class would initialize it on an application thread, and that initialization waits
     * for JFR's metadata lock — which a thread registering another event class holds while it
     * defines classes, and so runs transformers that may be traced code needing the same class.
     */
    public static void initializeEventClasses() {
        Class<?>[] events = {MethodEntryEvent.class, MethodExitEvent.class, MethodBufferEvent.class, ClassDefinitionEvent.class, LockAcquireEvent.class, LockReleaseEvent.class,
            ObjectAllocEvent.class, dev.minitrace.events.ArrayLengthEvent.class, MethodCaptureEvent.class, MethodDefinitionEvent.class,
            dev.minitrace.events.ExceptionThrowEvent.class, dev.minitrace.events.ExceptionHandledEvent.class,
            dev.minitrace.events.ReferenceStoreEvent.class, dev.minitrace.events.FieldDefinitionEvent.class,
            dev.minitrace.events.ObjectDeathEvent.class, dev.minitrace.events.MethodReceiverEvent.class};
        for (Class<?> c : events) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("minitrace agent jar is incomplete: " + c.getName(), e);
            }
        }
    }

    /**
     * Undoes {@link #install} when an attached agent detaches: the listener and the periodic hook
     * go, and every hook is switched off. A later {@link #install} sets them up again.
     */
    public static void uninstall() {
        synchronized (INSTALL_LOCK) {
            if (!installed) {
                return;
            }
            installed = false;
        }
        FlightRecorder.removeListener(INSTANCE);
        boolean hooked;
        synchronized (Enablement.class) {
            hooked = definitionsHooked;
            definitionsHooked = false;
        }
        if (hooked) {
            FlightRecorder.removePeriodicEvent(COMMIT_ALL);
        }
        synchronized (Enablement.class) {
            TraceSettings.setEnabled(EnumSet.noneOf(EventKind.class), Trace.records);
            Capture.setEnabled(false);
        }
    }

    @Override
    public void recorderInitialized(FlightRecorder recorder) {
        try {
            hookDefinitions();
        } catch (Throwable t) {
            jfrReady = true;
            System.err.println("minitrace: cannot register the method definition hook: " + t);
        }
        update();
    }

    @Override
    public void recordingStateChanged(Recording recording) {
        update();
    }

    /**
     * Runs {@code setup} at the start of the first {@link #update}, before any flag is computed
     * (premain leaves loading the hooks to the first recording); until it has run, nothing is on.
     * Until it succeeds, every update tries it again and leaves tracing off.
     */
    public static synchronized void beforeFirstUpdate(Runnable setup) {
        pendingSetup = setup;
    }

    private static Runnable pendingSetup;

    /** Recomputes the flags from JFR's current state. */
    public static synchronized void update() {
        try {
            Runnable setup = pendingSetup;
            if (setup != null) {
                setup.run();
                pendingSetup = null;
            }
            java.util.List<Recording> running = new java.util.ArrayList<>();
            if (FlightRecorder.isInitialized()) {
                for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                    if (r.getState() == RecordingState.RUNNING) {
                        running.add(r);
                    }
                }
            }
            boolean bufferOn = on(MethodBufferEvent.class, MethodBufferEvent.NAME, running);
            boolean method = on(MethodEntryEvent.class, MethodEntryEvent.NAME, running)
                    || on(MethodExitEvent.class, MethodExitEvent.NAME, running) || bufferOn;
            // Buffered records need the MethodBuffer event and JFR's tick counter; otherwise one
            // event per entry and exit, as a profile without minitrace.MethodBuffer asks.
            boolean buffer = method && bufferOn && TraceSettings.preferBuffered && TraceClock.ready();
            boolean lock = on(LockAcquireEvent.class, LockAcquireEvent.NAME, running)
                    || on(LockReleaseEvent.class, LockReleaseEvent.NAME, running);
            boolean alloc = on(ObjectAllocEvent.class, ObjectAllocEvent.NAME, running);
            boolean exception = on(dev.minitrace.events.ExceptionThrowEvent.class, dev.minitrace.events.ExceptionThrowEvent.NAME, running)
                    || on(dev.minitrace.events.ExceptionHandledEvent.class, dev.minitrace.events.ExceptionHandledEvent.NAME, running);
            boolean field = on(dev.minitrace.events.ReferenceStoreEvent.class, dev.minitrace.events.ReferenceStoreEvent.NAME, running);
            EnumSet<EventKind> kinds = EnumSet.noneOf(EventKind.class);
            if (exception) {
                kinds.add(EventKind.EXCEPTION);
            }
            if (field) {
                kinds.add(EventKind.FIELD);
            }
            if (method && on(dev.minitrace.events.MethodReceiverEvent.class, dev.minitrace.events.MethodReceiverEvent.NAME, running)) {
                kinds.add(EventKind.RECEIVER);
            }
            // deaths only of recorded allocations: the allocation event must be on too
            boolean death = alloc && TraceSettings.deathsWanted && on(dev.minitrace.events.ObjectDeathEvent.class, dev.minitrace.events.ObjectDeathEvent.NAME, running);
            if (death) {
                ObjectDeaths.start();
                kinds.add(EventKind.DEATH);
            }
            if (method) {
                kinds.add(EventKind.METHOD);
            }
            if (lock) {
                kinds.add(EventKind.LOCK);
            }
            if (alloc) {
                kinds.add(EventKind.ALLOC);
            }
            TraceSettings.setEnabled(kinds, buffer ? Records.PACKED : Records.EVENTS);
            boolean capture = on(MethodCaptureEvent.class, MethodCaptureEvent.NAME, running);
            Capture.setEnabled(capture);
            if (!capture && !running.isEmpty()) {
                Capture.noRecordingEnables();
            }
            java.util.function.Consumer<Boolean> listener = changeListener;
            if (listener != null) {
                listener.accept(method || lock || alloc || exception || field || capture);
            }
        } catch (Throwable t) {
            // Never let a listener failure reach JFR; keep the previous flags.
        }
    }

    private static boolean on(Class<? extends Event> type, String name, java.util.List<Recording> running) {
        if (running.isEmpty()) {
            return false;
        }
        if (EventType.getEventType(type).isEnabled()) {
            return true;
        }
        for (Recording r : running) {
            Map<String, String> settings = r.getSettings();
            if ("true".equals(settings.get(name + "#enabled"))) {
                return true;
            }
        }
        return false;
    }
}
