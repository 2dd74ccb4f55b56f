package dev.minitrace.converter;

import dev.minitrace.converter.util.ScratchFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Temporary disk space for records that must wait longer than memory allows: one file, written
 * as sorted runs ({@link Segment}s, one per thread and spill), read back by {@link Cursor}s.
 *
 * <p>The file is a {@link ScratchFile}: created beside the output (or in the folder the user
 * names) and never left behind.
 *
 * <p>A record is encoded in a few bytes, relative to the one before it in its segment: sequence
 * step, type, time step (zigzag), value (zigzag) and aux, each a base-128 varint.
 */
final class SpillStore implements AutoCloseable {
    private final ScratchFile file;
    private final FileChannel channel;
    private long size;
    private long bytesWritten;
    private long recordsWritten;
    private byte[] out = new byte[1 << 16];
    /** Read buffer bytes of the cursors not closed yet, and the most they ever held at once. */
    private long cursorBytes;
    private long peakCursorBytes;

    SpillStore(Path dir, String name) throws IOException {
        this.file = new ScratchFile(dir, name, ".spill");
        this.channel = file.channel();
    }

    /** Bytes spilled so far. */
    long bytesWritten() {
        return bytesWritten;
    }

    /** Records spilled so far. */
    long recordsWritten() {
        return recordsWritten;
    }

    /** The most read buffer bytes open cursors held at once. */
    long peakCursorBytes() {
        return peakCursorBytes;
    }

    /**
     * Writes the entries {@code [from, to)} of {@code b} (normalized, in sequence order) as one
     * segment and returns it.
     */
    Segment write(EventBuffer b, int from, int to) throws IOException {
        Segment s = new Segment();
        s.offset = size;
        s.count = to - from;
        s.firstSeq = b.seq(from);
        s.lastSeq = b.seq(to - 1);
        int p = 0;
        long prevSeq = s.firstSeq;
        long prevTime = 0;
        long prevValue = 0;
        ByteBuffer wrap = null;
        for (int i = from; i < to; i++) {
            if (p > out.length - 48) {
                wrap = flush(p, wrap);
                p = 0;
            }
            long seq = b.seq(i);
            p = putVarint(out, p, seq - prevSeq);
            prevSeq = seq;
            out[p++] = b.type[i];
            p = putVarint(out, p, zigzag(b.time[i] - prevTime));
            prevTime = b.time[i];
            p = putVarint(out, p, zigzag(b.value[i] - prevValue));
            prevValue = b.value[i];
            p = putVarint(out, p, b.aux[i] & 0xFFFFFFFFL);
        }
        flush(p, wrap);
        s.length = size - s.offset;
        recordsWritten += s.count;
        return s;
    }

    private ByteBuffer flush(int n, ByteBuffer wrap) throws IOException {
        ByteBuffer bb = wrap != null && wrap.array() == out ? wrap.clear() : ByteBuffer.wrap(out);
        bb.limit(n);
        while (bb.hasRemaining()) {
            size += channel.write(bb, size);
        }
        bytesWritten += n;
        return bb;
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    private static int putVarint(byte[] a, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            a[p++] = (byte) (v | 0x80);
            v >>>= 7;
        }
        a[p++] = (byte) v;
        return p;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    /** One sorted run of one thread's records in the file, consumed from its start. */
    static final class Segment {
        long offset;
        long length;
        int count;
        long firstSeq;
        long lastSeq;
        /** Records already taken out (by a cursor) and the decoder state after them. */
        int consumed;
        long consumedBytes;
        long prevSeq;
        long prevTime;
        long prevValue;

        /** No record not yet taken has a lower sequence (a repeated number can equal the last one taken). */
        long lowerBound() {
            return consumed == 0 ? firstSeq : prevSeq;
        }

        /** Records not yet taken. */
        int remaining() {
            return count - consumed;
        }
    }

    /**
     * Reads one segment from where it was left, a buffer at a time; {@link #peekSeq()} and the
     * {@code take} methods move through it, and {@link #close()} records the position in the segment.
     */
    final class Cursor {
        private final Segment seg;
        private final byte[] buf;
        private int pos;
        private int lim;
        private long filePos;
        private long prevSeq;
        private long prevTime;
        private long prevValue;
        private int consumed;
        // the decoded head record
        private boolean hasHead;
        private long seq;
        private byte type;
        private long time;
        private long value;
        private int aux;
        private long headEndBytes;
        private boolean closed;

        Cursor(Segment seg, int bufferBytes) {
            this.seg = seg;
            // thousands of threads each spill small runs: a buffer never exceeds what is left to read
            this.buf = new byte[(int) Math.max(16, Math.min(bufferBytes, seg.length - seg.consumedBytes))];
            this.filePos = seg.offset + seg.consumedBytes;
            cursorBytes += buf.length;
            peakCursorBytes = Math.max(peakCursorBytes, cursorBytes);
            this.consumed = seg.consumed;
            if (seg.consumed == 0) {
                this.prevSeq = seg.firstSeq;
            } else {
                this.prevSeq = seg.prevSeq;
                this.prevTime = seg.prevTime;
                this.prevValue = seg.prevValue;
            }
        }

        /** True while the segment has a record not taken. */
        boolean hasNext() throws IOException {
            if (hasHead) {
                return true;
            }
            if (consumed == seg.count) {
                return false;
            }
            decode();
            return true;
        }

        long seq() {
            return seq;
        }

        long time() {
            return time;
        }

        /** Moves the head record into {@code b} (appended with its sequence). */
        void take(EventBuffer b) {
            b.add(type, seq, time, value, aux);
            hasHead = false;
            consumed++;
            seg.consumedBytes = headEndBytes;
            seg.prevSeq = prevSeq;
            seg.prevTime = prevTime;
            seg.prevValue = prevValue;
        }

        /** Records the position: the segment continues from here next time. */
        void close() {
            seg.consumed = consumed;
            if (!closed) {
                closed = true;
                cursorBytes -= buf.length;
            }
        }

        private void decode() throws IOException {
            long s = prevSeq + readVarint();
            type = readByte();
            long t = prevTime + unzigzag(readVarint());
            long v = prevValue + unzigzag(readVarint());
            aux = (int) readVarint();
            seq = s;
            time = t;
            value = v;
            prevSeq = s;
            prevTime = t;
            prevValue = v;
            headEndBytes = filePos - seg.offset - (lim - pos);
            hasHead = true;
        }

        private byte readByte() throws IOException {
            if (pos == lim) {
                fill();
            }
            return buf[pos++];
        }

        private long readVarint() throws IOException {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = readByte();
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return v;
                }
            }
        }

        private void fill() throws IOException {
            long end = seg.offset + seg.length;
            int n = (int) Math.min(buf.length, end - filePos);
            if (n <= 0) {
                throw new IOException("spill file: segment at " + seg.offset + " ends early");
            }
            ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
            long p = filePos;
            while (bb.hasRemaining()) {
                int r = channel.read(bb, p);
                if (r < 0) {
                    throw new IOException("spill file shrank at " + p);
                }
                p += r;
            }
            filePos = p;
            pos = 0;
            lim = n;
        }
    }
}
