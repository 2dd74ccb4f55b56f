package dev.minitrace.injector;

import dev.minitrace.wire.filter.Filter;
import dev.minitrace.injector.filter.MethodSelector;
import dev.minitrace.injector.runtime.EventKind;
import dev.minitrace.injector.runtime.Redaction;
import dev.minitrace.wire.AgentOptionsSyntax;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The parsed agent options. Syntax (keys and separators: {@link AgentOptionsSyntax}, which the
 * command line formats with; see {@link Agent} and {@code docs/agent.md}):
 * <pre>
 *   option[,option...]      option = include=FILTERS | exclude=FILTERS | events=EVENTS | capture=FILTERS
 *                                    | methods=buffer|events | stamp=tick|every | redact=RULES | alloc-scope=traced|all | verbose
 *   FILTERS = filter[;filter...]   EVENTS = event[+event...]  (event = method | lock | alloc)
 *   RULES = rule[;rule...]         (see {@link Redaction}; a {@code \,} stays part of the rule)
 * </pre>
 * A {@code ,} starts a new option only when the text after it starts with a known key
 * ({@code include=}, {@code exclude=}, {@code events=}, {@code verbose}); otherwise it continues the
 * previous option's value as one more filter, event or redaction rule, so {@code events=method,lock} and
 * {@code include=a.B,c.D} also work. Each key may be given once.
 *
 * @param includes include filters (empty: every eligible class)
 * @param excludes exclude filters
 * @param events the kinds to instrument ({@code events=}; default all)
 * @param verbose log what is instrumented on stderr
 * @param captures filters of the methods whose calls are captured (minitrace.MethodCapture); empty: none
 * @param bufferMethods record method entries and exits as packed per-thread records
 *        ({@code minitrace.MethodBuffer}, the default) rather than one event each
 * @param stampEvery read the clock for every buffered record, not only when its time could matter
 * @param redaction what captures never write (the defaults unless {@code redact=} says otherwise)
 * @param allocAll {@code alloc-scope=all}: record the allocations of every method the JVM runs,
 *        the JDK's included, not only those of traced methods
 */
