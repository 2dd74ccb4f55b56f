package dev.minitrace.converter.jfr.fast;

import dev.minitrace.converter.util.FileReads;
import dev.minitrace.converter.util.FileSequence;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * A test helper: reads a whole file with the fast reader's parser, finding the chunks itself,
 * so the tests can feed it files of any shape (damaged, truncated, concatenated) and small
 * windows. It parses each chunk exactly as {@link JfrChunkReader} does
 * ({@link JfrChunkReader#parseChunk}); the converter finds its chunks with {@code jfr.JfrChunks}.
 * An incomplete last chunk is reported in the {@link ReadResult}; malformed input throws a
 * {@link JfrFormatException} naming the chunk, the offset and the type.
 */
final class JfrReader {
    private final boolean[] wanted = new boolean[JfrEventKind.values().length];
    private final ChunkInput input = new ChunkInput();
    private final ChunkParser parser;
    private TimeBase timeBase = TimeBase.FIRST_CHUNK;

    /** A reader that decodes every {@link JfrEventKind}. */
    JfrReader() {
        this(EnumSet.allOf(JfrEventKind.class));
    }

    /** A reader that decodes only {@code kinds}; all other events are skipped by their size. */
    JfrReader(Set<JfrEventKind> kinds) {
        for (JfrEventKind k : kinds) {
            wanted[k.ordinal()] = true;
        }
        parser = new ChunkParser(wanted);
    }

    /** Sets the event window (1 MB by default); tests use tiny windows to cross them often. */
    JfrReader windowSize(int bytes) {
        input.windowSize = bytes;
        return this;
    }

    /** Selects how ticks become nanoseconds; {@link TimeBase#FIRST_CHUNK} (like the JDK and the converter) by default. */
    JfrReader timeBase(TimeBase base) {
        this.timeBase = base;
        return this;
    }

    /** The parser, to ask which decoder a kind took. */
    ChunkParser parser() {
        return parser;
    }

    /** Reads {@code file}, delivering the selected events of every complete chunk to {@code sink}. */
    ReadResult read(Path file, JfrEventSink sink) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                FileSequence files = FileSequence.open(java.util.List.of(file))) {
            ChunkSource source = new ChunkSource(files);
            Walk walk = new Walk(channel);
            long before = parser.delivered();
            int chunks = 0;
            ChunkHeader h;
            ChunkHeader first = null;
            while ((h = walk.nextHeader()) != null) {
                if (first == null) {
                    first = h;
                }
                JfrChunkReader.parseChunk(parser, input, source, h, timeBase == TimeBase.FIRST_CHUNK ? first : h, sink);
                chunks++;
            }
            return new ReadResult(chunks, parser.delivered() - before, walk.fileSize, walk.bytesLost, walk.lostReason);
        }
    }

    /**
     * Walks the chunk headers of a file. Decides where the complete chunks end: a chunk that runs
     * past the end of the file, or that its JVM never finished, ends the walk and is reported as
     * lost bytes rather than thrown.
     */
    private static final class Walk {
        private final FileChannel channel;
        private final long fileSize;
        private final byte[] headerBytes = new byte[ChunkHeader.SIZE];
        private long next;
        private int index;
        private long bytesLost;
        private String lostReason;

        Walk(FileChannel channel) throws IOException {
            this.channel = channel;
            this.fileSize = channel.size();
        }

        /** @return the next complete chunk's header, or {@code null} at the end of the complete chunks */
        ChunkHeader nextHeader() throws IOException {
            long remaining = fileSize - next;
            if (remaining == 0) {
                if (index == 0) {
                    throw new JfrFormatException(-1, 0, "Empty file: not a JFR recording", null);
                }
                return null;
            }
            int n = (int) Math.min(remaining, ChunkHeader.SIZE);
            readFully(ByteBuffer.wrap(headerBytes, 0, n), next, index);
            if (n < 4 || n < ChunkHeader.SIZE && !startsWithMagic(n)) {
                // Too short to tell: a JFR file with a cut header, or not JFR at all.
                if (index == 0 && !startsWithMagic(n)) {
                    throw new JfrFormatException(-1, 0, "Not a JFR file: " + fileSize + " bytes, no 'FLR\\0' magic", null);
                }
                return lose(remaining, "the file ends inside the header of chunk " + index);
            }
            if (n < ChunkHeader.SIZE) {
                return lose(remaining, "the file ends inside the header of chunk " + index);
            }
            ChunkHeader h = ChunkHeader.parse(headerBytes, 0, index, next);
            if (h.size() == 0 || h.metadataOffset() == 0) {
                return lose(remaining, "chunk " + index + " was never finished (size " + h.size()
                        + ", metadata offset " + h.metadataOffset() + ")");
            }
            if (h.size() < ChunkHeader.SIZE) {
                throw new JfrFormatException(index, next, "Chunk size " + h.size() + " smaller than its header", null);
            }
            if (h.size() > remaining) {
                return lose(remaining, "chunk " + index + " declares " + h.size() + " bytes but only "
                        + remaining + " remain in the file");
            }
            if (h.size() > Integer.MAX_VALUE - 64) {
                throw new JfrFormatException(index, next, "Chunk of " + h.size() + " bytes is larger than 2 GB", null);
            }
            next += h.size();
            index++;
            return h;
        }

        private boolean startsWithMagic(int n) {
            byte[] magic = {'F', 'L', 'R', 0};
            for (int i = 0; i < Math.min(n, 4); i++) {
                if (headerBytes[i] != magic[i]) {
                    return false;
                }
            }
            return true;
        }

        private ChunkHeader lose(long remaining, String reason) {
            bytesLost = remaining;
            lostReason = reason;
            next = fileSize;
            return null;
        }

        private void readFully(ByteBuffer dst, long position, int chunk) throws IOException {
            int wanted = dst.remaining();
            int read = FileReads.readAt(channel, dst, position);
            if (read < wanted) {
                throw new JfrFormatException(chunk, position + read, "File shrank while being read", null);
            }
        }
    }
}
