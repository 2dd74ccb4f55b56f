package dev.minitrace.views;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** What a view's input file is, told by its first bytes, never by its name. */
public enum InputKind {
    /** A JFR recording ({@code FLR\0}). */
    JFR,
    /** An {@code .mtlog} file. */
    MTLOG,
    /** Anything else. */
    OTHER;

    private static final byte[] FLR = {'F', 'L', 'R', 0};
    private static final byte[] MTLOG_MAGIC = {'M', 'T', 'L', 'O', 'G', 0, '\r', '\n'};

    /** The kind of {@code file}. */
    public static InputKind of(Path file) throws IOException {
        byte[] head = new byte[8];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (n >= 4 && Arrays.equals(head, 0, 4, FLR, 0, 4)) {
            return JFR;
        }
        if (n == 8 && Arrays.equals(head, MTLOG_MAGIC)) {
            return MTLOG;
        }
        return OTHER;
    }
}
