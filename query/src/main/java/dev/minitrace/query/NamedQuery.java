package dev.minitrace.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ready-made questions of {@code mt query}: each is an SQL file (in this package's
 * {@code named/} resources, quoted in {@code docs/query.md}) with {@code ${name}} placeholders
 * that {@link #sql} fills with SQL literals, so a user can print it ({@code --show-sql}), read it
 * and adapt it.
 */
public enum NamedQuery {
    /** Where the time went, per method. */
    TOP_METHODS("top-methods"),
    /** The calls below a method, as a tree of call paths, so many levels deep. */
    CALL_TREE("call-tree", "method", "depth"),
    /** A method's calls longer than a duration. */
    SLOW_CALLS("slow-calls", "method", "over_ns"),
    /** The monitors held longest. */
    LOCK_HOLDS("lock-holds"),
    /** Allocations per site and class. */
    ALLOC_BY_SITE("alloc-by-site"),
    /** Allocations between two GCs. */
    BETWEEN_GCS("between-gcs", "from_gc", "to_gc");

    private final String file;
    private final List<String> parameters;

    NamedQuery(String file, String... parameters) {
        this.file = file;
        this.parameters = List.of(parameters);
    }

    /** The name users give it ({@code top-methods}, ...), the option without its dashes. */
    public String optionName() {
        return file;
    }

    /** The placeholders the SQL has. */
    public List<String> parameters() {
        return parameters;
    }

    /** The SQL as written, with its {@code ${name}} placeholders. */
    public String template() {
        try (InputStream in = NamedQuery.class.getResourceAsStream("named/" + file + ".sql")) {
            if (in == null) {
                throw new IllegalStateException("named query " + file + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The SQL with every placeholder replaced by its value as a literal: a {@link String} as an SQL
     * string, a {@link Number} as written.
     */
    public String sql(Map<String, Object> values) {
        String sql = template();
        for (String p : parameters) {
            Object v = values.get(p);
            if (v == null) {
                throw new IllegalArgumentException("--" + file + " needs " + p.toLowerCase(Locale.ROOT));
            }
            String literal = v instanceof Number n ? n.toString() : TraceDatabase.literal(v.toString());
            sql = sql.replace("${" + p + "}", literal);
        }
        return sql;
    }
}
