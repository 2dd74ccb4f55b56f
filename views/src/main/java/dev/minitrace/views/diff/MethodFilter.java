package dev.minitrace.views.diff;

import dev.minitrace.wire.AgentOptionsSyntax;
import dev.minitrace.wire.filter.Filter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Which methods' rows count, in the agent's filter syntax: the methods the includes select (none:
 * every method) less those the excludes select. Allocations, acquisitions and throws outside any
 * traced method (asked with a null class) count only when nothing is included.
 */
public final class MethodFilter {
    private MethodFilter() {
    }

    /**
     * The filter of {@code includes} and {@code excludes}, each a filter or several joined by {@code ;}.
     *
     * @throws IllegalArgumentException for a filter that does not parse, or an annotation filter (a trace keeps no annotations)
     */
    public static BiPredicate<String, String> of(List<String> includes, List<String> excludes) {
        List<Filter> in = parse(includes);
        List<Filter> ex = parse(excludes);
        return (cls, method) -> {
            if (cls == null) {
                return in.isEmpty();
            }
            boolean selected = in.isEmpty();
            for (Filter f : in) {
                selected |= f.matches(cls, List.of(), method, List.of());
            }
            for (Filter f : ex) {
                selected &= !f.matches(cls, List.of(), method, List.of());
            }
            return selected;
        };
    }

    private static List<Filter> parse(List<String> texts) {
        List<Filter> filters = new ArrayList<>();
        for (String t : texts) {
            for (String one : AgentOptionsSyntax.splitRules(t)) {
                Filter f = Filter.parse(one);
                if (f.isAnnotationFilter()) {
                    throw new IllegalArgumentException("filter '" + one + "': a trace keeps no annotations; name classes or methods");
                }
                filters.add(f);
            }
        }
        return filters;
    }
}
