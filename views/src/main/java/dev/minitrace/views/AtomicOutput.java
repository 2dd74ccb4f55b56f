package dev.minitrace.views;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An output file that appears only when complete: written to a hidden file beside the target and
 * renamed over it by {@link #commit()}; {@link #close()} without a commit removes it. So a failed or
 * interrupted export never leaves half a file, and an existing target is replaced atomically.
 */
public final class AtomicOutput implements Closeable {
    private final Path target;
    private final Path temp;
    private final OutputStream out;
    private boolean committed;

    /** Opens a hidden temporary file beside {@code target}. */
    public AtomicOutput(Path target) throws IOException {
        this.target = target.toAbsolutePath();
        this.temp = createTemp(this.target.getParent(), this.target.getFileName().toString());
        // a kill during a long export skips close(), but not the JVM's shutdown
        temp.toFile().deleteOnExit();
        this.out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 20);
    }

    /**
     * Not {@code Files.createTempFile}, whose owner-only permissions would stay on the renamed
     * target: this file gets the usual ones (umask).
     */
    private static Path createTemp(Path dir, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1) + ".tmp");
            try {
                return Files.createFile(p);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) {
                    throw e;
                }
            }
        }
    }

    /** The stream to write the content to (buffered; do not close it). */
    public OutputStream stream() {
        return out;
    }

    /** Flushes the content and renames it over the target. */
    public void commit() throws IOException {
        out.close();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (!committed) {
            try {
                out.close();
            } finally {
                Files.deleteIfExists(temp);
            }
        }
    }
}
