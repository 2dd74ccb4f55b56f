package dev.minitrace.converter.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order of a repository's chunk files and the search for a process's repository. */
class RecordingRepositoryTest {
    @TempDir
    Path dir;

    @Test
    void chunkFilesComeInTheOrderJfrWroteThem() throws Exception {
        for (String name : List.of("2026_11_23_21_05_40_10.jfr", "2026_11_23_21_05_40_9.jfr", "2026_11_23_21_05_40.jfr",
                "2026_11_23_21_05_39.jfr", "2026_11_23_21_05_40_01.jfr", ".minitrace-recovered-1.jfr", "notes.txt", "other.jfr")) {
            Files.writeString(dir.resolve(name), "x");
        }
        Files.createDirectory(dir.resolve("sub.jfr"));
        assertEquals(List.of("2026_11_23_21_05_39.jfr", "2026_11_23_21_05_40.jfr", "2026_11_23_21_05_40_01.jfr",
                "2026_11_23_21_05_40_9.jfr", "2026_11_23_21_05_40_10.jfr", "other.jfr"),
                RecordingRepository.chunkFiles(dir).stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void aProcessRepositoryIsFoundByItsPid() throws Exception {
        Path root = Files.createDirectory(dir.resolve("tmp"));
        Files.createDirectory(root.resolve("2026_11_23_21_05_39_4242"));
        Files.createDirectory(root.resolve("2026_11_24_08_00_00_4242"));
        Files.createDirectory(root.resolve("2026_11_23_21_05_39_42420"));
        Files.createDirectory(root.resolve("hsperfdata_4242"));
        assertEquals(List.of("2026_11_23_21_05_39_4242", "2026_11_24_08_00_00_4242"),
                RecordingRepository.ofProcess(4242, List.of(root, dir.resolve("missing"))).stream()
                        .map(p -> p.getFileName().toString()).toList());
    }
}
