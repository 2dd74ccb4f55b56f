package dev.minitrace.injector.runtime;

import java.util.Set;

/**
 * The settings of the hooks in {@link Trace}: the agent options they follow and the switch that
 * turns each event kind on or off ({@link Enablement} calls it). The flags themselves stay in
 * {@code Trace}, beside the hooks that read them on every call.
 */
public final class TraceSettings {
    /** The agent's choice ({@code methods=}); {@link Enablement} chooses packed records when JFR allows. */
    static volatile boolean preferBuffered = true;

    private TraceSettings() {
    }

    /** Whether method records go to per-thread buffers now (for tests and verbose output). */
    public static boolean bufferedMethods() {
        return Trace.records == Records.PACKED;
    }

    /** Whether the agent options ask for object deaths ({@code events=…+death}); only then does a recording get them. */
    static volatile boolean deathsWanted;

    /** Lets the class definitions carry the JVM's shallow sizes of allocated objects ({@link ObjectSizes}). */
    public static void measureSizesWith(java.lang.instrument.Instrumentation inst) {
        ObjectSizes.use(inst);
    }

    /** The agent option {@code events=…+death}. */
    public static void watchDeaths(boolean wanted) {
        deathsWanted = wanted;
    }

    /** The agent option {@code methods=}: buffered records (true) or one event per entry and exit. */
    public static void preferBuffered(boolean buffer) {
        preferBuffered = buffer;
    }

    /**
     * Switches tracing of {@code kinds} on and every other kind off, records going to {@code form};
     * called by {@link Enablement}. The form is written before the flags, which the hooks read
     * first.
     */
    static void setEnabled(Set<EventKind> kinds, Records form) {
        Trace.records = form;
        boolean method = kinds.contains(EventKind.METHOD);
        if (method != Trace.methodOn) {
            Trace.epoch++;
        }
        Trace.packedEpoch = form == Records.PACKED ? Trace.epoch : -1;
        Trace.methodOn = method;
        Trace.lockOn = kinds.contains(EventKind.LOCK);
        Trace.allocOn = kinds.contains(EventKind.ALLOC);
        Trace.exceptionOn = kinds.contains(EventKind.EXCEPTION);
        Trace.fieldOn = kinds.contains(EventKind.FIELD);
        Trace.deathOn = kinds.contains(EventKind.DEATH);
        Trace.receiverOn = kinds.contains(EventKind.RECEIVER);
    }

    /** Whether exception events are currently enabled. */
    public static boolean exceptionEnabled() {
        return Trace.exceptionOn;
    }

    /** Whether reference store events are currently enabled. */
    public static boolean fieldEnabled() {
        return Trace.fieldOn;
    }

    /** Whether method events are currently enabled (for tests and verbose output). */
    public static boolean methodEnabled() {
        return Trace.methodOn;
    }

    /** Whether lock events are currently enabled. */
    public static boolean lockEnabled() {
        return Trace.lockOn;
    }

    /** Whether allocation events are currently enabled. */
    public static boolean allocEnabled() {
        return Trace.allocOn;
    }
}
