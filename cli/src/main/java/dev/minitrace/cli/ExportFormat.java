package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * An output format of {@code mt export}: one class per format, listed in {@link ExportCommand}'s
 * registry, so a new format is one class and one line there.
 */
interface ExportFormat {
    /**
     * What to export and how: the trace, where to, what to keep of a JFR recording, the host to
     * record, where records that wait may go (null: beside {@code out}).
     */
    record Request(Path in, Path out, ConvertOptions options, String host, Path tempDir) {
    }

    /** The name {@code --format} takes. */
    String name();

    /** One line for {@code mt export --help}. */
    String description();

    /**
     * Exports; warnings go to {@code err} as one line each, a summary line to {@code out}.
     *
     * @return the exit status: {@link ExitCodes#OK}, or {@link ExitCodes#PARTIAL} when the input lost data
     * @throws IOException with a one-line message when the input cannot be read or the output written
     */
    int export(Request request, PrintWriter out, PrintWriter err) throws IOException;
}
