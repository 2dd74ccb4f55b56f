package dev.minitrace.query;

import dev.minitrace.converter.InputKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What a trace argument is: a JFR recording, an {@code .mtlog} (told by the converter's
 * {@link InputKind}), or a folder of exported tables. Told by content, not by name.
 */
public enum TraceInput {
    /** A JFR recording (starts with {@code FLR\0}). */
    JFR,
    /** An {@code .mtlog} (starts with {@code MTLOG\0\r\n}). */
    MTLOG,
    /** A folder with the tables of one or more exports. */
    EXPORT;

    /** The kind of {@code path}; a path that is none of them is an {@link IOException} with a one-line message. */
    public static TraceInput of(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            if (!Files.isDirectory(path.resolve(TraceTables.RECORDS.name()))) {
                throw new IOException(path + ": a folder without exported tables (no " + TraceTables.RECORDS.name()
                        + "/ in it): export a trace into it first (mt export --format parquet TRACE " + path + ")");
            }
            return EXPORT;
        }
        if (!Files.exists(path)) {
            throw new NoSuchFileException(path + ": no such file or folder");
        }
        switch (InputKind.of(path)) {
            case JFR:
                return JFR;
            case MTLOG:
                return MTLOG;
            default:
                break;
        }
        throw new IOException(path + ": not a JFR recording, an .mtlog file or a folder of exported tables");
    }
}
