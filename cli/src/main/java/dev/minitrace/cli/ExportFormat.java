package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.TimeBound;
import dev.minitrace.converter.jfr.RecordingSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * An output format of {@code mt export}: one class each, registered by name in
 * {@link ExportFormats}. A format writes through the converter's writer interface; the command
 * checks the paths, parses the options and reports the conversion's warnings and exit status.
 */
interface ExportFormat {
    /**
     * Everything a format may need from the command line.
     *
     * @param in         the input file (a JFR recording, or an {@code .mtlog} when {@link #acceptsLog()})
     * @param log        true when {@code in} is an {@code .mtlog}
     * @param out        the file to write
     * @param conversion thread and record-kind selection and time window for the converter
     * @param from       start of the time window, or null
     * @param to         end of the time window, or null
     * @param maxEvents  {@code --max-events}
     * @param source     the JFR reading engine
     * @param tempDir    where waiting records go (null: beside OUT)
     * @param progress   progress of the reading, by input offset
     * @param host       the host the recording was made on ({@code --host}; parquet's recording table)
     * @param stdout     where the one-line summary goes
     * @param stderr     where warnings go, one line each
     */
    record Request(Path in, boolean log, Path out, ConvertOptions conversion, TimeBound from, TimeBound to, long maxEvents,
            RecordingSource source, Path tempDir, LongConsumer progress, String host, PrintWriter stdout, PrintWriter stderr) {
    }

    /** One line for {@code mt export --help}. */
    String description();

    /** True when the format can be made from an {@code .mtlog} as well as from a recording. */
    boolean acceptsLog();

    /** True when OUT is a folder (which may exist and already hold other exports), false when it is one file. */
    default boolean writesFolder() {
        return false;
    }

    /**
     * Writes {@code r.in()} to {@code r.out()}, prints a one-line summary and the input's warnings,
     * and returns the exit status: {@link ExitCodes#OK}, or {@link ExitCodes#PARTIAL} when the
     * input was truncated or lost data.
     */
    int export(Request r) throws IOException;
}
