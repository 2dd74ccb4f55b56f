package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendFileTest {
    /** File systems of Linux that take O_DIRECT writes of whole blocks. */
    private static final Set<String> DIRECT_FILE_SYSTEMS = Set.of("ext4", "xfs", "btrfs");

    @TempDir
    Path dir;

    @Test
    void holdsEveryAppendedByteAcrossStagesThenThePatch() throws IOException {
        Path file = Files.createFile(dir.resolve("out.bin"));
        byte[] expected = write(file);
        assertArrayEquals(expected, Files.readAllBytes(file));
    }

    @Test
    void writesPastThePageCacheWhereTheFileSystemTakesDirectIo() throws IOException {
        Path file = Files.createFile(dir.resolve("direct.bin"));
        assumeTrue(DIRECT_FILE_SYSTEMS.contains(Files.getFileStore(file).type()),
                "the test folder's file system (" + Files.getFileStore(file).type() + ") may refuse direct I/O");
        try (AppendFile f = new AppendFile(file)) {
            assertTrue(f.direct());
            f.append(ByteBuffer.wrap(new byte[AppendFile.STAGE_BYTES + 1]));
            assertTrue(f.direct(), "the first block went out by direct I/O");
            f.complete();
            assertFalse(f.direct());
        }
        assertEquals(AppendFile.STAGE_BYTES + 1, Files.size(file));
    }

    @Test
    void fallsBackToThePageCacheOnTmpfs() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm) && "tmpfs".equals(Files.getFileStore(shm).type()),
                "no tmpfs at /dev/shm");
        Path file = Files.createTempFile(shm, "append-file-test", ".bin");
        try {
            byte[] expected = write(file);
            assertArrayEquals(expected, Files.readAllBytes(file));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void emptiesAnExistingFile() throws IOException {
        Path file = Files.write(dir.resolve("old.bin"), new byte[100_000]);
        try (AppendFile f = new AppendFile(file)) {
            f.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            f.complete();
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    }

    /** Appends 2.5 stages of random bytes in pieces of random sizes (heap and direct), patches bytes 8-11; the expected content. */
    private static byte[] write(Path file) throws IOException {
        Random random = new Random(11);
        byte[] all = new byte[AppendFile.STAGE_BYTES * 5 / 2 + 13];
        random.nextBytes(all);
        try (AppendFile f = new AppendFile(file)) {
            int p = 0;
            while (p < all.length) {
                int n = Math.min(all.length - p, random.nextInt(3) == 0 ? random.nextInt(3 << 20) : random.nextInt(100));
                ByteBuffer b;
                if (random.nextBoolean()) {
                    b = ByteBuffer.wrap(all, p, n);
                } else {
                    b = ByteBuffer.allocateDirect(n).put(0, all, p, n);
                }
                f.append(b);
                assertFalse(b.hasRemaining());
                p += n;
                assertEquals(p, f.size());
            }
            FileChannel channel = f.complete();
            byte[] patch = {9, 8, 7, 6};
            channel.write(ByteBuffer.wrap(patch), 8);
            System.arraycopy(patch, 0, all, 8, 4);
        }
        return all;
    }
}
