package dev.minitrace.cli;

import dev.minitrace.converter.InputKind;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.query.ExportReplay;
import dev.minitrace.query.TraceTables;
import dev.minitrace.views.diff.CountedTrace;
import dev.minitrace.views.diff.TraceCounts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * The exact counts of one trace argument of {@code mt diff} and {@code mt report --baseline}: a JFR
 * recording or repository folder (recovered as every command does), an {@code .mtlog}, or a folder
 * of exported tables; a failure is one line with its exit status.
 */
final class TraceCounting {
    private TraceCounting() {
    }

    /** Counts {@code in} for {@code command}; {@code selected}: the threads (null: all). */
    static CountedTrace count(String command, Path in, Set<String> selected, int pathDepth, RecordingSource source, long memoryBytes,
            Path tempDir, String memory, PrintWriter err) {
        if (!Files.exists(in)) {
            throw new CliException(in + ": no such file or folder", ExitCodes.FAILED);
        }
        try {
            if (Files.isDirectory(in) && Files.isDirectory(in.resolve(TraceTables.RECORDS.name()))) {
                TraceCounts c = new TraceCounts(pathDepth);
                ExportReplay.replay(in, c, (key, info) -> CountedTrace.selected(selected, key, info), memoryBytes, tempDir);
                return CountedTrace.of(c, List.of(), false);
            }
            Path temp = tempDir != null ? tempDir : RecordingInput.systemTemp();
            try (RecordingInput input = RecordingInput.open(in, temp, in)) {
                InputKind kind = InputKind.of(input.path());
                CountedTrace c = switch (kind) {
                    case JFR -> {
                        try (Progress progress = Progress.forInput(input.path(), command)) {
                            yield CountedTrace.ofRecording(input.path(), selected, pathDepth, source, temp, progress);
                        }
                    }
                    case MTLOG -> CountedTrace.ofLog(input.path(), selected, pathDepth);
                    case OTHER -> throw new CliException(in + ": not a JFR recording, an .mtlog or a folder of exported tables",
                            ExitCodes.FAILED);
                };
                input.report(err, command, -1);
                return input.lostData() ? new CountedTrace(c.counts(), c.warnings(), true) : c;
            }
        } catch (NoSuchFileException e) {
            throw new CliException(in + ": no such file", ExitCodes.FAILED);
        } catch (SQLException e) {
            throw new CliException("cannot read " + in + ": " + e.getMessage().lines().findFirst().orElse(""), ExitCodes.FAILED);
        } catch (IOException | OutOfMemoryError e) {
            throw ConversionRun.failure(e, command, in, in, memory);
        }
    }
}
