package dev.minitrace.cli;

import dev.minitrace.converter.TimeBound;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** {@code --from}, {@code --to}, {@code --threads}: the part of a JFR recording a command reads. */
final class WindowOptions {
    @Option(names = "--from", paramLabel = "TIME",
            description = "Start of the time window: an ISO instant (2026-01-02T03:04:05Z) or a duration after the recording's start (5s, 250ms, PT1M).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "End of the time window (exclusive), as --from.")
    String to;

    @Option(names = "--threads", paramLabel = "NAME|ID", split = ",",
            description = "Only these threads: names, JFR thread ids or Java thread ids, comma-separated.")
    List<String> threads;

    /** The window's start, or null for the recording's; a malformed time is an {@link IllegalArgumentException}. */
    TimeBound from() {
        return from == null ? null : TimeBound.parse(from);
    }

    /** The window's end, or null for the recording's; a malformed time is an {@link IllegalArgumentException}. */
    TimeBound to() {
        return to == null ? null : TimeBound.parse(to);
    }

    /** The threads asked for, or null for all. */
    Set<String> threads() {
        if (threads == null) {
            return null;
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (String t : threads) {
            wanted.add(t.trim());
        }
        return wanted;
    }
}
