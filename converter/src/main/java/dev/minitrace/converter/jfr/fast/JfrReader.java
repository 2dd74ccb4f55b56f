package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * MiniTrace's purpose-built JFR reader: streams a recording chunk by chunk through one reusable
 * buffer, decodes only the selected {@link JfrEventKind}s and delivers them to a
 * {@link JfrEventSink} with primitive arguments, in file order. An incomplete last chunk is
 * reported in the {@link ReadResult}; malformed input throws a {@link JfrFormatException}
 * naming the chunk, the offset and the type. Not thread-safe; see {@link ParallelJfrReader}
 * for parsing chunks on several threads.
 */
public final class JfrReader {
    private final boolean[] wanted = new boolean[JfrEventKind.values().length];
    private final ChunkInput input = new ChunkInput();
    private final ChunkParser parser;
    private TimeBase timeBase = TimeBase.FIRST_CHUNK;

    /** A reader that decodes every {@link JfrEventKind}. */
    public JfrReader() {
        this(EnumSet.allOf(JfrEventKind.class));
    }

    /** A reader that decodes only {@code kinds}; all other events are skipped by their size. */
    public JfrReader(Set<JfrEventKind> kinds) {
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

    /** Turns the straight-line decoding of minitrace trace events off (tests compare it with the plan loop). */
    JfrReader straightDecoding(boolean on) {
        parser.straightDecoding = on;
        return this;
    }

    /** Events decoded so far by the straight-line path. */
    long straightDecoded() {
        return parser.straightDecoded;
    }

    /** Selects how ticks become nanoseconds; {@link TimeBase#FIRST_CHUNK} (like the JDK) by default. */
    public JfrReader timeBase(TimeBase base) {
        this.timeBase = base;
        return this;
    }

    /** Reads {@code file}, delivering the selected events of every complete chunk to {@code sink}. */
    public ReadResult read(Path file, JfrEventSink sink) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ChunkSource source = new ChunkSource(channel);
            long before = parser.delivered();
            int chunks = 0;
            ChunkHeader h;
            ChunkHeader first = null;
            while ((h = source.nextHeader()) != null) {
                if (first == null) {
                    first = h;
                }
                parseChunk(parser, input, source, h, timeBase == TimeBase.FIRST_CHUNK ? first : h, sink);
                chunks++;
            }
            return new ReadResult(chunks, parser.delivered() - before, source.fileSize(),
                    source.bytesLost(), source.lostReason());
        }
    }

    static void parseChunk(ChunkParser parser, ChunkInput in, ChunkSource source, ChunkHeader h,
                           ChunkHeader timeHeader, JfrEventSink sink) throws IOException {
        in.reset(source, h);
        try {
            parser.parse(in, h, timeHeader, sink);
        } catch (ChunkParser.SinkFailure e) {
            throw e.sinkException(); // the sink's own failure, unchanged
        } catch (RuntimeException e) {
            // Defence in depth: a malformed chunk must never surface as an unchecked exception.
            throw new JfrFormatException(h.index(), h.fileOffset() + in.base + in.pos, "Corrupt chunk: " + e, e);
        }
    }
}
