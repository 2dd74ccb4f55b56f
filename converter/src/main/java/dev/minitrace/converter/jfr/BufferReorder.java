package dev.minitrace.converter.jfr;

import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.util.LongRows;
import dev.minitrace.converter.util.ScratchFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Hands each thread's {@code minitrace.MethodBuffer} events to the decoder in sequence order
 * where the chunk allows, though JFR writes them out of order: in real applications' recordings a
 * run of one thread's events (millions of records) often reaches the file after the thread's later
 * events, near the end of the chunk. Decoded, the later records would wait in the converter's
 * columns (21 bytes a record, sorted, spilled and merged back); here they wait as the event's
 * packed chars (about 4 a record: in memory as chars, copied whole, up to a bound, and beyond it a
 * byte each in a scratch file) and are decoded as soon as the run before them has been. What
 * cannot be put in order within the chunk (a buffer that comes a chunk late, lost data) is decoded
 * at the chunk's end, in sequence order, and ordered by the converter as before: the records, and
 * so the output, are the same as without this class; only the order they reach the sink in
 * changes (and with it the order the converter numbers classes in).
 *
 * <p>A thread's events give consecutive sequence ranges ({@code docs/trace-buffer.md}), so an
 * event is in order when it starts where the thread's last decoded one ended
 * ({@link MethodBufferDecoder#nextSequence}). One that starts below is late and decoded at once;
 * one that starts above waits for the run before it. Not thread-safe: the engine's reading thread
 * uses it.
 */
public final class BufferReorder implements Closeable {
    /** Where waiting events may go: {@code memoryBytes} of their chars in memory, the rest in a file in {@code dir}. */
    public record Room(Path dir, String name, long memoryBytes) {
    }

    private static final long UNKNOWN = Long.MIN_VALUE;
    /** Bytes written to the scratch file at a time, and read from it at a time. */
    private static final int IO_BYTES = 1 << 20;

    private final Room room;
    private final LongIntMap queueIndex = new LongIntMap(64);
    private Queue[] queues = new Queue[16];
    private int queueCount;

    /** Waiting events' chars as they are (copied in and out whole), up to {@code memoryBytes}. */
    private char[] arena = new char[0];
    private int arenaTop;
    /** Events waiting in the arena; the arena is reused from its start when none does. */
    private long arenaLive;

    private ScratchFile scratch;
    private FileChannel file;
    private final byte[] staging;
    private int staged;
    /** Bytes of the file on disk; the staged ones follow them. */
    private long written;
    private long fileLive;
    private byte[] window;
    private long windowStart;
    private int windowLength;

    private long heldRecords;
    private long fileBytes;

    /** Chars the arena may hold: two bytes each. */
    private final long arenaChars;

    public BufferReorder(Room room) {
        this(room, IO_BYTES);
    }

    /** With file reads and writes of {@code ioBytes} (tests use small ones, to cross many). */
    BufferReorder(Room room, int ioBytes) {
        this.room = room;
        this.staging = new byte[ioBytes];
        this.window = new byte[ioBytes];
        this.arenaChars = Math.max(0, Math.min(room.memoryBytes() / Character.BYTES, Integer.MAX_VALUE - 64));
    }

    /** Records whose event waited for an earlier one of their thread, and the bytes of such events that went to the file. */
    public long heldRecords() {
        return heldRecords;
    }

    public long fileBytes() {
        return fileBytes;
    }

    /**
     * One buffer event of thread {@code threadKey} (-1: not resolved, decoded at once), arguments as
     * {@link MethodBufferDecoder#decode(char[], int, long, long, int, long, long, RecordingSink)}:
     * decoded now when it is in order or late, with the waiting events it lets follow; else it waits.
     */
    public void buffer(long threadKey, char[] records, int length, long firstSequence, int recordCount, long baseTimeNanos,
            long ticksPerSecond, MethodBufferDecoder decoder, RecordingSink sink) throws IOException {
        if (threadKey < 0) {
            decoder.decode(records, length, threadKey, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, sink);
            return;
        }
        Queue q = queue(threadKey);
        if (q.expected != UNKNOWN && firstSequence > q.expected
                && hold(q, records, length, firstSequence, recordCount, baseTimeNanos, ticksPerSecond)) {
            return;
        }
        decoder.decode(records, length, threadKey, firstSequence, recordCount, baseTimeNanos, ticksPerSecond, sink);
        if (q.expected == UNKNOWN || firstSequence == q.expected) {
            advance(q, decoder.nextSequence(), true);
        }
        if (q.waiting()) {
            drain(q, false, decoder, sink);
        }
    }

    /** The thread goes on after {@code next} (from the decoder; {@link Long#MIN_VALUE}: corrupt, where it goes on is not known when {@code strict}). */
    private static void advance(Queue q, long next, boolean strict) {
        if (next != Long.MIN_VALUE) {
            q.expected = Math.max(q.expected, next);
        } else if (strict) {
            q.expected = UNKNOWN;
        }
    }

    /** The chunk's events are all read: every waiting event is decoded, each thread's in sequence order. */
    public void endOfChunk(MethodBufferDecoder decoder, RecordingSink sink) throws IOException {
        for (int i = 0; i < queueCount; i++) {
            Queue q = queues[i];
            if (q.waiting()) {
                drain(q, true, decoder, sink);
            }
        }
    }

    /** Decodes {@code q}'s waiting events from its first while they are in order or late (all of them when {@code all}). */
    private void drain(Queue q, boolean all, MethodBufferDecoder decoder, RecordingSink sink) throws IOException {
        while (q.waiting() && (all || q.expected == UNKNOWN || q.get(Queue.FIRST) <= q.expected)) {
            int length = (int) q.get(Queue.LENGTH);
            char[] chars = decoder.buffer(length);
            load(q.get(Queue.WHERE), length, chars);
            long first = q.get(Queue.FIRST);
            int count = (int) q.get(Queue.COUNT);
            long base = q.get(Queue.BASE);
            long tps = q.get(Queue.TPS);
            q.head++;
            decoder.decode(chars, length, q.key, first, count, base, tps, sink);
            if (all || q.expected == UNKNOWN || first == q.expected) {
                advance(q, decoder.nextSequence(), !all);
            }
        }
        if (!q.waiting()) {
            q.head = 0;
            q.events.truncate(0);
        }
    }

    private Queue queue(long key) {
        int i = queueIndex.get(key);
        if (i != LongIntMap.MISSING) {
            return queues[i];
        }
        if (queueCount == queues.length) {
            queues = Arrays.copyOf(queues, queueCount * 2);
        }
        Queue q = new Queue(key);
        queueIndex.put(key, queueCount);
        queues[queueCount++] = q;
        return q;
    }

    /**
     * Keeps the event's chars in {@code q}: in memory as they are, in the file a byte each; false
     * when one for the file is not below 128 (corrupt: decoded at once, which says so).
     */
    private boolean hold(Queue q, char[] records, int length, long first, int count, long base, long tps) throws IOException {
        long where;
        if ((long) arenaTop + length <= arenaChars) {
            if (arena.length < arenaTop + length) {
                arena = Arrays.copyOf(arena, (int) Math.min(arenaChars, Math.max(arenaTop + length, Math.max(1 << 16, arena.length * 2L))));
            }
            System.arraycopy(records, 0, arena, arenaTop, length);
            where = arenaTop;
            arenaTop += length;
            arenaLive++;
        } else {
            long at = append(records, length);
            if (at < 0) {
                return false;
            }
            where = -at - 1;
            fileLive++;
        }
        q.insert(first, count, base, tps, length, where);
        heldRecords += count;
        return true;
    }

    /** Copies chars to bytes; false when one is not below 128. Two plain loops, which the JIT vectorizes. */
    private static boolean narrow(char[] from, int length, byte[] to, int at) {
        int any = 0;
        for (int i = 0; i < length; i++) {
            any |= from[i];
        }
        if (any >= 128) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            to[at + i] = (byte) from[i];
        }
        return true;
    }

    /** Appends the chars to the file; their offset, or -1 when a char is not below 128. */
    private long append(char[] records, int length) throws IOException {
        if (file == null) {
            scratch = new ScratchFile(room.dir(), room.name(), ".ahead");
            file = scratch.channel();
        }
        if (staged + length > staging.length) {
            flushStaging();
        }
        long at = written + staged;
        if (length <= staging.length) {
            if (!narrow(records, length, staging, staged)) {
                return -1;
            }
            staged += length;
        } else {
            byte[] big = new byte[length];
            if (!narrow(records, length, big, 0)) {
                return -1;
            }
            writeFully(ByteBuffer.wrap(big), written);
            written += length;
        }
        fileBytes += length;
        return at;
    }

    private void flushStaging() throws IOException {
        if (staged > 0) {
            writeFully(ByteBuffer.wrap(staging, 0, staged), written);
            written += staged;
            staged = 0;
        }
    }

    private void writeFully(ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += file.write(b, p);
        }
    }

    /** Reads a waiting event's chars ({@code where}: arena offset, or {@code -offset - 1} in the file) into {@code chars}. */
    private void load(long where, int length, char[] chars) throws IOException {
        if (where >= 0) {
            System.arraycopy(arena, (int) where, chars, 0, length);
            if (--arenaLive == 0) {
                arenaTop = 0;
            }
            return;
        }
        long offset = -where - 1;
        byte[] from;
        int at;
        if (offset >= written) {
            from = staging;
            at = (int) (offset - written);
        } else {
            if (offset < windowStart || offset + length > windowStart + windowLength) {
                fill(offset, length);
            }
            from = window;
            at = (int) (offset - windowStart);
        }
        if (--fileLive == 0) {
            // the file is empty again: its start is reused, and what the window read is stale
            written = 0;
            staged = 0;
            windowLength = 0;
        }
        for (int i = 0; i < length; i++) {
            chars[i] = (char) from[at + i];
        }
    }

    /** Reads the file from {@code offset}: at least {@code length} bytes, as many as the window holds. */
    private void fill(long offset, int length) throws IOException {
        if (window.length < length) {
            window = new byte[length];
        }
        int want = (int) Math.min(window.length, written - offset);
        ByteBuffer b = ByteBuffer.wrap(window, 0, want);
        long p = offset;
        while (b.hasRemaining()) {
            int n = file.read(b, p);
            if (n < 0) {
                throw new IOException("the scratch file " + scratch.path() + " ended before offset " + (offset + want));
            }
            p += n;
        }
        windowStart = offset;
        windowLength = want;
    }

    /** Closes the scratch file ({@link ScratchFile}: never left behind). */
    @Override
    public void close() throws IOException {
        if (scratch != null) {
            scratch.close();
            scratch = null;
            file = null;
        }
    }

    /** One thread's waiting events, in sequence order from {@code head}. */
    private static final class Queue {
        static final int FIRST = 0, COUNT = 1, BASE = 2, TPS = 3, LENGTH = 4, WHERE = 5;
        final long key;
        /**
         * The sequence the thread's next event starts at: 1 before its first (sequences are dense
         * from 1; a thread whose start the recording lacks waits for its chunk's end, as the
         * converter would make it wait anyway); {@link #UNKNOWN} after a corrupt one.
         */
        long expected = 1;
        int head;
        final LongRows events = new LongRows(WHERE + 1, 16);

        Queue(long key) {
            this.key = key;
        }

        boolean waiting() {
            return head < events.size();
        }

        long get(int column) {
            return events.get(head, column);
        }

        void insert(long f, int c, long b, long t, int len, long w) {
            if (head > 0 && head * 2 >= events.size()) {
                events.removeFirst(head); // the consumed entries' room, before growing
                head = 0;
            }
            // events mostly arrive in order among themselves: then this is an append
            int i = events.size();
            if (i > head && events.get(i - 1, FIRST) > f) {
                int at = events.search(head, i, FIRST, f);
                i = at < 0 ? -at - 1 : at + 1;
                events.insert(i);
            } else {
                events.add();
            }
            events.set(i, FIRST, f);
            events.set(i, COUNT, c);
            events.set(i, BASE, b);
            events.set(i, TPS, t);
            events.set(i, LENGTH, len);
            events.set(i, WHERE, w);
        }
    }
}
