package dev.minitrace.converter.util;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A temporary file the converter writes and reads back (records that wait on disk), created in
 * the folder given (beside the output, or the user's {@code --temp-dir}) and unlinked at once
 * where the platform allows it (POSIX keeps an open, unlinked file readable), so that no crash,
 * kill or full disk can leave it behind (but a SIGKILL landing between the creating open and the
 * unlink); elsewhere it is deleted when closed and at JVM exit.
 */
public final class ScratchFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final boolean unlinked;

    /** Creates {@code dir/.NAME.<random>SUFFIX}, open for reading and writing. */
    public ScratchFile(Path dir, String name, String suffix) throws IOException {
        Path p;
        FileChannel open;
        for (int attempt = 0; ; attempt++) {
            p = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + suffix);
            try {
                // created and opened by one open(2), so a kill can only find the file in the instant before the unlink below
                open = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.DELETE_ON_CLOSE);
                break;
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
            }
        }
        this.path = p;
        this.channel = open;
        boolean gone;
        try {
            Files.delete(p);
            gone = true;
        } catch (IOException e) {
            gone = false; // Windows keeps open files; DELETE_ON_CLOSE and deleteOnExit take over
            p.toFile().deleteOnExit();
        }
        this.unlinked = gone;
    }

    public FileChannel channel() {
        return channel;
    }

    /** Where the file was created (gone already where it could be unlinked). */
    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
        if (!unlinked) {
            Files.deleteIfExists(path);
        }
    }
}
