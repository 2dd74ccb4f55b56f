package dev.minitrace.views.timeline;

import dev.minitrace.converter.TimeBound;
import java.nio.file.Path;

/**
 * What the timeline shows beyond the conversion's own selection ({@code --threads}, record kinds).
 *
 * @param from      start of the time window, or null for the recording's start
 * @param to        end of the time window (exclusive), or null for the recording's end
 * @param maxEvents the cap: once this many events are written no slice begins (open ones still end)
 * @param spoolDir  where the events wait until the names are known (null: beside the output)
 */
public record TimelineOptions(TimeBound from, TimeBound to, long maxEvents, Path spoolDir) {
    /** The default cap, sized for what speedscope and chrome://tracing open (docs/views.md). */
    public static final long DEFAULT_MAX_EVENTS = 2_000_000L;

    public TimelineOptions {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("--max-events must be at least 1, not " + maxEvents);
        }
    }
}
