package dev.minitrace.cli;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.TraceWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code mt print --tree} shows of a JFR recording: the converter's records of each thread,
 * in the thread's exact order ({@link Order#THREAD}) and with their times, kept until the names
 * are known ({@link #finish}) and then printed as {@link CallTree}s. The records are kept in
 * primitive columns, 21 bytes each: a {@code --threads} selection the converter can make (exact
 * names and ids) keeps only those threads.
 */
final class TreeWriter implements TraceWriter {
    /** One thread's records, in order. */
    static final class ThreadRecords {
        final long key;
        byte[] type = new byte[256];
        long[] time = new long[256];
        long[] value = new long[256];
        int[] aux = new int[256];
        int count;

        ThreadRecords(long key) {
            this.key = key;
        }

        void add(byte[] t, long[] tm, long[] v, int[] a, int from, int to) {
            int n = to - from;
            if (count + n > type.length) {
                int len = Math.max(count + n, type.length * 2);
                type = Arrays.copyOf(type, len);
                time = Arrays.copyOf(time, len);
                value = Arrays.copyOf(value, len);
                aux = Arrays.copyOf(aux, len);
            }
            System.arraycopy(t, from, type, count, n);
            System.arraycopy(tm, from, time, count, n);
            System.arraycopy(v, from, value, count, n);
            System.arraycopy(a, from, aux, count, n);
            count += n;
        }

        /** Hands the records to {@code tree}, times relative to {@code startNanos}, and ends it. */
        void print(CallTree tree, long startNanos) {
            for (int i = 0; i < count; i++) {
                tree.record(type[i], value[i], aux[i], time[i] == Long.MIN_VALUE ? Long.MIN_VALUE : time[i] - startNanos, null);
            }
            tree.end();
        }
    }

    final long startNanos;
    private final Map<Long, ThreadRecords> byKey = new HashMap<>();
    private final List<ThreadRecords> threads = new ArrayList<>();
    private ThreadRecords last;
    private MtlogInfo info;

    TreeWriter(long startNanos) {
        this.startNanos = startNanos;
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) {
        ThreadRecords t = last;
        if (t == null || t.key != threadKey) {
            t = byKey.get(threadKey);
            if (t == null) {
                t = new ThreadRecords(threadKey);
                byKey.put(threadKey, t);
                threads.add(t);
            }
            last = t;
        }
        t.add(type, time, value, aux, from, to);
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

    /** The threads, by key. */
    List<ThreadRecords> threads() {
        List<ThreadRecords> list = new ArrayList<>(threads);
        list.sort((a, b) -> Long.compare(a.key, b.key));
        return list;
    }

    @Override
    public void close() {
        // nothing on disk
    }
}
