package dev.minitrace.launch;

import dev.minitrace.wire.AgentOptionsSyntax;
import java.util.List;
import java.util.Set;

/**
 * The option string of {@code -javaagent:minitrace-agent.jar=OPTIONS} for {@code mt run}: its
 * options checked in its own words, then written by {@link AgentOptionsSyntax}, which the agent's
 * parser shares.
 */
public final class AgentOptions {
    /** The values {@code events=} accepts. */
    public static final Set<String> EVENT_KINDS = Set.copyOf(AgentOptionsSyntax.EVENT_KINDS);

    private AgentOptions() {
    }

    /**
     * {@code include=F1;F2,exclude=F3,events=method+lock}: filters in JEP 520's syntax joined by
     * {@code ;}, event kinds joined by {@code +}, key=value pairs joined by {@code ,}; a key with
     * no values is left out (the agent's default applies). Empty when nothing is given.
     *
     * @throws IllegalArgumentException with a one-line message for a value the agent's syntax
     *         cannot carry (a comma in a filter) or an unknown event kind
     */
    public static String format(List<String> includes, List<String> excludes, List<String> events) {
        return AgentOptionsSyntax.format(filters("--include", includes), filters("--exclude", excludes), eventKinds(events),
                List.of(), List.of());
    }

    private static List<String> filters(String option, List<String> values) {
        for (String v : values) {
            if (v.isBlank()) {
                throw new IllegalArgumentException(option + ": empty filter");
            }
            if (v.indexOf(',') >= 0) {
                throw new IllegalArgumentException(option + " '" + v + "': use ';' (not ',') between filters");
            }
        }
        return values;
    }

    private static List<String> eventKinds(List<String> values) {
        for (String v : values) {
            if (!EVENT_KINDS.contains(v)) {
                throw new IllegalArgumentException("--events: unknown kind '" + v + "' (expected method, lock, alloc, exception, field, death or receiver)");
            }
        }
        return values;
    }
}
