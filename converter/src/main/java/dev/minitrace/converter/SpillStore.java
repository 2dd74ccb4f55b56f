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
 *
 * <p>Two users: the {@link OrderingPipeline} spills a thread's sorted entries as a segment at a
 * time ({@link #write}); a writer whose records must all wait until the end ({@code mt print
 * --tree}, which needs the names that come last) {@link #append}s each batch as it comes, the
 * tail segment growing while no other thread's batch came in between.
 */
public final class SpillStore implements AutoCloseable {
    private final ScratchFile file;
    private final FileChannel channel;
    /** Bytes in the file; {@link #pending} more wait in {@link #out} after them. */
    private long size;
    private int pending;
    private long bytesWritten;
    private long recordsWritten;
    private byte[] out = new byte[1 << 16];
    /** Read buffer bytes of the cursors not closed yet, and the most they ever held at once. */
    private long cursorBytes;
    private long peakCursorBytes;

    /** A store in {@code dir} (never left behind), its file named after {@code name}. */
    public SpillStore(Path dir, String name) throws IOException {
        this.file = new ScratchFile(dir, name, ".spill");
        this.channel = file.channel();
    }

    /** Bytes spilled so far (those {@link #append} still holds in memory included). */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Records spilled so far. */
    public long recordsWritten() {
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
        flushPending();
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
            p = put(out, p, seq - prevSeq, b.type[i], b.time[i] - prevTime, b.value[i] - prevValue, b.aux[i]);
            prevSeq = seq;
            prevTime = b.time[i];
            prevValue = b.value[i];
        }
        flush(p, wrap);
        s.length = size - s.offset;
        recordsWritten += s.count;
        return s;
    }

    /**
     * Appends the records {@code [from, to)} of the arrays, in order, to {@code tail} when it is
     * still the file's last segment and not being read, else to a new segment, which it returns
     * ({@code tail} itself otherwise). Sequence numbers count on from {@code tail}'s (from 0 for
     * the first), one per record. The bytes wait in memory until a buffer's worth has come.
     */
    public Segment append(Segment tail, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        Segment s = tail;
        if (s == null || s.offset + s.length != size + pending || s.consumed != 0 || s.count > Integer.MAX_VALUE - (to - from)) {
            s = new Segment();
            s.offset = size + pending;
            s.firstSeq = tail == null ? 0 : tail.lastSeq + 1;
            s.lastSeq = s.firstSeq - 1;
            s.prevSeq = s.firstSeq;
        }
        int p = pending;
        long prevSeq = s.prevSeq;
        long prevTime = s.prevTime;
        long prevValue = s.prevValue;
        long seq = s.lastSeq;
        for (int i = from; i < to; i++) {
            if (p > out.length - 48) {
                flush(p, null);
                p = 0;
            }
            seq++;
            p = put(out, p, seq - prevSeq, type[i], time[i] - prevTime, value[i] - prevValue, aux[i]);
            prevSeq = seq;
            prevTime = time[i];
            prevValue = value[i];
        }
        pending = p;
        // a segment being appended to keeps its encoder state where readers keep their position:
        // no cursor reads it (consumed == 0) until it is no longer appended to
        s.prevSeq = prevSeq;
        s.prevTime = prevTime;
        s.prevValue = prevValue;
        s.lastSeq = seq;
        s.count += to - from;
        s.length = size + pending - s.offset;
        recordsWritten += to - from;
        return s;
    }

    /** A cursor at the start of {@code s} (or where the last one left it), reading {@code bufferBytes} at a time. */
    public Cursor cursor(Segment s, int bufferBytes) throws IOException {
        flushPending();
        return new Cursor(s, bufferBytes);
    }

    private void flushPending() throws IOException {
        if (pending > 0) {
            int n = pending;
            pending = 0;
            flush(n, null);
        }
    }

    private static int put(byte[] a, int p, long seqStep, byte type, long timeStep, long valueStep, int aux) {
        p = putVarint(a, p, seqStep);
        a[p++] = type;
        p = putVarint(a, p, zigzag(timeStep));
        p = putVarint(a, p, zigzag(valueStep));
        return putVarint(a, p, aux & 0xFFFFFFFFL);
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
    public static final class Segment {
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

        /** Records in the segment. */
        public int count() {
            return count;
        }
    }

    /**
     * Reads one segment from where it was left, a buffer at a time; {@link #peekSeq()} and the
     * {@code take} methods move through it, and {@link #close()} records the position in the segment.
     */
    public final class Cursor {
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
        public boolean hasNext() throws IOException {
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

        public long time() {
            return time;
        }

        public byte type() {
            return type;
        }

        public long value() {
            return value;
        }

        public int aux() {
            return aux;
        }

        /** Moves the head record into {@code b} (appended with its sequence). */
        void take(EventBuffer b) {
            b.add(type, seq, time, value, aux);
            next();
        }

        /** Passes the head record (after {@link #hasNext}). */
        public void next() {
            hasHead = false;
            consumed++;
            seg.consumedBytes = headEndBytes;
            seg.prevSeq = prevSeq;
            seg.prevTime = prevTime;
            seg.prevValue = prevValue;
        }

        /** Records the position: the segment continues from here next time. */
        public void close() {
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
