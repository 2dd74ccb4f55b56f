package dev.minitrace.injector.runtime;

import dev.minitrace.wire.AgentOptionsSyntax;

/**
 * What the agent instruments and traces: the agent option {@code events=} names a set of these,
 * the class rewriter instruments the sites of the kinds in it, and {@link Trace} records the kinds
 * a running recording enables.
 */
public enum EventKind {
    /** Method entries and exits (minitrace.MethodEntry/MethodExit, or packed records). */
    METHOD,
    /** Monitor acquires and releases, synchronized methods included. */
    LOCK,
    /** Object allocations. */
    ALLOC,
    /** Exceptions thrown by {@code athrow} and exception handlers entered (opt-in). */
    EXCEPTION,
    /** Reference stores to fields and array elements, with old and new target (opt-in). */
    FIELD,
    /** Deaths of the objects whose allocation is recorded (opt-in; implies {@link #ALLOC}). */
    DEATH,
    /** The receiver of every instance method entered (opt-in, an identity hash per call; implies {@link #METHOD}). */
    RECEIVER;

    /** The kinds instrumented when the agent options name none. */
    public static java.util.Set<EventKind> defaults() {
        java.util.Set<EventKind> kinds = java.util.EnumSet.noneOf(EventKind.class);
        for (String name : AgentOptionsSyntax.DEFAULT_EVENT_KINDS) {
            kinds.add(values()[AgentOptionsSyntax.EVENT_KINDS.indexOf(name)]);
        }
        return kinds;
    }

    /** The word {@code events=} uses for this kind. */
    public String optionName() {
        return AgentOptionsSyntax.EVENT_KINDS.get(ordinal());
    }
}
