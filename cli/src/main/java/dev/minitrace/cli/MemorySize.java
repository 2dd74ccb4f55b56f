package dev.minitrace.cli;

import java.util.Locale;

/**
 * A memory size as users write it ({@code 512m}, {@code 4g}, {@code 800000k}). {@code bin/mt}
 * reads the same option to size the JVM before it starts; this checks it and says what is wrong.
 */
final class MemorySize {
    /** The least the converter works in. */
    static final long MIN_BYTES = 256L << 20;

    private MemorySize() {
    }

    /** Bytes of {@code text}, or a usage error naming what is wrong. */
    static long parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 0;
        };
        long n;
        try {
            n = Long.parseLong(unit == 0 ? t : t.substring(0, t.length() - 1));
        } catch (NumberFormatException e) {
            throw new CliException("--memory '" + text + "': expected a size such as 512m or 4g", ExitCodes.USAGE);
        }
        long bytes = n * (unit == 0 ? 1 : unit);
        if (bytes < MIN_BYTES) {
            throw new CliException("--memory '" + text + "': at least 256m is needed", ExitCodes.USAGE);
        }
        return bytes;
    }
}
