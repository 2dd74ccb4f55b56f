package dev.minitrace.cli;

import dev.minitrace.converter.recovery.Recovery;
import dev.minitrace.converter.recovery.RecoveryReport;
import dev.minitrace.wire.TraceBufferFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The recording a command reads: IN itself, or, when IN is a JFR repository folder or a file
 * whose last chunk the JVM never finished (it died), a recovered copy in a temporary file
 * ({@link Recovery}) that is removed on {@link #close()}. Owns the wording of what a recovery
 * kept and lost.
 */
final class RecordingInput implements AutoCloseable {
    private final Path in;
    private final Path path;
    private final RecoveryReport recovery;

    private RecordingInput(Path in, Path path, RecoveryReport recovery) {
        this.in = in;
        this.path = path;
        this.recovery = recovery;
    }

    /**
     * Opens {@code in}; a recovered copy goes to {@code tempDir}, or when null to {@code besides}'s folder.
     * A folder without chunk files, or with nothing recoverable, is a one-line failure.
     */
    static RecordingInput open(Path in, Path tempDir, Path besides) {
        return open(in, tempDir, besides, false);
    }

    /**
     * As {@link #open(Path, Path, Path)}; for a reader that takes a folder ({@code Converter}), a
     * repository folder whose chunks are all finished ({@link Recovery#completeFolder}, what an
     * orderly exit leaves) when {@code foldersInPlace}: its chunk files are read where they are,
     * not copied into one file first.
     */
    static RecordingInput open(Path in, Path tempDir, Path besides, boolean foldersInPlace) {
        try {
            if (!Recovery.needed(in) || foldersInPlace && Files.isDirectory(in) && Recovery.completeFolder(in)) {
                return new RecordingInput(in, in, null);
            }
        } catch (IOException e) {
            return new RecordingInput(in, in, null); // the reader words the problem as it always did
        }
        Path dir = tempDir != null ? tempDir : besides.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, ".minitrace-recovered-", ".jfr");
            RecoveryReport r = Recovery.write(in, tmp);
            return new RecordingInput(in, tmp, r);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new CliException(in + ": " + e.getMessage(), ExitCodes.FAILED);
        } catch (RuntimeException | Error e) {
            deleteQuietly(tmp);
            throw e;
        }
    }

    /** The JVM's temporary folder, for commands that write no file beside which a copy could go. */
    static Path systemTemp() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The file to read. */
    Path path() {
        return path;
    }

    /** What the recovery found, or null when IN was read as it is. */
    RecoveryReport recovery() {
        return recovery;
    }

    /** True when the recovery lost data (exit status 3). */
    boolean lostData() {
        return recovery != null && recovery.lostData();
    }

    /**
     * Says on {@code err} what was recovered and what was lost; {@code threads} is the number of
     * traced threads found, for the bound on the records the dead JVM still held in its buffers.
     */
    void report(PrintWriter err, String command, int threads) {
        if (recovery == null) {
            return;
        }
        RecoveryReport r = recovery;
        err.printf("%s: recovered %s: %d chunk file%s, %d finished chunk%s read whole", command, in, r.files(), r.files() == 1 ? "" : "s",
                r.completeChunks(), r.completeChunks() == 1 ? "" : "s");
        if (r.unfinishedChunks() > 0) {
            err.printf(", %d unfinished chunk%s read up to %d complete flush segment%s (%,d bytes)", r.unfinishedChunks(),
                    r.unfinishedChunks() == 1 ? "" : "s", r.segments(), r.segments() == 1 ? "" : "s", r.recoveredBytes());
        }
        err.printf("; lost: %,d bytes%n", r.lostBytes());
        for (String p : r.problems()) {
            err.println(command + ": recovery: " + p);
        }
        if (r.unfinishedChunks() > 0) {
            err.printf("%s: recovery: the JVM died while recording: what it still held in memory is lost with it (events in JFR's buffers,"
                    + " and at most %,d records per traced thread in MiniTrace's buffers%s)%n", command, TraceBufferFormat.MAX_BUFFER_CHARS,
                    threads < 0 ? "" : String.format("; %d threads, at most %,d records", threads,
                            (long) threads * TraceBufferFormat.MAX_BUFFER_CHARS));
        }
    }

    @Override
    public void close() {
        if (path != in) {
            deleteQuietly(path);
        }
    }

    private static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a leftover temporary file is named .minitrace-recovered-*: nothing else to do here
        }
    }
}
