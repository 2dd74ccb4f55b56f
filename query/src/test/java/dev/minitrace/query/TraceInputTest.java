package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace argument is told by its content, and anything else is a one-line error. */
class TraceInputTest {
    @TempDir
    Path dir;

    @Test
    void toldByContentNotByName() throws Exception {
        Path jfr = Files.write(dir.resolve("a.mtlog"), new byte[] {'F', 'L', 'R', 0, 0, 2, 0, 1});
        Path log = Files.write(dir.resolve("b.jfr"), new byte[] {'M', 'T', 'L', 'O', 'G', 0, '\r', '\n', 1, 0});
        Files.createDirectories(dir.resolve("export/records"));
        assertEquals(TraceInput.JFR, TraceInput.of(jfr));
        assertEquals(TraceInput.MTLOG, TraceInput.of(log));
        assertEquals(TraceInput.EXPORT, TraceInput.of(dir.resolve("export")));
    }

    @Test
    void anythingElseIsAOneLineError() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "hello");
        IOException e = assertThrows(IOException.class, () -> TraceInput.of(text));
        assertEquals(text + ": not a JFR recording, an .mtlog file or a folder of exported tables", e.getMessage());
        Path empty = Files.createDirectories(dir.resolve("empty"));
        e = assertThrows(IOException.class, () -> TraceInput.of(empty));
        assertEquals(1, e.getMessage().lines().count());
        assertThrows(NoSuchFileException.class, () -> TraceInput.of(dir.resolve("missing.jfr")));
    }
}
