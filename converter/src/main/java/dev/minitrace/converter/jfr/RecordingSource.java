package dev.minitrace.converter.jfr;

import java.io.IOException;
import java.util.List;

/**
 * An engine that reads the complete chunks of a JFR file and delivers what the converter needs
 * to a {@link RecordingSink}. Engines are interchangeable: {@link RecordingFileSource} uses
 * {@code jdk.jfr.consumer.RecordingFile}; a purpose-built chunk parser can replace it.
 */
public interface RecordingSource {
    /** A chunk that could not be read, with the reason (its data is lost; the others are delivered). */
    record ChunkFailure(JfrChunk chunk, String reason) {
    }

    /**
     * Delivers every chunk of {@code chunks} to {@code sink}, in file order.
     *
     * @return the chunks that were complete by their header but could not be parsed (empty when all were read)
     */
    List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink) throws IOException;

    /**
     * As {@link #read(JfrChunks, RecordingSink)}, and an engine that can may put each thread's
     * buffer events in sequence order within a chunk, waiting ones kept in {@code room}
     * ({@link BufferReorder}); it then reports to {@link RecordingSink#buffersReordered}. The
     * records delivered are the same; by default they come in file order.
     */
    default List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink, BufferReorder.Room room) throws IOException {
        return read(chunks, sink);
    }
}
