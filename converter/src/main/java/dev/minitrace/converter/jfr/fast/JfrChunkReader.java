package dev.minitrace.converter.jfr.fast;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Set;

/**
 * Reads single chunks of a recording whose chunk boundaries the caller already knows, for a
 * caller that decides itself which chunks are complete and that must go on with the next chunk
 * when one is malformed (the converter: a corrupt chunk is lost, the others are not). Ticks are
 * converted with the header of the file's first chunk, as {@link TimeBase#FIRST_CHUNK}.
 * Not thread-safe.
 */
public final class JfrChunkReader implements Closeable {
    private final FileChannel channel;
    private final ChunkSource source;
    private final ChunkInput input = new ChunkInput();
    private final ChunkParser parser;
    private final ChunkHeader timeHeader;

    /** Opens {@code file}, whose first chunk starts at offset 0, to decode {@code kinds}. */
    public JfrChunkReader(Path file, Set<JfrEventKind> kinds) throws IOException {
        boolean[] wanted = new boolean[JfrEventKind.values().length];
        for (JfrEventKind k : kinds) {
            wanted[k.ordinal()] = true;
        }
        this.parser = new ChunkParser(wanted);
        this.channel = FileChannel.open(file, java.nio.file.StandardOpenOption.READ);
        try {
            this.source = new ChunkSource(channel);
            this.timeHeader = source.headerAt(0, 0);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Delivers the selected events of the complete chunk number {@code index} at file offset
     * {@code offset} to {@code sink}, in file order.
     *
     * @throws JfrFormatException when the chunk is malformed (events before the problem may have
     *                            been delivered); an exception of the sink is rethrown unchanged
     */
    public void readChunk(int index, long offset, JfrEventSink sink) throws IOException {
        ChunkHeader h = source.headerAt(offset, index);
        if (h.size() < ChunkHeader.SIZE || h.size() > source.fileSize() - offset || h.size() > Integer.MAX_VALUE - 64) {
            throw new JfrFormatException(index, offset, "Chunk size " + h.size() + " does not fit the file", null);
        }
        JfrReader.parseChunk(parser, input, source, h, timeHeader, sink);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
