package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSequenceTest {
    @TempDir
    Path dir;

    @Test
    void readsAndCopiesAnyRangeAsTheConcatenation() throws Exception {
        Random random = new Random(7);
        int[] sizes = {5, 0, 1, 300, 0, 17};
        List<Path> files = new ArrayList<>();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < sizes.length; i++) {
            byte[] b = new byte[sizes[i]];
            random.nextBytes(b);
            all.write(b);
            files.add(Files.write(dir.resolve("f" + i), b));
        }
        byte[] whole = all.toByteArray();
        try (FileSequence s = FileSequence.open(files)) {
            assertEquals(whole.length, s.size());
            for (int from = 0; from <= whole.length; from++) {
                for (int len : new int[] {0, 1, 4, 5, 6, 300, 400}) {
                    ByteBuffer dst = ByteBuffer.allocate(len);
                    int n = s.readAt(dst, from);
                    int expected = Math.min(len, whole.length - from);
                    assertEquals(expected, n, "from " + from + ", " + len);
                    assertArrayEquals(Arrays.copyOfRange(whole, from, from + expected), Arrays.copyOf(dst.array(), n));
                    if (len == 300 && expected == len) {
                        Path copy = dir.resolve("copy");
                        try (FileChannel out = FileChannel.open(copy, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING)) {
                            s.transferTo(from, len, out);
                        }
                        assertArrayEquals(Arrays.copyOfRange(whole, from, from + len), Files.readAllBytes(copy), "copy from " + from);
                    }
                }
            }
        }
    }
}
