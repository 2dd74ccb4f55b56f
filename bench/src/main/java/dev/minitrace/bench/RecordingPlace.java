package dev.minitrace.bench;

import dev.minitrace.bench.apps.EcjApp;
import dev.minitrace.converter.recovery.RecordingRepository;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a benchmarked child's recording goes, chosen once per child JDK as {@code bin/mt run}
 * chooses it: on a JDK with {@code preserve-repository} (21+) the chunk files stay in a JFR
 * repository of the run's own and are read there (what {@code mt run --out FILE.mtlog} does; JFR
 * copies nothing at exit), else JFR writes the recording into a file at exit ({@code filename=}).
 * Either way the benchmark then has one path to convert: the file, or the folder of chunk files,
 * which the converter reads as one recording.
 */
public final class RecordingPlace {
    private final boolean repository;
    private final int feature;

    private RecordingPlace(boolean repository, int feature) {
        this.repository = repository;
        this.feature = feature;
    }

    /** As {@code bin/mt run} records on a child of JDK {@code feature}. */
    public static RecordingPlace of(int feature) {
        return new RecordingPlace(TracerOptions.keepsRepository(feature), feature);
    }

    /** Always into a file at exit ({@code filename=}), on every JDK. */
    public static RecordingPlace file(int feature) {
        return new RecordingPlace(false, feature);
    }

    /** How the recording ends up on disk, for the benchmark's header. */
    public String describe() {
        return repository ? "recordings stay in JFR's repository (preserve-repository, no copy at exit), as mt run --out FILE.mtlog"
                : "recordings written by JFR into filename= at exit";
    }

    /** The JVM options of a recording named {@code name} with {@code settings}, to end up at {@link #recording(Path)} of {@code stem}. */
    public List<String> options(String name, String settings, Path stem) {
        return repository ? TracerOptions.recordingInRepository(name, settings, stem, feature)
                : TracerOptions.recording(name, settings, stem);
    }

    /**
     * After the child exited: the recording of {@code stem} (a file, or the folder of chunk files
     * JFR made under the repository {@code stem}), or null when there is none.
     */
    public Path recording(Path stem) throws IOException {
        if (!repository) {
            return Files.exists(stem) ? stem : null;
        }
        if (!Files.isDirectory(stem)) {
            return null;
        }
        List<Path> folders = new ArrayList<>();
        try (Stream<Path> s = Files.list(stem)) {
            s.filter(Files::isDirectory).forEach(folders::add);
        }
        folders.sort(Comparator.naturalOrder());
        return folders.isEmpty() ? null : folders.get(folders.size() - 1);
    }

    /** The recording's size: the file's, or its chunk files' together. */
    public static long bytes(Path recording) throws IOException {
        if (!Files.isDirectory(recording)) {
            return Files.size(recording);
        }
        long sum = 0;
        for (Path chunk : RecordingRepository.chunkFiles(recording)) {
            sum += Files.size(chunk);
        }
        return sum;
    }

    /** Keeps {@code recording} as the single .jfr file {@code kept} (chunk files concatenated: a .jfr is its chunks one after another). */
    public static void keep(Path recording, Path kept) throws IOException {
        if (!Files.isDirectory(recording)) {
            Files.move(recording, kept, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try (OutputStream out = Files.newOutputStream(kept)) {
            for (Path chunk : RecordingRepository.chunkFiles(recording)) {
                Files.copy(chunk, out);
            }
        }
    }

    /** Removes what the run of {@code stem} left: the file, or the repository with its chunk files. */
    public static void delete(Path stem) throws IOException {
        if (Files.isDirectory(stem)) {
            EcjApp.deleteTree(stem);
        } else {
            Files.deleteIfExists(stem);
        }
    }
}
