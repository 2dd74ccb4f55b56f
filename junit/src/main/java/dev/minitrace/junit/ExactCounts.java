package dev.minitrace.junit;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The exact counts of what ran while a trace was on, per method ({@code pkg.Class::name(desc)}):
 * calls, exits by exception, allocations made directly in it and monitor acquisitions in it; and
 * per allocated class and per monitor class. Only the methods a test's {@link Traced} names count.
 */
public final class ExactCounts {
    /** The counts of one method. */
    public record MethodCounts(long calls, long exceptions, long allocs, long locks) {
    }

    private final Map<String, MethodCounts> methods;
    private final Map<String, Long> allocsByClass;
    private final Map<String, Long> locksByClass;

    ExactCounts(Map<String, MethodCounts> methods, Map<String, Long> allocsByClass, Map<String, Long> locksByClass) {
        this.methods = Collections.unmodifiableMap(new TreeMap<>(methods));
        this.allocsByClass = Collections.unmodifiableMap(new TreeMap<>(allocsByClass));
        this.locksByClass = Collections.unmodifiableMap(new TreeMap<>(locksByClass));
    }

    /** Every method that ran, by {@code pkg.Class::name(desc)}, in name order. */
    public Map<String, MethodCounts> methods() {
        return methods;
    }

    /**
     * The calls of {@code method}: {@code pkg.Class::name} (every overload) or
     * {@code pkg.Class::name(desc)} (one).
     */
    public long calls(String method) {
        return sum(method, 0);
    }

    /** The exits by exception of {@code method} (named as for {@link #calls}). */
    public long exceptions(String method) {
        return sum(method, 1);
    }

    /** The allocations made directly in {@code method} (named as for {@link #calls}). */
    public long allocationsIn(String method) {
        return sum(method, 2);
    }

    /** The monitor acquisitions in {@code method} (named as for {@link #calls}). */
    public long locksIn(String method) {
        return sum(method, 3);
    }

    /** The allocations of objects of class {@code className} (binary name with dots, {@code [I} for arrays) by the counted methods. */
    public long allocations(String className) {
        return allocsByClass.getOrDefault(className, 0L);
    }

    /** The acquisitions of monitors of class {@code className} by the counted methods. */
    public long locks(String className) {
        return locksByClass.getOrDefault(className, 0L);
    }

    private long sum(String method, int metric) {
        if (!method.contains("::")) {
            throw new IllegalArgumentException("'" + method + "': expected pkg.Class::name or pkg.Class::name(desc)");
        }
        boolean exact = method.indexOf('(') >= 0;
        long n = 0;
        for (Map.Entry<String, MethodCounts> e : methods.entrySet()) {
            String k = e.getKey();
            if (exact ? k.equals(method) : k.startsWith(method) && k.charAt(method.length()) == '(') {
                MethodCounts c = e.getValue();
                n += switch (metric) {
                    case 0 -> c.calls();
                    case 1 -> c.exceptions();
                    case 2 -> c.allocs();
                    default -> c.locks();
                };
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return methods.toString();
    }
}
