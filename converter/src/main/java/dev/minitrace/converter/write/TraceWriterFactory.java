package dev.minitrace.converter.write;

import java.io.IOException;

/**
 * Opens the writer of one conversion. The converter calls it once, after reading the chunk headers,
 * because a writer may need the recording's start (the {@code .mtlog} header holds it).
 */
@FunctionalInterface
public interface TraceWriterFactory {
    /** The writer for a recording that started at {@code startNanos} (ns since the epoch). */
    TraceWriter open(long startNanos) throws IOException;
}
