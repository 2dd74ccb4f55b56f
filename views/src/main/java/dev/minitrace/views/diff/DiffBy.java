package dev.minitrace.views.diff;

import java.util.List;
import java.util.Locale;

/** What one row of {@code mt diff} is, its key columns and the counts it compares. */
public enum DiffBy {
    /** A method (class, name, descriptor): calls, exits by exception, allocations in it, acquisitions in it. */
    METHOD(List.of("class", "method", "descriptor"), List.of("calls", "exceptions", "allocs", "locks")),
    /** A call path from a thread's outermost traced call: calls of its last method along it. */
    PATH(List.of("path"), List.of("calls")),
    /** An allocated class and the method that allocated it (the site). */
    ALLOC(List.of("class", "site"), List.of("allocs")),
    /** A monitor's class: acquisitions. */
    LOCK(List.of("class"), List.of("locks")),
    /** A thrown exception's class and the method whose {@code athrow} threw it (the site). */
    EXCEPTION(List.of("class", "site"), List.of("throws"));

    private final List<String> keys;
    private final List<String> metrics;

    DiffBy(List<String> keys, List<String> metrics) {
        this.keys = keys;
        this.metrics = metrics;
    }

    /** The key columns. */
    public List<String> keys() {
        return keys;
    }

    /** The compared counts, each a base, new and delta column. */
    public List<String> metrics() {
        return metrics;
    }

    /** The name on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code text} ({@code method}, {@code path}, {@code alloc}, {@code lock}, {@code exception}). */
    public static DiffBy parse(String text) {
        for (DiffBy b : values()) {
            if (b.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown --by '" + text + "' (expected method, path, alloc, lock or exception)");
    }
}
