package dev.minitrace.launch;

import java.util.List;
import java.util.Set;

/**
 * The option string of {@code -javaagent:minitrace-agent.jar=OPTIONS}. Keeping the whole mapping
 * from {@code mt run}'s options to the agent's syntax in {@link #format} means a change of the
 * agent's syntax touches one method.
 */
public final class AgentOptions {
    /** The values {@code events=} accepts. */
    public static final Set<String> EVENT_KINDS = Set.of("method", "lock", "alloc");

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
        StringBuilder sb = new StringBuilder();
        append(sb, "include", filters("--include", includes), ";");
        append(sb, "exclude", filters("--exclude", excludes), ";");
        append(sb, "events", eventKinds(events), "+");
        return sb.toString();
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
                throw new IllegalArgumentException("--events: unknown kind '" + v + "' (expected method, lock or alloc)");
            }
        }
        return values;
    }

    private static void append(StringBuilder sb, String key, List<String> values, String joiner) {
        if (values.isEmpty()) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(',');
        }
        sb.append(key).append('=').append(String.join(joiner, values));
    }
}
