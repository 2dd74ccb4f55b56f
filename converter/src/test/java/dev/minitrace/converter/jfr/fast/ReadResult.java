package dev.minitrace.converter.jfr.fast;

/**
 * What a read delivered. A recording whose last chunk is incomplete (a crash, a copy cut short)
 * is not an error: every complete chunk is delivered and the rest is reported here.
 *
 * @param chunks          complete chunks delivered
 * @param events          events delivered to the sink (only the selected kinds)
 * @param fileSize        bytes in the file
 * @param bytesLost       bytes at the end of the file that belong to no complete chunk
 * @param lostReason      why those bytes were not read, {@code null} when nothing was lost
 */
record ReadResult(int chunks, long events, long fileSize, long bytesLost, String lostReason) {
    /** @return true when the file ended inside a chunk (or an unfinished chunk) */
    public boolean truncated() {
        return bytesLost > 0;
    }
}
