package dev.minitrace.converter.mtlog;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads an {@code .mtlog} file. Opening reads the header and indexes the blocks (skipping kinds
 * it does not know by their length) and parses the INFO block; records are then streamed to a
 * {@link RecordVisitor} with primitive arguments, in file order or one stream at a time. A file
 * without an END block is {@link #truncated()}: the complete blocks before the cut are still
 * readable.
 */
public final class MtlogReader implements Closeable {
    /** Receives records, one call per record, without allocation. */
    @FunctionalInterface
    public interface RecordVisitor {
        /** One record of stream {@code streamId}. */
        void record(int streamId, int type, long value, int aux) throws IOException;
    }

    /** One block of the file: its kind, id, and where its payload lies. */
    public record Block(int kind, int id, long payloadOffset, long length) {
    }

    private static final int READ_CHUNK_RECORDS = 8192;

    private final FileChannel channel;
    private final int major;
    private final int minor;
    private final int flags;
    private final long startNanos;
    private final long headerRecordCount;
    private final List<Block> blocks = new ArrayList<>();
    private final boolean truncated;
    private final String truncation;
    private MtlogInfo info = new MtlogInfo();
    private boolean hasInfo;

    private MtlogReader(FileChannel channel) throws IOException {
        this.channel = channel;
        long size = channel.size();
        if (size < MtlogFormat.HEADER_SIZE) {
            throw new MtlogFormatException(size == 0 ? "empty file, not an .mtlog file"
                    : "not an .mtlog file: " + size + " bytes, shorter than the 32-byte header");
        }
        ByteBuffer h = readAt(0, MtlogFormat.HEADER_SIZE);
        byte[] magic = new byte[MtlogFormat.MAGIC_SIZE];
        h.get(magic);
        if (!MtlogFormat.hasMagic(magic, magic.length)) {
            throw new MtlogFormatException("not an .mtlog file (bad magic at offset 0)");
        }
        major = Short.toUnsignedInt(h.getShort());
        minor = Short.toUnsignedInt(h.getShort());
        if (major != MtlogFormat.MAJOR) {
            throw new MtlogFormatException("unsupported .mtlog major version " + major + " (this reader reads version "
                    + MtlogFormat.MAJOR + ".x)");
        }
        flags = h.getInt();
        startNanos = h.getLong();
        headerRecordCount = h.getLong();
        long pos = MtlogFormat.HEADER_SIZE;
        String cut = null;
        boolean ended = false;
        while (pos < size) {
            if (size - pos < MtlogFormat.BLOCK_HEADER_SIZE) {
                cut = "incomplete block header at offset " + pos;
                break;
            }
            ByteBuffer bh = readAt(pos, MtlogFormat.BLOCK_HEADER_SIZE);
            int kind = bh.getInt();
            int id = bh.getInt();
            long length = bh.getLong();
            long payload = pos + MtlogFormat.BLOCK_HEADER_SIZE;
            if (length < 0 || length > size - payload) {
                cut = "block of kind " + kind + " at offset " + pos + " declares " + Long.toUnsignedString(length)
                        + " bytes but only " + (size - payload) + " follow";
                break;
            }
            if (kind == MtlogFormat.BLOCK_END) {
                ended = true;
                break;
            }
            if (kind == MtlogFormat.BLOCK_STREAM && length % MtlogFormat.RECORD_SIZE != 0) {
                throw new MtlogFormatException("STREAM block at offset " + pos + " has length " + length
                        + ", not a multiple of " + MtlogFormat.RECORD_SIZE);
            }
            if (kind == MtlogFormat.BLOCK_STREAM || kind == MtlogFormat.BLOCK_INFO) {
                blocks.add(new Block(kind, id, payload, length));
            }
            if (kind == MtlogFormat.BLOCK_INFO) {
                if (length > Integer.MAX_VALUE - 8) {
                    throw new MtlogFormatException("INFO block at offset " + pos + " is too large: " + length + " bytes");
                }
                ByteBuffer text = readAt(payload, (int) length);
                info = MtlogInfo.decode(Arrays.copyOf(text.array(), (int) length));
                hasInfo = true;
            }
            pos = payload + length;
        }
        if (!ended && cut == null) {
            cut = "no END block (file ends at offset " + size + ")";
        }
        truncated = !ended;
        truncation = cut;
    }

    /** Opens and indexes {@code file}; a file that is not an {@code .mtlog} of major version 1 is rejected with a clear message. */
    public static MtlogReader open(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new MtlogReader(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private ByteBuffer readAt(long pos, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (channel.read(b, pos + b.position()) < 0) {
                throw new EOFException("unexpected end of file at offset " + (pos + b.position()));
            }
        }
        return b.flip();
    }

    /** The major version from the header (always 1). */
    public int major() {
        return major;
    }

    /** The minor version from the header. */
    public int minor() {
        return minor;
    }

    /** The header flags. */
    public int flags() {
        return flags;
    }

    /** True for the global layout (one stream, {@code aux} = thread id). */
    public boolean globalLayout() {
        return (flags & 1) == MtlogFormat.LAYOUT_GLOBAL;
    }

    /** The recording start from the header, ns since the Unix epoch. */
    public long startNanos() {
        return startNanos;
    }

    /** {@code recordCount} as the header states it (0 in a truncated file the writer never finished). */
    public long headerRecordCount() {
        return headerRecordCount;
    }

    /** The number of records in the complete STREAM blocks. */
    public long recordCount() {
        long n = 0;
        for (Block b : blocks) {
            if (b.kind() == MtlogFormat.BLOCK_STREAM) {
                n += b.length() / MtlogFormat.RECORD_SIZE;
            }
        }
        return n;
    }

    /** True when the file has no END block. */
    public boolean truncated() {
        return truncated;
    }

    /** Where and how the file is cut, or null when it is complete. */
    public String truncation() {
        return truncation;
    }

    /** The INFO tables (empty when the file has no INFO block). */
    public MtlogInfo info() {
        return info;
    }

    /** True when an INFO block was read. */
    public boolean hasInfo() {
        return hasInfo;
    }

    /** The STREAM and INFO blocks in file order. */
    public List<Block> blocks() {
        return Collections.unmodifiableList(blocks);
    }

    /** The stream ids in order of first appearance. */
    public int[] streamIds() {
        Set<Integer> ids = new LinkedHashSet<>();
        for (Block b : blocks) {
            if (b.kind() == MtlogFormat.BLOCK_STREAM) {
                ids.add(b.id());
            }
        }
        int[] r = new int[ids.size()];
        int i = 0;
        for (Integer id : ids) {
            r[i++] = id;
        }
        return r;
    }

    /** Streams every record of every STREAM block, in file order. */
    public void forEachRecord(RecordVisitor visitor) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(READ_CHUNK_RECORDS * MtlogFormat.RECORD_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        for (Block b : blocks) {
            if (b.kind() == MtlogFormat.BLOCK_STREAM) {
                readBlock(b, buf, visitor);
            }
        }
    }

    /** Streams the records of one stream (the concatenation of its blocks, in file order). */
    public void forEachRecord(int streamId, RecordVisitor visitor) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(READ_CHUNK_RECORDS * MtlogFormat.RECORD_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        for (Block b : blocks) {
            if (b.kind() == MtlogFormat.BLOCK_STREAM && b.id() == streamId) {
                readBlock(b, buf, visitor);
            }
        }
    }

    private void readBlock(Block b, ByteBuffer buf, RecordVisitor visitor) throws IOException {
        long pos = b.payloadOffset();
        long end = pos + b.length();
        while (pos < end) {
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), end - pos));
            while (buf.hasRemaining()) {
                if (channel.read(buf, pos + buf.position()) < 0) {
                    throw new EOFException("unexpected end of file at offset " + (pos + buf.position()));
                }
            }
            buf.flip();
            pos += buf.limit();
            while (buf.hasRemaining()) {
                int type = Short.toUnsignedInt(buf.getShort());
                long value = buf.getLong();
                int aux = buf.getInt();
                visitor.record(b.id(), type, value, aux);
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
