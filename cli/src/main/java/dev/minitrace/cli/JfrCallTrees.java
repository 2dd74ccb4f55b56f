package dev.minitrace.cli;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * The trace records of a JFR recording, per thread and in each thread's order, with their times:
 * what {@code mt print --tree} shows for a {@code .jfr} (an {@code .mtlog} carries no per-record
 * time). Read through the converter's engine as it is; JFR's file order is not a thread's order,
 * so each thread's records are sorted by their sequence. Only the threads {@code wanted} accepts
 * are kept, since everything kept is held in memory.
 */
final class JfrCallTrees implements RecordingSink {
    /** Longs per record: sequence, time, type and bci, method id or class key, identity hash. */
    private static final int WIDTH = 5;

    /** One thread's records. */
    static final class ThreadRecords {
        final long key;
        String name;
        long[] data = new long[WIDTH * 64];
        int count;

        ThreadRecords(long key, String name) {
            this.key = key;
            this.name = name;
        }

        void add(long sequence, long time, int type, int bci, long value, int hash) {
            if ((count + 1) * WIDTH > data.length) {
                data = Arrays.copyOf(data, data.length * 2);
            }
            int i = count * WIDTH;
            data[i] = sequence;
            data[i + 1] = time;
            data[i + 2] = ((long) type << 32) | (bci & 0xFFFFFFFFL);
            data[i + 3] = value;
            data[i + 4] = hash;
            count++;
        }

        /** The positions of the records in the thread's order. */
        Integer[] order() {
            Integer[] order = new Integer[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(data[a * WIDTH], data[b * WIDTH]));
            return order;
        }
    }

    private final LongPredicate wantedId;
    private final java.util.function.Predicate<String> wantedName;
    private final Map<Long, String> threadNames = new HashMap<>();
    private final Map<Long, ThreadRecords> threads = new LinkedHashMap<>();
    private final Map<Long, String> classes = new HashMap<>();
    private final Map<Integer, String> methods = new HashMap<>();
    private long dataLoss;

    private JfrCallTrees(LongPredicate wantedId, java.util.function.Predicate<String> wantedName) {
        this.wantedId = wantedId;
        this.wantedName = wantedName;
    }

    /**
     * Reads {@code file} with {@code source}; keeps the threads whose id or name is wanted.
     *
     * @return the trees and the recording's start (ns since the epoch)
     */
    static JfrCallTrees read(Path file, RecordingSource source, LongPredicate wantedId, java.util.function.Predicate<String> wantedName,
            List<String> problems) throws IOException {
        JfrCallTrees trees = new JfrCallTrees(wantedId, wantedName);
        JfrChunks chunks = JfrChunks.scan(file);
        trees.startNanos = chunks.startNanos();
        for (RecordingSource.ChunkFailure f : source.read(chunks, trees)) {
            problems.add("chunk " + f.chunk().index() + " unreadable: " + f.reason());
        }
        if (chunks.tailProblem() != null) {
            problems.add(chunks.tailProblem());
        }
        if (trees.dataLoss > 0) {
            problems.add("the recording lost " + trees.dataLoss + " bytes of events (jdk.DataLoss)");
        }
        return trees;
    }

    private long startNanos;

    long startNanos() {
        return startNanos;
    }

    List<ThreadRecords> threads() {
        List<ThreadRecords> list = new ArrayList<>();
        for (ThreadRecords t : threads.values()) {
            if (t != null) {
                list.add(t);
            }
        }
        list.sort((a, b) -> Long.compare(a.key, b.key));
        return list;
    }

    /** The tree's text of a method id. */
    String method(long id) {
        String m = methods.get((int) id);
        return m == null ? "?method" + id : m;
    }

    /** {@code class@hash} of an object record (its class key and identity hash). */
    String object(long classKey, int hash) {
        String c = classes.get(classKey);
        return (c == null ? "?" : c) + "@" + Integer.toHexString(hash);
    }

    private ThreadRecords thread(long key) {
        ThreadRecords t = threads.get(key);
        if (t == null && !threads.containsKey(key)) {
            String name = threadNames.getOrDefault(key, "?thread" + key);
            t = wantedId.test(key) || wantedName.test(name) ? new ThreadRecords(key, name) : null;
            threads.put(key, t);
        }
        return t;
    }

    @Override
    public void chunkBegin(JfrChunk chunk) {
        // nothing per chunk
    }

    @Override
    public void thread(long threadKey, long javaThreadId, String name, boolean virtual) {
        threadNames.put(threadKey, name);
        ThreadRecords t = threads.get(threadKey);
        if (t != null) {
            t.name = name;
        }
    }

    @Override
    public void classDefinition(long classKey, String className) {
        classes.put(classKey, className);
    }

    @Override
    public void methodDefinition(int methodId, String className, String methodName, String descriptor) {
        methods.put(methodId, CallTree.methodName(className, methodName, descriptor));
    }

    @Override
    public void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci) {
        ThreadRecords t = thread(threadKey);
        if (t != null) {
            t.add(sequence, timeNanos, type, bci, methodId & 0xFFFFFFFFL, 0);
        }
    }

    @Override
    public void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci) {
        ThreadRecords t = thread(threadKey);
        if (t != null) {
            t.add(sequence, timeNanos, type, bci, classKey, identityHash);
        }
    }

    @Override
    public void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
        // jdk.MethodTrace has no per-thread order to merge with; not part of the tree
    }

    @Override
    public void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey) {
        // as above
    }

    @Override
    public void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos) {
        // the tree of a .jfr shows times; GCs are in mt summary
    }

    @Override
    public void gcPause(long gcId, String name, long startNanos, long durationNanos) {
        // as above
    }

    @Override
    public void corruptMethodBuffer(long threadKey, int recordCount, String reason) {
        ThreadRecords t = thread(threadKey);
        if (t != null) {
            // keep the thread's tree honest about the hole
            t.add(Long.MAX_VALUE, Long.MIN_VALUE, CallTree.LOST, 0, recordCount, 0);
        }
    }

    @Override
    public void dataLoss(long amountBytes) {
        dataLoss += amountBytes;
    }

    @Override
    public void chunkEnd(JfrChunk chunk, long bytesDone) {
        // nothing per chunk
    }

    /** Prints one thread through {@code tree}. */
    void print(ThreadRecords t, CallTree tree) {
        for (int i : t.order()) {
            int at = i * WIDTH;
            int type = (int) (t.data[at + 2] >>> 32);
            int bci = (int) t.data[at + 2];
            long time = t.data[at + 1] == Long.MIN_VALUE ? Long.MIN_VALUE : t.data[at + 1] - startNanos;
            if (type == CallTree.LOST || !MtlogFormat.objectValued(type)) { // a method, a count, a field, a length
                tree.record(type, t.data[at + 3], bci, time, null);
            } else {
                tree.record(type, 0, bci, time, object(t.data[at + 3], (int) t.data[at + 4]));
            }
        }
        tree.end();
    }
}
