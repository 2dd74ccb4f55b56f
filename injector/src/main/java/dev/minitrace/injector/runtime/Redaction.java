package dev.minitrace.injector.runtime;

import dev.minitrace.wire.filter.Filter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a capture must never write (agent option {@code redact=}, see {@code docs/agent.md}),
 * compiled once when the options are parsed. Rules, joined by {@code ;}:
 * <pre>
 *   [FILTER]#N     parameter N (1 = the first) of the captured methods FILTER matches (no FILTER: of every one)
 *   name:GLOB      parameters whose name matches GLOB, ignoring case ({@code *}: any run of characters)
 *   type:CLASS     values whose class, a superclass or an interface matches CLASS ({@code char[]},
 *                  {@code javax.crypto.*}, {@code com.acme.Card}; nested classes with {@code $})
 *   value:REGEX    values whose text contains a match of REGEX (write {@code ,} and {@code ;} as {@code \,} and {@code \;})
 *   nodefaults     drop the default rules
 * </pre>
 * Parameter rules are decided when a class is rewritten: the argument is never handed to the
 * hooks, so its {@code toString} never runs. Type and value rules are checked for the receiver,
 * every argument, array element, return value and exception when a call is captured; a type's
 * answer is computed once per class.
 */
public final class Redaction {
    /** What a redacted value is written as. */
    public static final String TEXT = "<redacted>";
    /** Stands in the argument array for a parameter redacted when its class was rewritten. */
    public static final Object REDACTED = new Object() {
        @Override
        public String toString() {
            return TEXT;
        }
    };

    /** The default rules (kept unless {@code nodefaults} is given). */
    public static final List<String> DEFAULTS = List.of(
            "name:*password*", "name:*passwd*", "name:*secret*", "name:*token*", "name:*key*", "name:*credential*",
            "type:char[]", "type:javax.crypto.*", "type:java.security.Key");

    private static final Redaction NONE = new Redaction(List.of(), List.of(), new int[0], List.of(), List.of(), List.of());

