package dev.minitrace.converter.jfr.fast;

/**
 * Which chunk header anchors the conversion of ticks to epoch nanoseconds.
 */
enum TimeBase {
    /**
     * The first chunk of the file, for every chunk. This is what {@code RecordingFile} does (its
     * {@code ChunkParser} hands the first chunk's {@code TimeConverter} on to the following
     * chunks), so results equal the JDK's to the nanosecond. The default.
     */
    FIRST_CHUNK,
    /**
     * Each chunk's own header. Slightly more accurate across long recordings (each chunk re-anchors
     * the tick clock to wall time) and independent of the other chunks, but differs from
     * {@code RecordingFile} by the clock drift between chunks (typically well under a microsecond).
     */
    PER_CHUNK
}
