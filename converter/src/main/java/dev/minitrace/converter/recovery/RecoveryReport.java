package dev.minitrace.converter.recovery;

import java.util.List;

/**
 * What a recovery read and what it could not.
 *
 * @param files             chunk files read (1 for a single file)
 * @param completeChunks    chunks the JVM had finished, taken whole
 * @param unfinishedChunks  chunks the JVM was still writing (or that were cut short)
 * @param segments          complete flush segments taken from the unfinished chunks
 * @param recoveredBytes    bytes of the unfinished chunks that were kept (their complete segments)
 * @param lostBytes         bytes that could not be read: after the last complete segment, damaged files
 * @param problems          one line per place where bytes were lost
 */
public record RecoveryReport(int files, int completeChunks, int unfinishedChunks, int segments, long recoveredBytes,
        long lostBytes, List<String> problems) {
    /**
     * True when data was lost: bytes were dropped, or a chunk was unfinished, which means the JVM
     * died while recording and whatever its threads had not yet written is gone with it.
     */
    public boolean lostData() {
        return lostBytes > 0 || unfinishedChunks > 0;
    }
}
