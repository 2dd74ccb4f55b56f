package dev.minitrace.views.diff;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code --fail-if} bound: {@code METRIC OP BOUND}, e.g. {@code calls>+5%} or {@code allocs>+0}.
 * The bound is on a row's change (new minus base): absolute ({@code +0}, {@code 10}, {@code -3}) or
 * relative to the base count ({@code +5%}); {@code OP} is {@code >}, {@code >=}, {@code <} or
 * {@code <=}. A relative bound of a row whose base is 0 is 0: any growth from nothing crosses
 * {@code >+5%}.
 */
public record FailBound(String text, String metric, String op, double bound, boolean relative) {
    private static final Pattern SYNTAX = Pattern.compile("\\s*([a-z_]+)\\s*(>=|<=|>|<)\\s*([+-]?)(\\d+(?:\\.\\d+)?)(%?)\\s*");

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static FailBound parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("--fail-if '" + text + "': expected METRIC OP BOUND, e.g. 'calls>+5%' or 'allocs>+0'"
                    + " (OP one of > >= < <=, BOUND a change, with % relative to the base count)");
        }
        double v = Double.parseDouble(m.group(4));
        if (m.group(3).equals("-")) {
            v = -v;
        }
        return new FailBound(text.trim(), m.group(1), m.group(2), v, !m.group(5).isEmpty());
    }

    /** Checks that the metric is one that {@code by} compares. */
    public void check(DiffBy by) {
        List<String> metrics = by.metrics();
        if (!metrics.contains(metric)) {
            throw new IllegalArgumentException("--fail-if '" + text + "': --by " + by.label() + " has no metric '" + metric
                    + "' (it compares " + String.join(", ", metrics) + ")");
        }
    }

    /** True when a row that went from {@code base} to {@code next} crosses this bound. */
    public boolean crossed(long base, long next) {
        double delta = (double) next - base;
        double limit = relative ? base * bound / 100.0 : bound;
        return switch (op) {
            case ">" -> delta > limit;
            case ">=" -> delta >= limit;
            case "<" -> delta < limit;
            default -> delta <= limit;
        };
    }
}