public record AgentOptions(List<Filter> includes, List<Filter> excludes, Set<EventKind> events, boolean verbose,
        List<Filter> captures, boolean bufferMethods, boolean stampEvery, Redaction redaction, boolean allocAll) {

    private static final String INCLUDE = AgentOptionsSyntax.INCLUDE + "=";
    private static final String EXCLUDE = AgentOptionsSyntax.EXCLUDE + "=";
    private static final String CAPTURE = AgentOptionsSyntax.CAPTURE + "=";
    private static final String EVENTS = AgentOptionsSyntax.EVENTS + "=";
    private static final String METHODS = AgentOptionsSyntax.METHODS + "=";
    private static final String STAMP = AgentOptionsSyntax.STAMP + "=";
    private static final String REDACT = AgentOptionsSyntax.REDACT + "=";
    private static final String ALLOC_SCOPE = AgentOptionsSyntax.ALLOC_SCOPE + "=";
    private static final String EXPECTED = "expected include=FILTERS, exclude=FILTERS, events=EVENTS, capture=FILTERS, "
            + "methods=buffer|events, stamp=tick|every, redact=RULES, alloc-scope=traced|all or verbose";

    /** Compact form: the kinds as an unmodifiable set. */
    public AgentOptions {
        events = events.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(events));
    }

    /** The defaults: everything, all events, quiet, packed method records, default redaction. */
    public static AgentOptions defaults() {
        return new AgentOptions(List.of(), List.of(), EventKind.defaults(), false, List.of(), true, false,
                Redaction.defaults(), false);
    }

    /** The selector of captured methods, or null when nothing is captured. */
    public MethodSelector captureSelector() {
        return captures.isEmpty() ? null : new MethodSelector(captures, List.of());
    }

    /** The method selector for these filters. */
    public MethodSelector selector() {
        return new MethodSelector(includes, excludes);
    }

    /**
     * Parses the agent argument string (null or empty: defaults).
     *
     * @throws IllegalArgumentException whose message names the bad option and what was expected
     */
    public static AgentOptions parse(String args) {
        if (args == null || args.isBlank()) {
            return defaults();
        }
        List<String> options = splitOptions(args);
        List<Filter> includes = null;
        List<Filter> excludes = null;
        List<Filter> captures = null;
        Set<EventKind> events = null;
        boolean verbose = false;
        Boolean buffer = null;
        Boolean every = null;
        List<String> redact = null;
        Boolean allocAll = null;
        for (String option : options) {
            if (option.startsWith(INCLUDE)) {
                if (includes != null) {
                    throw new IllegalArgumentException("option 'include=' given twice; expected it at most once (join filters with ';')");
                }
                includes = parseFilters(AgentOptionsSyntax.INCLUDE, option.substring(INCLUDE.length()));
            } else if (option.startsWith(EXCLUDE)) {
                if (excludes != null) {
                    throw new IllegalArgumentException("option 'exclude=' given twice; expected it at most once (join filters with ';')");
                }
                excludes = parseFilters(AgentOptionsSyntax.EXCLUDE, option.substring(EXCLUDE.length()));
            } else if (option.startsWith(CAPTURE)) {
                if (captures != null) {
                    throw new IllegalArgumentException("option 'capture=' given twice; expected it at most once (join filters with ';')");
                }
                captures = parseFilters(AgentOptionsSyntax.CAPTURE, option.substring(CAPTURE.length()));
            } else if (option.startsWith(EVENTS)) {
                if (events != null) {
                    throw new IllegalArgumentException("option 'events=' given twice; expected it at most once (join events with '+')");
                }
                events = parseEvents(option.substring(EVENTS.length()));
            } else if (option.startsWith(METHODS)) {
                if (buffer != null) {
                    throw new IllegalArgumentException("option 'methods=' given twice; expected it at most once");
                }
                buffer = choice(option, AgentOptionsSyntax.METHODS, "buffer", "events");
            } else if (option.startsWith(STAMP)) {
                if (every != null) {
                    throw new IllegalArgumentException("option 'stamp=' given twice; expected it at most once");
                }
                every = !choice(option, AgentOptionsSyntax.STAMP, "tick", "every");
            } else if (option.startsWith(REDACT)) {
                if (redact != null) {
                    throw new IllegalArgumentException("option 'redact=' given twice; expected it at most once (join rules with ';')");
                }
                redact = splitRules(option.substring(REDACT.length()));
            } else if (option.startsWith(ALLOC_SCOPE)) {
                if (allocAll != null) {
                    throw new IllegalArgumentException("option 'alloc-scope=' given twice; expected it at most once");
                }
                allocAll = !choice(option, AgentOptionsSyntax.ALLOC_SCOPE, "traced", "all");
            } else if (option.equals(AgentOptionsSyntax.VERBOSE)) {
                verbose = true;
            } else {
                throw new IllegalArgumentException("unknown option '" + option + "'; " + EXPECTED);
            }
        }
        Set<EventKind> kinds = events == null ? EventKind.defaults() : events;
        boolean all = allocAll != null && allocAll;
        if (all && !kinds.contains(EventKind.ALLOC)) {
            throw new IllegalArgumentException("option 'alloc-scope=all' needs allocation events; expected events= to include alloc");
        }
        if (all && buffer != null && !buffer) {
            // A JDK method's allocation names its method in a packed site record, which one event per record has no form for.
            throw new IllegalArgumentException("option 'alloc-scope=all' needs packed records; expected methods=buffer (the default), not methods=events");
        }
        return new AgentOptions(includes == null ? List.of() : includes, excludes == null ? List.of() : excludes,
                kinds, verbose, captures == null ? List.of() : captures,
                buffer == null || buffer, every != null && every, Redaction.parse(redact == null ? List.of() : redact), all);
    }

    /** The rules of {@code redact=}, split at each {@code ;} that no backslash escapes. */
    private static List<String> splitRules(String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("option 'redact=' has no rule; expected redact=RULE[;RULE...] "
                    + "with RULE one of [pkg.Class::method]#N, name:GLOB, type:CLASS, value:REGEX, nodefaults");
        }
        List<String> rules = AgentOptionsSyntax.splitRules(value);
        if (rules.contains("")) {
            throw new IllegalArgumentException("option 'redact=" + value + "': an empty rule");
        }
        return rules;
    }

    /** True for {@code first}, false for {@code second}; anything else is an error naming both. */
    private static boolean choice(String option, String key, String first, String second) {
        String value = option.substring(key.length() + 1);
        if (value.equals(first)) {
            return true;
        }
        if (value.equals(second)) {
            return false;
        }
        throw new IllegalArgumentException("option '" + option + "': expected " + key + "=" + first + " or " + key + "=" + second);
    }

    private static List<String> splitOptions(String args) {
        List<String> options = new ArrayList<>();
        // A comma after a backslash belongs to the value (a redact= pattern): not a separator.
        for (String token : AgentOptionsSyntax.splitOptions(args)) {
            if (startsWithKey(token) || options.isEmpty()) {
                options.add(token);
            } else {
                String previous = options.remove(options.size() - 1);
                if (previous.equals(AgentOptionsSyntax.VERBOSE)) {
                    throw new IllegalArgumentException("unknown option '" + token + "'; " + EXPECTED);
                }
                // A continuation: one more filter or event of the previous option.
                options.add(previous + ";" + token);
            }
        }
        return options;
    }

    private static boolean startsWithKey(String token) {
        for (String key : AgentOptionsSyntax.KEYS) {
            if (key.equals(AgentOptionsSyntax.VERBOSE) ? token.equals(key) : token.startsWith(key + "=")) {
                return true;
            }
        }
        return false;
    }

    private static List<Filter> parseFilters(String key, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("option '" + key + "=' has no filter; expected " + key
                    + "=pkg.Class, pkg.Class::method, ::method or @pkg.Annotation joined by ';'");
        }
        List<Filter> filters = new ArrayList<>();
        for (String part : value.split(";", -1)) {
            try {
                filters.add(Filter.parse(part));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("option '" + key + "=" + value + "': " + e.getMessage(), e);
            }
        }
        return List.copyOf(filters);
    }

    private static Set<EventKind> parseEvents(String value) {
        Set<EventKind> kinds = EnumSet.noneOf(EventKind.class);
        for (String part : AgentOptionsSyntax.splitEvents(value)) {
            String e = part.trim();
            int kind = AgentOptionsSyntax.EVENT_KINDS.indexOf(e);
            if (kind < 0) {
                throw new IllegalArgumentException("option 'events=" + value + "': unknown event '" + e
                        + "'; expected method, lock, alloc, exception, field, death or receiver joined by '+'");
            }
            kinds.add(EventKind.values()[kind]);
        }
        if (kinds.contains(EventKind.RECEIVER)) {
            kinds.add(EventKind.METHOD); // the receiver comes with the method's entry
        }
        if (kinds.contains(EventKind.DEATH)) {
            kinds.add(EventKind.ALLOC); // a death is reported only for an object whose allocation is recorded
        }
        return kinds;
    }
}
