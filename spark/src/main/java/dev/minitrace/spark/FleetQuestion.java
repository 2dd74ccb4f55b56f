package dev.minitrace.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The questions the fleet job answers over every JVM's tables, each an SQL file in this package's
 * {@code fleet/} resources (quoted in docs/query.md). The SQL keeps to what Spark SQL and DuckDB
 * both run, so one machine can check a cluster's answer on a sample.
 */
public enum FleetQuestion {
    /** Calls and inclusive time per method. */
    METHODS("methods"),
    /** The slowest calls per method, with the JVM they happened in. */
    SLOWEST_CALLS("slowest-calls"),
    /** Lock holds per monitor class. */
    LOCK_HOLDS("lock-holds"),
    /** Allocations per site. */
    ALLOCATIONS("allocations");

    private final String file;

    FleetQuestion(String file) {
        this.file = file;
    }

    /** The name of the question and of its result folder. */
    public String fileName() {
        return file;
    }

    /** The question's SQL. */
    public String sql() {
        try (InputStream in = FleetQuestion.class.getResourceAsStream("fleet/" + file + ".sql")) {
            if (in == null) {
                throw new IllegalStateException("fleet question " + file + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
