package dev.minitrace.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent option string, {@code -javaagent:minitrace-agent.jar=OPTIONS} and the {@code options=}
 * line of an {@link AttachRequest}: {@code key=value} options joined by {@value #OPTION_SEPARATOR},
 * filters and redaction rules joined by {@value #LIST_SEPARATOR}, event kinds by
 * {@value #EVENT_SEPARATOR}. {@code mt run} and {@code mt attach} write it with {@link #format},
 * the agent's {@code AgentOptions.parse} reads it with the keys and splitters here; the full
 * syntax, with the values each key takes, is in {@code docs/agent.md}.
 */
public final class AgentOptionsSyntax {
    /** {@code include=FILTERS}: trace only matching methods. */
    public static final String INCLUDE = "include";
    /** {@code exclude=FILTERS}: never trace matching methods. */
    public static final String EXCLUDE = "exclude";
    /** {@code events=KINDS}: what to instrument, a subset of {@link #EVENT_KINDS}. */
    public static final String EVENTS = "events";
    /** {@code capture=FILTERS}: record the calls of matching methods with their values. */
    public static final String CAPTURE = "capture";
    /** {@code methods=buffer|events}: packed records (default) or one event per method record. */
    public static final String METHODS = "methods";
    /** {@code stamp=tick|every}: read the clock when a record's time could matter (default) or always. */
    public static final String STAMP = "stamp";
    /** {@code redact=RULES}: what captures never write. */
    public static final String REDACT = "redact";
    /** {@code alloc-scope=traced|all}: allocations of traced methods only (default), or of every method the JVM runs, the JDK's included. */
    public static final String ALLOC_SCOPE = "alloc-scope";
    /** {@code verbose}: name every instrumented class on stderr (no value). */
    public static final String VERBOSE = "verbose";
    /** Every key; all but {@link #VERBOSE} take a value after {@code =}. */
    public static final List<String> KEYS = List.of(INCLUDE, EXCLUDE, EVENTS, CAPTURE, METHODS, STAMP, REDACT, ALLOC_SCOPE, VERBOSE);

    /** The event kinds {@code events=} accepts, in the order of their bits (1, 2, 4, 8, 16, 32, 64). */
    public static final List<String> EVENT_KINDS = List.of("method", "lock", "alloc", "exception", "field", "death", "receiver");
    /** The kinds instrumented when {@code events=} is not given (exceptions and stores are opt-in). */
    public static final List<String> DEFAULT_EVENT_KINDS = List.of("method", "lock", "alloc");

    /** Between options; inside a redaction rule it is escaped with a backslash. */
    public static final char OPTION_SEPARATOR = ',';
    /** Between filters and between redaction rules (escaped with a backslash inside a rule). */
    public static final char LIST_SEPARATOR = ';';
    /** Between event kinds. */
    public static final char EVENT_SEPARATOR = '+';

    private AgentOptionsSyntax() {
    }

    /**
     * {@code include=F1;F2,exclude=F3,events=method+lock,capture=F4,redact=R1;R2}: a key with no
     * values is left out (the agent's default applies); empty when nothing is given. Each
     * redaction rule keeps its own {@code ,} and {@code ;} behind a backslash.
     *
     * @throws IllegalArgumentException for a filter containing a comma (it would start another option)
     */
    public static String format(List<String> includes, List<String> excludes, List<String> events, List<String> captures,
            List<String> redacts) {
        StringBuilder b = new StringBuilder();
        append(b, INCLUDE, filters(includes), LIST_SEPARATOR);
        append(b, EXCLUDE, filters(excludes), LIST_SEPARATOR);
        append(b, EVENTS, filters(events), EVENT_SEPARATOR);
        append(b, CAPTURE, filters(captures), LIST_SEPARATOR);
        List<String> rules = new ArrayList<>();
        for (String r : redacts) {
            rules.add(escapeRule(r));
        }
        append(b, REDACT, rules, LIST_SEPARATOR);
        return b.toString();
    }

    private static List<String> filters(List<String> values) {
        for (String v : values) {
            if (v.indexOf(OPTION_SEPARATOR) >= 0) {
                throw new IllegalArgumentException("'" + v + "': use ';' (not ',') between filters");
            }
        }
        return values;
    }

    private static void append(StringBuilder b, String key, List<String> values, char joiner) {
        if (values.isEmpty()) {
            return;
        }
        if (b.length() > 0) {
            b.append(OPTION_SEPARATOR);
        }
        b.append(key).append('=').append(String.join(String.valueOf(joiner), values));
    }

    // The splitters below are loops, not regular expressions: the agent runs them in premain,
    // before the application's main, where compiling a pattern costs start-up time.

    /** {@code rule} with every {@code ,} and {@code ;} not yet behind a backslash put behind one. */
    public static String escapeRule(String rule) {
        StringBuilder b = new StringBuilder(rule.length() + 8);
        for (int i = 0; i < rule.length(); i++) {
            char c = rule.charAt(i);
            if ((c == OPTION_SEPARATOR || c == LIST_SEPARATOR) && !escaped(rule, i)) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /** The options of {@code text}, split at each {@value #OPTION_SEPARATOR} that no backslash escapes. */
    public static String[] splitOptions(String text) {
        List<String> options = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == OPTION_SEPARATOR && !escaped(text, i)) {
                options.add(text.substring(from, i));
                from = i + 1;
            }
        }
        return options.toArray(new String[0]);
    }

    /** The event kinds of an {@code events=} value, split at each {@value #EVENT_SEPARATOR} or {@value #LIST_SEPARATOR}, untrimmed. */
    public static List<String> splitEvents(String value) {
        List<String> kinds = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.charAt(i) == EVENT_SEPARATOR || value.charAt(i) == LIST_SEPARATOR) {
                kinds.add(value.substring(from, i));
                from = i + 1;
            }
        }
        return kinds;
    }

    /** Whether the char at {@code i} follows a backslash. */
    private static boolean escaped(String text, int i) {
        return i > 0 && text.charAt(i - 1) == '\\';
    }

    /**
     * The rules of a {@code redact=} value, split at each {@value #LIST_SEPARATOR} that no
     * backslash escapes, trimmed; escapes stay in place (the rule's parser reads them).
     */
    public static List<String> splitRules(String value) {
        List<String> rules = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.charAt(i) == LIST_SEPARATOR && !escaped(value, i)) {
                rules.add(value.substring(from, i).trim());
                from = i + 1;
            }
        }
        return rules;
    }
}
