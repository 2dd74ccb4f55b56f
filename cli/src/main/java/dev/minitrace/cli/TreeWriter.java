package dev.minitrace.cli;

import dev.minitrace.converter.SpillStore;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code mt print --tree} shows of a JFR recording: the converter's records of each thread,
 * in the thread's exact order ({@link Order#THREAD}) and with their times, kept until the names
 * are known ({@link #finish}) and then printed as {@link CallTree}s. The names come at the end, so
 * every record waits in the converter's {@link SpillStore}, a few bytes each, while memory holds
 * only where each thread's segments lie in it. Memory stays bounded for any recording; a thread's
 * records after {@code --to} are not kept (but the one after it, which tells whether the entry at
 * {@code --to} is an empty call), as they are never printed.
 */
final class TreeWriter implements TraceWriter {
    private static final int READ_BUFFER_BYTES = 1 << 16;

    /** One thread's records, in order: the segments of the store that hold them. */
    final class ThreadRecords {
        final long key;
        private final List<SpillStore.Segment> segments = new ArrayList<>();
        private long count;

        private ThreadRecords(long key) {
            this.key = key;
        }

        /** Hands the records to {@code tree}, times relative to {@code startNanos}, and ends it. */
        void print(CallTree tree, long startNanos) throws IOException {
            for (SpillStore.Segment s : segments) {
                SpillStore.Cursor c = store.cursor(s, READ_BUFFER_BYTES);
                while (c.hasNext()) {
                    long time = c.time();
                    tree.record(c.type(), c.value(), c.aux(), time == Long.MIN_VALUE ? Long.MIN_VALUE : time - startNanos, null);
                    c.next();
                }
                c.close();
            }
            tree.end();
        }
    }

    final long startNanos;
    /** The number of records of a thread that are kept. */
    private final long to;
    private final Path tempDir;
    private final LongIntMap byKey = new LongIntMap(64);
    private final List<ThreadRecords> threads = new ArrayList<>();
    private SpillStore store;
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
        if (store == null) {
            store = new SpillStore(tempDir, "tree");
        }
        SpillStore.Segment tail = t.segments.isEmpty() ? null : t.segments.get(t.segments.size() - 1);
        SpillStore.Segment s = store.append(tail, type, time, value, aux, from, end);
        if (s != tail) {
            t.segments.add(s);
        }
        t.count += end - from;
    }

    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        // the tree of a .jfr shows times; GCs are in mt summary
    }

    @Override
    public void finish(MtlogInfo tables) {
        info = tables;
    }

    /** The tables naming the ids, once finished. */
    MtlogInfo info() {
        return info;
    }

    /** Records waiting in the store. */
    long recordsWaiting() {
        return store == null ? 0 : store.recordsWritten();
    }

    /** Bytes of records written to the store. */
    long bytesWaiting() {
        return store == null ? 0 : store.bytesWritten();
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
        if (store != null) {
            try {
                store.close();
            } catch (IOException e) {
                // unlinked when made (ScratchFile): its space comes back at exit whatever happens here
            }
            store = null;
        }
    }
}
