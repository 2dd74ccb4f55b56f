package dev.minitrace.converter;

import dev.minitrace.converter.jfr.fast.ChunkHeader;
import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What an input file is, told by its first bytes (the formats' magics), never by its name. The one
 * check every command uses, so that a file one command takes is never one another rejects.
 */
public enum InputKind {
    /** A JFR recording: starts with a chunk header's {@code FLR\0}. */
    JFR,
    /** An {@code .mtlog}: starts with {@code MTLOG\0\r\n}. */
    MTLOG,
    /** Anything else, an empty file included. */
    OTHER;

    /** The kind of the file {@code file}; a folder cannot be opened and is an {@link IOException}. */
    public static InputKind of(Path file) throws IOException {
        byte[] head = new byte[MtlogFormat.MAGIC_SIZE];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, MtlogFormat.MAGIC_SIZE);
        }
        if (ChunkHeader.hasMagic(head, 0, n)) {
            return JFR;
        }
        if (MtlogFormat.hasMagic(head, n)) {
            return MTLOG;
        }
        return OTHER;
    }

    /** True when {@code file} is a JFR recording; false for anything else and for what cannot be read. */
    public static boolean isJfr(Path file) {
        try {
            return Files.isRegularFile(file) && of(file) == JFR;
        } catch (IOException e) {
            return false;
        }
    }
}
