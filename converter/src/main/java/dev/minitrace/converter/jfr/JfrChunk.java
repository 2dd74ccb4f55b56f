package dev.minitrace.converter.jfr;

/**
 * One complete chunk of a JFR file, as its header describes it.
 *
 * @param index         position of the chunk in the file, from 0
 * @param offset        byte offset of the chunk in the file
 * @param size          chunk size in bytes
 * @param startNanos    chunk start, ns since the Unix epoch
 * @param durationNanos chunk duration in ns
 * @param startTicks     the tick count at the chunk start
 * @param ticksPerSecond the tick frequency
 */
public record JfrChunk(int index, long offset, long size, long startNanos, long durationNanos, long startTicks,
        long ticksPerSecond) {
    /** The chunk end, ns since the Unix epoch. */
    public long endNanos() {
        return startNanos + durationNanos;
    }
}
