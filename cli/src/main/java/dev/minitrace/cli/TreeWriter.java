package dev.minitrace.cli;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.util.LongRows;
import dev.minitrace.converter.util.ScratchFile;
import dev.minitrace.converter.write.TraceWriter;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code mt print --tree} shows of a JFR recording: the converter's records of each thread,
 * in the thread's exact order ({@link Order#THREAD}) and with their times, kept until the names
 * are known ({@link #finish}) and then printed as {@link CallTree}s. The names come at the end, so
 * every record waits: in a {@link ScratchFile}, 21 bytes each, behind one write buffer, while
 * memory holds only where each thread's runs of records lie in it. Memory stays bounded for any
 * recording; a thread's records after {@code --to} are not kept (but the one after it, which
 * tells whether the entry at {@code --to} is an empty call), as they are never printed.
 */
final class TreeWriter implements TraceWriter {
    private static final int RECORD_BYTES = 1 + 8 + 8 + 4;
    private static final int BUFFER_RECORDS = 1 << 15;
    // a thread's runs: where in the file (byte offset) and how many records
    private static final int RUN_AT = 0;
    private static final int RUN_COUNT = 1;

    /** One thread's records, in order: where they wait in the file. */
    final class ThreadRecords {
        final long key;
        private final LongRows runs = new LongRows(2, 4);
        private long count;

        private ThreadRecords(long key) {
            this.key = key;
        }

        /** Hands the records to {@code tree}, times relative to {@code startNanos}, and ends it. */
        void print(CallTree tree, long startNanos) throws IOException {
            ByteBuffer in = buffer;
            for (int r = 0; r < runs.size(); r++) {
                long at = runs.get(r, RUN_AT);
                long left = runs.get(r, RUN_COUNT);
                while (left > 0) {
                    int n = (int) Math.min(left, BUFFER_RECORDS);
                    in.clear().limit(n * RECORD_BYTES);
                    readFully(in, at);
                    in.flip();
                    for (int i = 0; i < n; i++) {
                        byte type = in.get();
                        long time = in.getLong();
                        long value = in.getLong();
                        int aux = in.getInt();
                        tree.record(type, value, aux, time == Long.MIN_VALUE ? Long.MIN_VALUE : time - startNanos, null);
                    }
                    at += (long) n * RECORD_BYTES;
                    left -= n;
                }
            }
            tree.end();
        }
    }

    final long startNanos;
    /** The number of records of a thread that are kept. */
    private final long to;
    private final Path tempDir;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_RECORDS * RECORD_BYTES);
    private final LongIntMap byKey = new LongIntMap(64);
    private final List<ThreadRecords> threads = new ArrayList<>();
    private ScratchFile file;
    /** Bytes written to the file so far; the buffer's records follow them. */
    private long flushed;
    private ThreadRecords last;
    private MtlogInfo info;

    /**
     * @param to the last record of each thread that is printed (1-based)
     * @param tempDir where the records wait
     */
    TreeWriter(long startNanos, long to, Path tempDir) {
        this.startNanos = startNanos;
        // one record more: whether the entry at --to is an empty call (one line) is up to the next
        this.to = to == Long.MAX_VALUE ? to : to + 1;
        this.tempDir = tempDir;
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        ThreadRecords t = last;
        if (t == null || t.key != threadKey) {
            int i = byKey.get(threadKey);
            if (i == LongIntMap.MISSING) {
                i = threads.size();
                threads.add(new ThreadRecords(threadKey));
                byKey.put(threadKey, i);
            }
            t = threads.get(i);
            last = t;
        }
        long keep = Math.max(0, this.to - t.count);
        int end = keep < to - from ? from + (int) keep : to;
        if (end <= from) {
            return;
        }
        // the file's offsets run on across flushes, so a batch is one run, or extends the last
        long at = flushed + buffer.position();
        int r = t.runs.size() - 1;
        if (r >= 0 && t.runs.get(r, RUN_AT) + t.runs.get(r, RUN_COUNT) * RECORD_BYTES == at) {
            t.runs.add(r, RUN_COUNT, end - from);
        } else {
            r = t.runs.append();
            t.runs.set(r, RUN_AT, at);
            t.runs.set(r, RUN_COUNT, end - from);
        }
        for (int i = from; i < end; i++) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            buffer.put(type[i]).putLong(time[i]).putLong(value[i]).putInt(aux[i]);
        }
        t.count += end - from;
    }

    private void flush() throws IOException {
        if (file == null) {
            file = new ScratchFile(tempDir, "tree", ".records");
        }
        buffer.flip();
        FileChannel c = file.channel();
        while (buffer.hasRemaining()) {
            flushed += c.write(buffer, flushed);
        }
        buffer.clear();
    }

    private void readFully(ByteBuffer in, long at) throws IOException {
        long p = at;
        while (in.hasRemaining()) {
            int n = file.channel().read(in, p);
            if (n < 0) {
                throw new EOFException("the tree's records end early in " + file.path());
            }
            p += n;
        }
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        // the tree of a .jfr shows times; GCs are in mt summary
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        info = tables;
        if (buffer.position() > 0) {
            flush();
        }
    }

    /** The tables naming the ids, once finished. */
    MtlogInfo info() {
        return info;
    }

    /** Bytes of records written to the file (all of them once finished). */
    long bytesWaiting() {
        return flushed;
    }

    /** The threads, by key. */
    List<ThreadRecords> threads() {
        List<ThreadRecords> list = new ArrayList<>(threads);
        list.sort((a, b) -> Long.compare(a.key, b.key));
        return list;
    }

    /** Nothing: the converter closes its writer when done, and the records are printed after that. */
    @Override
    public void close() {
    }

    /** Removes the waiting records, once printed (or on failure). */
    void discard() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                // unlinked when made (ScratchFile): its space comes back at exit whatever happens here
            }
            file = null;
        }
    }
}
