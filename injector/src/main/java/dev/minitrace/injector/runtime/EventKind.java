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
    ALLOC;

    /** The word {@code events=} uses for this kind. */
    public String optionName() {
        return AgentOptionsSyntax.EVENT_KINDS.get(ordinal());
    }
}