    private final List<String> rules;
    private final Filter[] positionFilters;
    private final int[] positions;
    /**
     * The {@code name:} and {@code type:} rules as regular expressions, compiled when a capture
     * first needs them: every agent parses the default rules in premain, and most never capture.
     */
    private final String[] nameRegexes;
    private final String[] typeRegexes;
    private volatile Pattern[] names;
    private volatile Pattern[] types;
    private final Pattern[] values;
    private final ClassValue<Boolean> typeRedacted = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return matchesType(type);
        }
    };

    private Redaction(List<String> rules, List<Filter> positionFilters, int[] positions, List<String> nameRegexes,
            List<String> typeRegexes, List<Pattern> values) {
        this.rules = List.copyOf(rules);
        this.positionFilters = positionFilters.toArray(new Filter[0]);
        this.positions = positions;
        this.nameRegexes = nameRegexes.toArray(new String[0]);
        this.typeRegexes = typeRegexes.toArray(new String[0]);
        this.values = values.toArray(new Pattern[0]);
    }

    /** No rule at all. */
    public static Redaction none() {
        return NONE;
    }

    /** The default rules only. */
    public static Redaction defaults() {
        return parse(List.of());
    }

    /**
     * Compiles the default rules and {@code rules} (each one rule, without the {@code ;} between rules).
     *
     * @throws IllegalArgumentException naming the bad rule and what was expected
     */
    public static Redaction parse(List<String> rules) {
        List<String> all = new ArrayList<>();
        if (!rules.contains("nodefaults")) {
            all.addAll(DEFAULTS);
        }
        for (String r : rules) {
            if (!r.equals("nodefaults")) {
                all.add(r);
            }
        }
        List<Filter> positionFilters = new ArrayList<>();
        int[] positions = new int[0];
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<Pattern> values = new ArrayList<>();
        for (String rule : all) {
            if (rule.startsWith("name:")) {
                names.add(glob(nonEmpty(rule, rule.substring(5)), ".*"));
            } else if (rule.startsWith("type:")) {
                types.add(typeGlob(rule, nonEmpty(rule, rule.substring(5))));
            } else if (rule.startsWith("value:")) {
                try {
                    values.add(Pattern.compile(nonEmpty(rule, rule.substring(6)).replace("\\,", ",").replace("\\;", ";")));
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException("redact rule '" + rule + "': expected a Java regular expression after"
                            + " 'value:' (" + e.getDescription() + ")");
                }
            } else if (rule.indexOf('#') >= 0) {
                int hash = rule.lastIndexOf('#');
                int n;
                try {
                    n = Integer.parseInt(rule.substring(hash + 1));
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > 255) {
                    throw new IllegalArgumentException("redact rule '" + rule + "': expected a parameter position 1..255 after '#'");
                }
                String filter = rule.substring(0, hash);
                try {
                    positionFilters.add(filter.isEmpty() ? null : Filter.parse(filter));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("redact rule '" + rule + "': " + e.getMessage());
                }
                positions = Arrays.copyOf(positions, positions.length + 1);
                positions[positions.length - 1] = n - 1;
            } else {
                throw new IllegalArgumentException("redact rule '" + rule + "': expected [pkg.Class::method]#N, name:GLOB, "
                        + "type:CLASS, value:REGEX or nodefaults");
            }
        }
        return new Redaction(all, positionFilters, positions, names, types, values);
    }

    private static String nonEmpty(String rule, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException("redact rule '" + rule + "' is empty; expected a pattern after ':'");
        }
        return value;
    }

    /** A glob as a regular expression: {@code *} becomes {@code star}, everything else is literal. */
    private static String glob(String glob, String star) {
        StringBuilder b = new StringBuilder();
        int from = 0;
        for (int i = glob.indexOf('*'); i >= 0; i = glob.indexOf('*', from)) {
            if (i > from) {
                b.append(Pattern.quote(glob.substring(from, i)));
            }
            b.append(star);
            from = i + 1;
        }
        if (from < glob.length()) {
            b.append(Pattern.quote(glob.substring(from)));
        }
        return b.toString();
    }

    private static String typeGlob(String rule, String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (!(Character.isJavaIdentifierPart(c) || c == '.' || c == '*' || c == '[' || c == ']')) {
                throw new IllegalArgumentException("redact rule '" + rule + "': '" + pattern
                        + "' is not a class name; expected e.g. char[], javax.crypto.* or com.acme.Card");
            }
        }
        if (pattern.endsWith(".*")) {
            // A package and its subpackages, as in the include= filters.
            return Pattern.quote(pattern.substring(0, pattern.length() - 1)) + ".*";
        }
        // A class also stands for its nested classes.
        return glob(pattern, "[^.]*") + "(\\$.*)?";
    }

    /** The rules in force, defaults included, as given. */
    public List<String> rules() {
        return rules;
    }

    /** Whether a parameter rule ({@code #N} or {@code name:}) exists, i.e. rewriting a class must look at its parameters. */
    public boolean hasParameterRules() {
        return positions.length > 0 || nameRegexes.length > 0;
    }

    /** Whether {@code name:} rules exist (then the parameter names of a captured method are worth reading). */
    public boolean hasNameRules() {
        return nameRegexes.length > 0;
    }

    /**
     * The parameters (0-based) of a captured method that are never passed to the hooks, or null for none.
     *
     * @param parameterNames the parameters' names as the class file gives them (null, or null entries, where unknown)
     */
    public boolean[] redactedParameters(String className, List<String> classAnnotations, String methodName,
            List<String> methodAnnotations, int parameterCount, String[] parameterNames) {
        boolean[] redacted = null;
        for (int i = 0; i < positions.length; i++) {
            int p = positions[i];
            if (p < parameterCount && (positionFilters[i] == null
                    || positionFilters[i].matches(className, classAnnotations, methodName, methodAnnotations))) {
                redacted = mark(redacted, parameterCount, p);
            }
        }
        if (parameterNames != null) {
            for (int p = 0; p < parameterCount && p < parameterNames.length; p++) {
                String name = parameterNames[p];
                if (name == null) {
                    continue;
                }
                for (Pattern n : names()) {
                    if (n.matcher(name).matches()) {
                        redacted = mark(redacted, parameterCount, p);
                        break;
                    }
                }
            }
        }
        return redacted;
    }

    private static boolean[] mark(boolean[] redacted, int count, int p) {
        boolean[] r = redacted == null ? new boolean[count] : redacted;
        r[p] = true;
        return r;
    }

    /** Whether values of {@code type} are redacted by a {@code type:} rule (answered once per class). */
    public boolean redactsType(Class<?> type) {
        return typeRegexes.length > 0 && typeRedacted.get(type);
    }

    /** Whether {@code text} contains a match of a {@code value:} rule. */
    public boolean redactsText(String text) {
        for (Pattern p : values) {
            if (p.matcher(text).find()) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesType(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (matchesName(c.getTypeName()) || matchesInterfaces(c)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesInterfaces(Class<?> c) {
        for (Class<?> i : c.getInterfaces()) {
            if (matchesName(i.getName()) || matchesInterfaces(i)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesName(String name) {
        for (Pattern t : types()) {
            if (t.matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }

    private Pattern[] names() {
        Pattern[] n = names;
        if (n == null) {
            n = compile(nameRegexes, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
            names = n; // two threads may both compile: the same patterns either way
        }
        return n;
    }

    private Pattern[] types() {
        Pattern[] t = types;
        if (t == null) {
            t = compile(typeRegexes, 0);
            types = t;
        }
        return t;
    }

    private static Pattern[] compile(String[] regexes, int flags) {
        Pattern[] p = new Pattern[regexes.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = Pattern.compile(regexes[i], flags);
        }
        return p;
    }

    @Override
    public String toString() {
        return rules.isEmpty() ? "(none)" : String.join(";", rules);
    }
}
