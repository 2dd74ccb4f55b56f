package dev.minitrace.views.timeline;

/**
 * What a timeline holds.
 *
 * @param events        events written (slices' begins and ends, instants, GCs, metadata excluded)
 * @param threads       thread tracks
 * @param gcs           GC slices
 * @param cutAtNanos    time after the recording's start at which the {@code --max-events} cap was
 *                      reached (no slice begins after it), or -1
 * @param cutRecords    records not shown because of the cap
 * @param earlyBegins   slices begun before the records (exits without an entry)
 */
public record TimelineSummary(long events, int threads, int gcs, long cutAtNanos, long cutRecords, long earlyBegins) {
    /** True when the cap cut the timeline. */
    public boolean cut() {
        return cutAtNanos >= 0;
    }
}
