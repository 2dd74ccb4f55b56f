package dev.minitrace.attach;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Builds the requests {@code mt} sends to the agent with {@code VirtualMachine.loadAgent(jar, request)}:
 * one {@code key=value} per line ({@code cmd}, {@code options}, {@code jfc}, {@code out},
 * {@code duration}), the format the agent's {@code AttachRequest} parses.
 */
public final class AttachRequests {
    private AttachRequests() {
    }

    /** {@code cmd=start} with the agent options, settings file, output file and optional duration. */
    public static String start(String agentOptions, Path jfc, Path out, Duration duration) {
        StringBuilder b = new StringBuilder("cmd=start\n");
        b.append("options=").append(line("agent options", agentOptions)).append('\n');
        b.append("jfc=").append(line("--jfc", jfc.toAbsolutePath().toString())).append('\n');
        b.append("out=").append(line("--out", out.toAbsolutePath().toString())).append('\n');
        if (duration != null) {
            b.append("duration=").append(duration.toMillis()).append('\n');
        }
        return b.toString();
    }

    /** {@code cmd=stop}. */
    public static String stop() {
        return "cmd=stop\n";
    }

    /**
     * The agent options {@code include=…,exclude=…,events=…,capture=…} (filters joined by {@code ;},
     * kinds by {@code +}); empty when nothing is given.
     *
     * @throws IllegalArgumentException for a filter containing a comma
     */
    public static String agentOptions(List<String> includes, List<String> excludes, List<String> events, List<String> captures) {
        return agentOptions(includes, excludes, events, captures, List.of());
    }

    /**
     * As above, plus {@code redact=…}: one redaction rule per element, its own {@code ,} and
     * {@code ;} escaped with a backslash (a pattern may contain them; the agent reads them back
     * as part of the rule).
     *
     * @throws IllegalArgumentException for a filter containing a comma, or an empty rule
     */
    public static String agentOptions(List<String> includes, List<String> excludes, List<String> events, List<String> captures,
            List<String> redacts) {
        StringBuilder b = new StringBuilder();
        append(b, "include", includes, ";");
        append(b, "exclude", excludes, ";");
        append(b, "events", events, "+");
        append(b, "capture", captures, ";");
        if (!redacts.isEmpty()) {
            List<String> rules = new java.util.ArrayList<>();
            for (String r : redacts) {
                if (r.isBlank()) {
                    throw new IllegalArgumentException("--redact: empty rule");
                }
                rules.add(r.replaceAll("(?<!\\\\)([,;])", "\\\\$1"));
            }
            b.append(b.length() > 0 ? "," : "").append("redact=").append(String.join(";", rules));
        }
        return b.toString();
    }

    private static void append(StringBuilder b, String key, List<String> values, String joiner) {
        if (values.isEmpty()) {
            return;
        }
        for (String v : values) {
            if (v.indexOf(',') >= 0) {
                throw new IllegalArgumentException("'" + v + "': use ';' (not ',') between filters");
            }
        }
        if (b.length() > 0) {
            b.append(',');
        }
        b.append(key).append('=').append(String.join(joiner, values));
    }

    private static String line(String what, String value) {
        if (value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(what + " must not contain a line break");
        }
        return value;
    }

    /**
     * Parses a duration: a number followed by {@code ms}, {@code s}, {@code m} or {@code h}
     * ({@code 30s}, {@code 5m}).
     *
     * @throws IllegalArgumentException saying what was expected
     */
    public static Duration parseDuration(String text) {
        String t = text.trim();
        String unit;
        if (t.endsWith("ms")) {
            unit = "ms";
        } else if (!t.isEmpty() && "smh".indexOf(t.charAt(t.length() - 1)) >= 0) {
            unit = t.substring(t.length() - 1);
        } else {
            throw new IllegalArgumentException("--duration '" + text + "': expected a number and a unit (500ms, 30s, 5m, 1h)");
        }
        long n;
        try {
            n = Long.parseLong(t.substring(0, t.length() - unit.length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--duration '" + text + "': expected a number and a unit (500ms, 30s, 5m, 1h)");
        }
        if (n <= 0) {
            throw new IllegalArgumentException("--duration '" + text + "': expected a positive duration");
        }
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
