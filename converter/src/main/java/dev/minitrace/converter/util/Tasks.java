package dev.minitrace.converter.util;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The result of work done on another thread (a chunk parsed ahead, a block written), with its
 * failure rethrown as the caller's own: an I/O error as {@link IOException}, a format error or a
 * bug as itself.
 */
public final class Tasks {
    private Tasks() {
    }

    /** Waits for {@code task}; {@code what} names it in the message of an interruption. */
    public static <T> T await(Future<T> task, String what) throws IOException {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException io = new InterruptedIOException("interrupted while " + what);
            io.initCause(e);
            throw io;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }
}
