package dev.minitrace.converter.mtlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that exits in the middle of writing (Ctrl-C, kill, System.exit) leaves neither OUT nor its temporary file. */
class MtlogWriterExitTest {
    @TempDir
    Path dir;

    /** Child: starts a log, writes a record, exits without finish or close, as a signal would. */
    public static void main(String[] args) throws Exception {
        MtlogWriter w = new MtlogWriter(Path.of(args[0]), 0, 0L, 1);
        w.record(7, 1, 42L, 0);
        w.record(7, 2, 42L, 0);
        System.exit(0);
    }

    @Test
    void exitDuringAConversionRemovesTheTemporaryFile() throws Exception {
        Path out = dir.resolve("out.mtlog");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                MtlogWriterExitTest.class.getName(), out.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertEquals(0, p.waitFor());
        try (Stream<Path> s = Files.list(dir)) {
            List<String> left = s.map(x -> x.getFileName().toString()).collect(Collectors.toList());
            assertEquals(List.of(), left, "files left in " + dir + File.separator);
        }
    }
}
