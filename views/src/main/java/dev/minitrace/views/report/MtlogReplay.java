package dev.minitrace.views.report;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.write.RecordBatch;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.util.function.LongPredicate;

/**
 * Hands an {@code .mtlog}'s records to a writer that wants them thread by thread, as the converter
 * would. An {@code .mtlog} has no time per record: each record is given the time of the GC point
 * that began its fragment (the file's start for the first), the one time the file knows for it. In
 * the global layout the bytecode index is not stored (aux holds the thread): 0 is given, and
 * {@link Integer#MIN_VALUE} for an exit, whose bytecode index 0 would mean an exit by exception.
 */
public final class MtlogReplay {
    private static final int BATCH = 4096;

    private MtlogReplay() {
    }

    /** Replays the base records of every stream of {@code reader} into {@code writer} and finishes it with the file's tables. */
    static void replay(MtlogReader reader, TraceWriter writer) throws IOException {
        replay(reader, writer, key -> true, MtlogFormat.OBJECT_ALLOC);
    }

    /**
     * Replays the records up to type {@code maxType} of the threads {@code threads} accepts (by
     * thread id) into {@code writer} and finishes it with the file's tables.
     */
    public static void replay(MtlogReader reader, TraceWriter writer, LongPredicate threads, int maxType) throws IOException {
        if (reader.globalLayout()) {
            Batch b = new Batch(writer, reader.startNanos(), maxType);
            reader.forEachRecord((stream, type, value, aux) -> {
                long key = aux & 0xFFFF_FFFFL;
                if (type == MtlogFormat.GC_TIMESTAMP || threads.test(key)) {
                    b.add(key, type, value, type == MtlogFormat.METHOD_EXIT ? Integer.MIN_VALUE : 0, true);
                }
            });
            b.flush();
        } else {
            for (int stream : reader.streamIds()) {
                long key = stream & 0xFFFF_FFFFL;
                if (!threads.test(key)) {
                    continue;
                }
                Batch b = new Batch(writer, reader.startNanos(), maxType);
                reader.forEachRecord(stream, (id, type, value, aux) -> b.add(key, type, value, aux, false));
                b.flush();
            }
        }
        writer.finish(reader.info());
    }

    /** The records of one thread until the thread changes or the batch is full, each with its fragment's time. */
    private static final class Batch {
        private final TraceWriter writer;
        private final RecordBatch records;
        private final int maxType;
        private long fragmentStart;

        Batch(TraceWriter writer, long start, int maxType) {
            this.writer = writer;
            this.records = new RecordBatch(writer, BATCH);
            this.maxType = maxType;
            this.fragmentStart = start;
        }

        void add(long key, int t, long v, int a, boolean global) throws IOException {
            if (t == MtlogFormat.GC_TIMESTAMP) {
                records.flush();
                fragmentStart = v;
                writer.fragment(global ? -1 : key, a & 0xFFFF_FFFFL, v);
                return;
            }
            if (t < MtlogFormat.METHOD_ENTRY || t > maxType || t > MtlogFormat.OBJECT_ALLOC && t < MtlogFormat.EXCEPTION_THROW) {
                return; // a type the writer does not take, or of a later minor version: skipped, as readers do
            }
            records.add(key, t, fragmentStart, v, a);
        }

        void flush() throws IOException {
            records.flush();
        }
    }
}
