package dev.minitrace.query.export;

import dev.minitrace.converter.mtlog.MtlogFormat;
import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.converter.write.TraceWriter;
import dev.minitrace.query.TraceTables;
import dev.minitrace.query.parquet.TableSchema;
import dev.minitrace.query.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Parquet export, a {@link TraceWriter}: the tables of {@link TraceTables} in folder
 * {@code out}, each as {@code <table>/recording=<id>/part-<n>.parquet}. Records come in each thread's
 * exact order ({@link Order#THREAD}), which the {@code calls} and {@code locks} tables need
 * ({@link ThreadTrace}). The files are written in a hidden folder inside {@code out} and moved to
 * their places only when complete, replacing an earlier export of the same recording; other
 * recordings' partitions in {@code out} stay.
 */
public final class ParquetExport implements TraceWriter {
    /** Row groups of the large tables: at most this many rows... */
    static final int ROW_GROUP_ROWS = 1 << 20;
    /** ... and this many buffered bytes, so the large tables' four files hold at most about 4 x 16 MB. */
    static final long ROW_GROUP_BYTES = 16L << 20;
    /** Row groups of the file of long calls: few calls, small row groups and pages. */
    static final int LONG_CALL_ROWS = 1 << 16;
    static final long LONG_CALL_BYTES = 2L << 20;

    private final Path out;
    private final RecordingFacts facts;
    private final String id;
    private final Path staging;
    private final RecordFamilies records;
    private final TableWriter calls;
    /** The calls of {@link TraceTables#LONG_CALL_NS} or longer: part-1 of {@code calls}. */
    private final TableWriter longCalls;
    private final TableWriter locks;
    private final TableWriter stackRows;
    private final StackTotals stacks;
    /** The threads in order of their first record, and where each thread's key finds its trace (no boxing per batch). */
    private final List<ThreadTrace> threads = new ArrayList<>();
    private final LongIntMap threadIndex = new LongIntMap(64);
    private final Map<Long, Long> gcPoints = new HashMap<>();
    private ThreadTrace last;
    private long fragmentOfNewThreads = NULL_LONG;
    private long endNanos = NULL_LONG;
    /** Every record, method entries and exits included (which the files of {@code records} leave to {@code calls}). */
    private long recordCount;
    private boolean finished;

    /** Starts an export of the recording {@code facts} describes into folder {@code out} (created when missing). */
    public ParquetExport(Path out, RecordingFacts facts) throws IOException {
        this.out = out.toAbsolutePath();
        this.facts = facts;
        this.id = facts.id();
        Files.createDirectories(this.out);
        this.staging = Files.createTempDirectory(this.out, ".export-");
        TableWriter c = null;
        TableWriter lc = null;
        TableWriter l = null;
        try {
            this.records = new RecordFamilies(folder(TraceTables.RECORDS), metadata(TraceTables.RECORDS));
            c = open(ThreadTrace.CALLS);
            lc = new TableWriter(ThreadTrace.CALLS, folder(ThreadTrace.CALLS), 1, 1, LONG_CALL_ROWS, LONG_CALL_BYTES,
                    metadata(ThreadTrace.CALLS)).background("minitrace-export-long-calls");
            l = open(ThreadTrace.LOCKS);
            this.stackRows = open(StackTotals.STACKS);
        } catch (IOException | RuntimeException e) {
            for (TableWriter w : new TableWriter[] {c, lc, l}) {
                if (w != null) {
                    w.abandon();
                }
            }
            Folders.deleteTree(staging);
            throw e;
        }
        this.calls = c;
        this.longCalls = lc;
        this.locks = l;
        // its runs are scratch files in staging, which close() deletes in any case
        this.stacks = new StackTotals(stackRows, staging);
    }

    private TableWriter open(TableSchema table) throws IOException {
        // Encoding is most of the work: each large table encodes on a thread of its own
        return new TableWriter(table, folder(table), 1, ROW_GROUP_ROWS, ROW_GROUP_BYTES, metadata(table))
                .background("minitrace-export-" + table.name());
    }

    private Path folder(TableSchema table) throws IOException {
        return Files.createDirectories(staging.resolve(table.name()));
    }

    private Map<String, String> metadata(TableSchema table) {
        return Map.of("minitrace.recording", id, "minitrace.table", table.name());
    }

    /** The recording's id: the {@code recording} partition value of every table. */
    public String recordingId() {
        return id;
    }

    /** The rows of {@code records} (its view's: every record), {@code calls} and {@code locks}. */
    public long[] rows() {
        return new long[] {recordCount, calls.rows() + longCalls.rows(), locks.rows()};
    }

    @Override
    public Order order() {
        return Order.THREAD;
    }

    @Override
    public long heapBytes() {
        // The row groups of records' families, calls, locks and stacks, their page and dictionary
        // buffers, the slices; the large pages of the calls' REPEATS columns; the paths' sums.
        return RecordFamilies.heapBytes() + 3 * ROW_GROUP_BYTES + (16L << 20) + TableWriter.repeatBytes(ThreadTrace.CALLS)
                + StackTotals.HEAP_BYTES + longCallBytes();
    }

    /** The file of long calls: its row group, and its large pages, which its row groups bound. */
    private static long longCallBytes() {
        return LONG_CALL_BYTES + (long) LONG_CALL_ROWS * 8 * ThreadTrace.CALLS.columns().size();
    }

    @Override
    public void records(long threadKey, byte[] type, long[] time, long[] value, int[] aux, int from, int to) throws IOException {
        ThreadTrace t = trace(threadKey);
        recordCount += to - from;
        for (int i = from; i < to; i++) {
            t.add(type[i], time[i], value[i], aux[i], records, calls, longCalls, locks);
        }
        if (to > from && time[to - 1] != NULL_LONG && (endNanos == NULL_LONG || time[to - 1] > endNanos)) {
            endNanos = time[to - 1];
        }
    }

    private ThreadTrace trace(long threadKey) {
        ThreadTrace t = last;
        if (t == null || t.key != threadKey) {
            int i = threadIndex.get(threadKey);
            if (i == LongIntMap.MISSING) {
                t = new ThreadTrace(threadKey, stacks);
                t.fragment = fragmentOfNewThreads;
                threadIndex.put(threadKey, threads.size());
                threads.add(t);
            } else {
                t = threads.get(i);
            }
            last = t;
        }
        return t;
    }

    /** {@inheritDoc} {@code threadKey} -1 (an {@code .mtlog}'s global layout) starts the fragment in every thread. */
    @Override
    public void fragment(long threadKey, long gcId, long startNanos) {
        gcPoints.putIfAbsent(gcId, startNanos);
        if (threadKey == -1) {
            fragmentOfNewThreads = gcId;
            for (ThreadTrace t : threads) {
                t.fragment = gcId;
            }
        } else {
            trace(threadKey).fragment = gcId;
        }
    }

    @Override
    public void finish(MtlogInfo tables) throws IOException {
        for (ThreadTrace t : threads) {
            t.finish(calls, longCalls, locks);
        }
        stacks.finish();
        records.close();
        calls.close();
        longCalls.close();
        locks.close();
        stackRows.close();
        Dimensions.write(staging, tables, gcPoints, Map.of("minitrace.recording", id));
        Dimensions.recording(staging, facts, endNanos, recordCount, calls.rows() + longCalls.rows(), locks.rows(), tables.threads().size(),
                Map.of("minitrace.recording", id));
        publish();
        finished = true;
    }

    /** Moves each table's files to {@code out/<table>/recording=<id>/}, replacing what an earlier export of the recording left. */
    private void publish() throws IOException {
        for (TableSchema t : TraceTables.ALL) {
            Path partition = out.resolve(t.name()).resolve(TraceTables.RECORDING_COLUMN + "=" + id);
            Files.createDirectories(partition.getParent());
            Path old = null;
            if (Files.exists(partition)) {
                old = Files.createTempDirectory(partition.getParent(), ".old-");
                Files.move(partition, old.resolve("x"));
            }
            // a rename within out: the partition appears whole
            Files.move(staging.resolve(t.name()), partition);
            if (old != null) {
                Folders.deleteTree(old);
            }
        }
    }

    /** Without {@link #finish}: nothing of this export is left in {@code out}. */
    @Override
    public void close() throws IOException {
        if (!finished) {
            records.abandon();
            calls.abandon();
            longCalls.abandon();
            locks.abandon();
            stackRows.abandon();
        }
        Folders.deleteTree(staging);
    }
}
