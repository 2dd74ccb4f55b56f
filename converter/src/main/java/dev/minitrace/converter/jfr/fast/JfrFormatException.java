package dev.minitrace.converter.jfr.fast;

import java.io.IOException;

/**
 * The input is not a well-formed JFR recording. The message always says where: the chunk index,
 * the absolute file offset and, when known, the JFR type being read.
 */
public final class JfrFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int chunkIndex;
    private final long fileOffset;

    /**
     * @param chunkIndex 0-based index of the chunk in the file, -1 when not inside a chunk
     * @param fileOffset absolute offset in the file where the problem was seen
     * @param message    what was wrong, including the type name when there is one
     * @param cause      the underlying failure, or {@code null}
     */
    public JfrFormatException(int chunkIndex, long fileOffset, String message, Throwable cause) {
        super(describe(chunkIndex, fileOffset, message), cause);
        this.chunkIndex = chunkIndex;
        this.fileOffset = fileOffset;
    }

    private static String describe(int chunkIndex, long fileOffset, String message) {
        return chunkIndex < 0
                ? message + " (at file offset " + fileOffset + ")"
                : message + " (chunk " + chunkIndex + ", file offset " + fileOffset + ")";
    }

    /** @return 0-based index of the chunk, -1 when the problem is outside any chunk */
    public int chunkIndex() {
        return chunkIndex;
    }

    /** @return absolute file offset of the problem */
    public long fileOffset() {
        return fileOffset;
    }
}
