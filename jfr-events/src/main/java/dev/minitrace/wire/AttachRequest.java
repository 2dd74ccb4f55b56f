package dev.minitrace.wire;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code mt} asks of the agent it loads into a running JVM, and how the agent answers: the
 * argument of {@code VirtualMachine.loadAgent(jar, args)}, one {@code key=value} per line. The
 * command line writes it with {@link #text()}, the agent reads it with {@link #parse}.
 * <pre>
 *   cmd=start|stop          what to do
 *   options=AGENT_OPTIONS   start: the agent options ({@link AgentOptionsSyntax})
 *   jfc=FILE                start: the recording's settings (absent: every minitrace event on)
 *   out=FILE                start: where the recording is written when tracing ends
 *   duration=MILLIS         start: end by itself after this long (absent or 0: until stopped)
 *   reply=TOKEN             the answer goes to the system property {@value #REPLY_PROPERTY_PREFIX}TOKEN
 * </pre>
 * Lines, not commas, separate the keys, because agent options and paths contain commas. The answer
 * is {@value #OK}TEXT or {@value #ERROR}MESSAGE on one line. While the agent is loaded the target's
 * system property {@value #STATE_PROPERTY} is {@value #STATE_ATTACHED} or {@value #STATE_PREMAIN};
 * {@value #LAST_PROPERTY} says how the last attach session ended.
 *
 * @param command {@link #START} or {@link #STOP}
 * @param reply the reply token (never null; may be empty)
 * @param options agent options (may be empty)
 * @param jfc settings file or null
 * @param out recording file or null
 * @param duration how long to trace, or null for "until stopped"
 */
public record AttachRequest(String command, String reply, String options, Path jfc, Path out, Duration duration) {
    /** The prefix that tells an attach request from plain agent options. */
    public static final String PREFIX = "cmd=";
    /** Starts an attach session. */
    public static final String START = "start";
    /** Ends the attach session. */
    public static final String STOP = "stop";
    /** The system property {@code PREFIX + reply token} carries the agent's answer. */
    public static final String REPLY_PROPERTY_PREFIX = "minitrace.reply.";
    /** An answer that starts with this succeeded; the rest says what was done. */
    public static final String OK = "ok ";
    /** An answer that starts with this failed; the rest is a one-line message. */
    public static final String ERROR = "error ";
    /** The target's system property that is set while the agent is loaded. */
    public static final String STATE_PROPERTY = "minitrace.agent";
    /** {@link #STATE_PROPERTY} during an attach session. */
    public static final String STATE_ATTACHED = "attached";
    /** {@link #STATE_PROPERTY} when the agent was started with {@code -javaagent} (no attach session possible). */
    public static final String STATE_PREMAIN = "premain";
    /** The target's system property describing how the last attach session ended. */
    public static final String LAST_PROPERTY = "minitrace.last";

    /** Compact form: null text becomes empty. */
    public AttachRequest {
        reply = reply == null ? "" : reply;
        options = options == null ? "" : options;
    }

    /** {@code cmd=start} with the agent options, settings file, output file and duration (null: until stopped). */
    public static AttachRequest start(String options, Path jfc, Path out, Duration duration) {
        return new AttachRequest(START, "", options, jfc, out, duration);
    }

    /** {@code cmd=stop}. */
    public static AttachRequest stop() {
        return new AttachRequest(STOP, "", "", null, null, null);
    }

    /** This request with the answer going to reply token {@code token}. */
    public AttachRequest withReply(String token) {
        return new AttachRequest(command, token, options, jfc, out, duration);
    }

    /**
     * The request as the agent reads it: the keys that have a value, one per line.
     *
     * @throws IllegalArgumentException when a value contains a line break (it would end its line)
     */
    public String text() {
        StringBuilder b = new StringBuilder();
        line(b, "cmd", command);
        if (!options.isEmpty()) {
            line(b, "options", options);
        }
        if (jfc != null) {
            line(b, "jfc", jfc.toString());
        }
        if (out != null) {
            line(b, "out", out.toString());
        }
        if (duration != null) {
            line(b, "duration", Long.toString(duration.toMillis()));
        }
        if (!reply.isEmpty()) {
            line(b, "reply", reply);
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String key, String value) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("attach request: " + key + " must not contain a line break");
        }
        b.append(key).append('=').append(value).append('\n');
    }

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
        if (!START.equals(command) && !STOP.equals(command)) {
            throw new IllegalArgumentException("attach request: cmd=" + command + "; expected start or stop");
        }
        return new AttachRequest(command, reply, options, jfc, out, duration);
    }
}
