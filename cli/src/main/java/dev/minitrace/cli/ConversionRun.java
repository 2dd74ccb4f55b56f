package dev.minitrace.cli;

import dev.minitrace.converter.jfr.RecordingSource;

import dev.minitrace.converter.jfr.Engines;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.jfr.JfrInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * What every command that converts a recording into a file shares: the checks of IN and OUT
 * before it starts, the one-line message of a failure, and the conversion's warnings.
 */
final class ConversionRun {
    private ConversionRun() {
    }

    /** The JFR reading engine {@code --engine} names; an unknown name is a usage error. */
    static RecordingSource engine(String name) {
        try {
            return Engines.byName(name);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
    }

    /** {@code --temp-dir}, when given, must be an existing folder. */
    static void checkTempDir(Path tempDir) {
        if (tempDir != null && !Files.isDirectory(tempDir)) {
            throw new CliException("--temp-dir " + tempDir + ": no such directory", ExitCodes.USAGE);
        }
    }

    /** IN must exist ({@code what} says of what kind; a folder is a JFR repository), OUT a new or regular file in an existing folder, not IN. */
    static void checkPaths(Path in, Path out, String what) {
        if (!Files.exists(in)) {
            throw new CliException(in + ": no such file", ExitCodes.FAILED);
        }
        // A folder is read as a JFR repository (RecordingInput), which says so when it holds no chunk files.
        if (Files.isDirectory(out)) {
            throw new CliException("cannot write " + out + ": is a directory", ExitCodes.FAILED);
        }
        try {
            if (Files.exists(out) && Files.isSameFile(in, out)) {
                throw new CliException("OUT is the same file as IN (" + out + "); refusing to overwrite the input", ExitCodes.USAGE);
            }
        } catch (IOException e) {
            throw new CliException("cannot check " + out + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        Path dir = out.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CliException("cannot write " + out + ": no such directory " + dir, ExitCodes.FAILED);
        }
    }

    /** The one-line failure of {@code command} reading {@code in} and writing {@code out}. */
    static CliException failure(Throwable e, String command, Path in, Path out, String memory) {
        if (e instanceof JfrInputException) {
            return new CliException(in + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        if (e instanceof AccessDeniedException) {
            return new CliException("cannot write " + out + ": permission denied", ExitCodes.FAILED);
        }
        if (e instanceof NoSuchFileException n) {
            return new CliException("cannot write " + out + ": no such file or directory " + n.getFile(), ExitCodes.FAILED);
        }
        if (e instanceof FileSystemException) {
            return new CliException("cannot " + command + " " + in + " to " + out + ": " + e.getMessage(), ExitCodes.FAILED);
        }
        if (e instanceof OutOfMemoryError) {
            // The records that wait fit any bound (they spill), but not everything the reader must
            // hold at once does (a chunk's constant pools, where JDK 25 puts the packed records'
            // strings), nor a defect: the message names no cause it cannot know.
            return new CliException("cannot " + command + " " + in + " within --memory " + memory + " ("
                    + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB heap): it ran out of memory; run again with a larger --memory, e.g. --memory 2g", ExitCodes.FAILED);
        }
        return new CliException("cannot " + command + " " + in + ": " + e.getMessage(), ExitCodes.FAILED);
    }

    /** Prints the conversion's warnings on {@code err}, each prefixed by the command's name. */
    static void warn(PrintWriter err, String command, ConversionReport report, ConvertOptions options) {
        for (String w : report.warnings()) {
            err.println(command + ": warning: " + w);
        }
        if (report.selectedNoThread()) {
            err.println(command + ": warning: --threads " + String.join(",", new TreeSet<>(options.threads()))
                    + " selects none of the traced threads (" + report.unselectedEvents() + " events of other threads skipped)");
        }
    }
}
