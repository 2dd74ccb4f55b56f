package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputKindTest {
    @TempDir
    Path dir;

    @Test
    void aRecordingAndALogAreToldByTheirFirstBytesNotTheirNames() throws Exception {
        Path jfr = dir.resolve("trace.mtlog");
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
            r.dump(jfr);
        }
        // the magic of docs/mtlog-format.md, then a header's worth of anything
        Path log = Files.write(dir.resolve("trace.jfr"), new byte[] {'M', 'T', 'L', 'O', 'G', 0, '\r', '\n', 1, 0, 0, 0});
        assertEquals(InputKind.JFR, InputKind.of(jfr));
        assertTrue(InputKind.isJfr(jfr));
        assertEquals(InputKind.MTLOG, InputKind.of(log));
        assertFalse(InputKind.isJfr(log));
    }

    @Test
    void anythingElseIsOther() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty"));
        Path text = Files.writeString(dir.resolve("text"), "FLR", StandardCharsets.US_ASCII);
        Path almost = Files.write(dir.resolve("almost"), new byte[] {'M', 'T', 'L', 'O', 'G', 0, '\r'});
        assertEquals(InputKind.OTHER, InputKind.of(empty));
        assertEquals(InputKind.OTHER, InputKind.of(text), "three bytes of the magic are not a recording");
        assertEquals(InputKind.OTHER, InputKind.of(almost), "seven bytes of the magic are not a log");
        assertFalse(InputKind.isJfr(dir), "a folder");
        assertFalse(InputKind.isJfr(dir.resolve("missing")));
        assertThrows(NoSuchFileException.class, () -> InputKind.of(dir.resolve("missing")));
    }
}
