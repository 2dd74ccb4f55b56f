package dev.minitrace.converter;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bound of the {@code --from}/{@code --to} time window: either an ISO-8601 instant
 * ({@code 2026-11-22T01:02:03.5Z}) or a duration after the recording's start: a number with a
 * unit {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m} or {@code h} ({@code 5s},
 * {@code 1.5m}) or an ISO-8601 duration ({@code PT5S}).
 */
public final class TimeBound {
    private static final Pattern RELATIVE = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");

    private final Instant instant;
    private final long offsetNanos;

    private TimeBound(Instant instant, long offsetNanos) {
        this.instant = instant;
        this.offsetNanos = offsetNanos;
    }

    /** Parses a bound; a malformed one is an {@link IllegalArgumentException} with a one-line message. */
    public static TimeBound parse(String s) {
        String v = s.trim();
        Matcher m = RELATIVE.matcher(v.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            BigDecimal scale = switch (m.group(2)) {
                case "ns" -> BigDecimal.ONE;
                case "us" -> BigDecimal.valueOf(1_000L);
                case "ms" -> BigDecimal.valueOf(1_000_000L);
                case "s" -> BigDecimal.valueOf(1_000_000_000L);
                case "m" -> BigDecimal.valueOf(60_000_000_000L);
                default -> BigDecimal.valueOf(3_600_000_000_000L);
            };
            return new TimeBound(null, new BigDecimal(m.group(1)).multiply(scale).longValue());
        }
        if (v.startsWith("P") || v.startsWith("p")) {
            try {
                return new TimeBound(null, Duration.parse(v).toNanos());
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new IllegalArgumentException("malformed duration '" + s + "'");
            }
        }
        try {
            return new TimeBound(Instant.parse(v), 0);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("malformed time '" + s
                    + "' (expected an ISO instant like 2026-01-02T03:04:05Z or a duration like 5s, 250ms, PT1M)");
        }
    }

    /** The bound in ns since the Unix epoch, for a recording that started at {@code recordingStartNanos}. */
    public long resolve(long recordingStartNanos) {
        if (instant != null) {
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        }
        return recordingStartNanos + offsetNanos;
    }
}
