package dev.minitrace.injector.attach;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code mt} asks of the agent it loads into a running JVM: the argument of
 * {@code VirtualMachine.loadAgent(jar, args)}, one {@code key=value} per line.
 * <pre>
 *   cmd=start|stop          what to do
 *   reply=TOKEN             the answer goes to the system property minitrace.reply.TOKEN
 *   options=AGENT_OPTIONS   start: the agent options (include=, exclude=, events=, capture=, redact=, verbose)
 *   jfc=FILE                start: the recording's settings (absent: every minitrace event on)
 *   out=FILE                start: where the recording is written when tracing ends
 *   duration=MILLIS         start: end by itself after this long (absent or 0: until stopped)
 * </pre>
 * Lines, not commas, separate the keys, because agent options and paths contain commas.
 *
 * @param command {@code start} or {@code stop}
 * @param reply the reply token (never null; may be empty)
 * @param options agent options (may be empty)
 * @param jfc settings file or null
 * @param out recording file or null
 * @param duration how long to trace, or null for "until stopped"
 */
public record AttachRequest(String command, String reply, String options, Path jfc, Path out, Duration duration) {
    /** The prefix that tells an attach request from plain agent options. */
    public static final String PREFIX = "cmd=";

    /**
     * Parses a request.
     *
     * @throws IllegalArgumentException naming the bad line
     */
    public static AttachRequest parse(String text) {
        String command = null;
        String reply = "";
        String options = "";
        Path jfc = null;
        Path out = null;
        Duration duration = null;
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("attach request line '" + line + "': expected key=value");
            }
            String key = line.substring(0, eq);
            String value = line.substring(eq + 1);
            switch (key) {
                case "cmd" -> command = value;
                case "reply" -> reply = value;
                case "options" -> options = value;
                case "jfc" -> jfc = Path.of(value);
                case "out" -> out = Path.of(value);
                case "duration" -> {
                    long ms = Long.parseLong(value);
                    duration = ms > 0 ? Duration.ofMillis(ms) : null;
                }
                default -> throw new IllegalArgumentException("attach request: unknown key '" + key + "'");
            }
        }
        if (!"start".equals(command) && !"stop".equals(command)) {
            throw new IllegalArgumentException("attach request: cmd=" + command + "; expected start or stop");
        }
        return new AttachRequest(command, reply, options, jfc, out, duration);
    }
}
