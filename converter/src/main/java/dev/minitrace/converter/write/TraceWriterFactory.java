package dev.minitrace.converter.write;

import java.io.IOException;

/**
 * Opens the {@link TraceWriter} of one conversion once the recording's span is known (from its
 * chunk headers, before any record is read), so that a writer can place times relative to the
 * recording and end what is still open at the recording's end.
 */
@FunctionalInterface
public interface TraceWriterFactory {
    /**
     * The writer for a recording that runs from {@code startNanos} (the first chunk's start) to
     * {@code endNanos} (the last complete chunk's end), both ns since the epoch.
     */
    TraceWriter open(long startNanos, long endNanos) throws IOException;
}
