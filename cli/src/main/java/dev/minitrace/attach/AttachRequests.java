package dev.minitrace.attach;

import dev.minitrace.wire.AgentOptionsSyntax;
import dev.minitrace.wire.AttachRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The requests {@code mt attach} and {@code mt stop} send to the agent with
 * {@code VirtualMachine.loadAgent(jar, request)}: their values checked in the command line's words,
 * then written by the {@link AttachRequest} the agent parses.
 */
public final class AttachRequests {
    private AttachRequests() {
    }

    /**
     * {@code cmd=start} with the agent options, settings file, output file (both made absolute:
     * the target resolves them in its own folder otherwise) and optional duration.
     *
     * @throws IllegalArgumentException when a value contains a line break
     */
    public static AttachRequest start(String agentOptions, Path jfc, Path out, Duration duration) {
        Path settings = jfc.toAbsolutePath();
        Path recording = out.toAbsolutePath();
        line("--jfc", settings.toString());
        line("--out", recording.toString());
        return AttachRequest.start(line("agent options", agentOptions), settings, recording, duration);
    }

    /** {@code cmd=stop}. */
    public static AttachRequest stop() {
        return AttachRequest.stop();
    }

    /**
     * The agent options {@code include=…,exclude=…,events=…,capture=…,redact=…} written by
     * {@link AgentOptionsSyntax#format}; empty when nothing is given.
     *
     * @throws IllegalArgumentException for a filter containing a comma, or an empty redaction rule
     */
    public static String agentOptions(List<String> includes, List<String> excludes, List<String> events, List<String> captures,
            List<String> redacts) {
        String options = AgentOptionsSyntax.format(includes, excludes, events, captures, redacts);
        for (String r : redacts) {
            if (r.isBlank()) {
                throw new IllegalArgumentException("--redact: empty rule");
            }
        }
        return options;
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
