package dev.minitrace.views.report;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;

/**
 * Hands an {@code .mtlog}'s records to a writer that wants them thread by thread, as the converter
 * would. An {@code .mtlog} has no time per record: each record is given the time of the GC point
 * that began its fragment (the file's start for the first), the one time the file knows for it. In
 * the global layout the bytecode index is not stored (aux holds the thread): 0 is given, and
 * {@link Integer#MIN_VALUE} for an exit, whose bytecode index 0 would mean an exit by exception.
 */
final class MtlogReplay {
    private static final int BATCH = 4096;

    private MtlogReplay() {
    }

    /** Replays every stream of {@code reader} into {@code writer} and finishes it with the file's tables. */
    static void replay(MtlogReader reader, TraceWriter writer) throws IOException {
        if (reader.globalLayout()) {
            Batch b = new Batch(writer, reader.startNanos());
            reader.forEachRecord((stream, type, value, aux) -> b.add(aux & 0xFFFF_FFFFL, type, value,
                    type == MtlogFormat.METHOD_EXIT ? Integer.MIN_VALUE : 0, true));
            b.flush();
        } else {
            for (int stream : reader.streamIds()) {
                Batch b = new Batch(writer, reader.startNanos());
                long key = stream & 0xFFFF_FFFFL;
                reader.forEachRecord(stream, (id, type, value, aux) -> b.add(key, type, value, aux, false));
                b.flush();
            }
        }
        writer.finish(reader.info());
    }

    /** The records of one thread until the thread changes or the batch is full. */
    private static final class Batch {
        private final TraceWriter writer;
        private final byte[] type = new byte[BATCH];
        private final long[] time = new long[BATCH];
        private final long[] value = new long[BATCH];
        private final int[] aux = new int[BATCH];
        private int size;
        private long thread = -1;
        private long fragmentStart;

        Batch(TraceWriter writer, long start) {
            this.writer = writer;
            this.fragmentStart = start;
        }

        void add(long key, int t, long v, int a, boolean global) throws IOException {
            if (t == MtlogFormat.GC_TIMESTAMP) {
                flush();
                fragmentStart = v;
                writer.fragment(global ? -1 : key, a & 0xFFFF_FFFFL, v);
                return;
            }
            if (t < MtlogFormat.METHOD_ENTRY || t > MtlogFormat.OBJECT_ALLOC) {
                return; // a type of a later minor version: skipped, as readers do
            }
            if (key != thread || size == BATCH) {
                flush();
                thread = key;
            }
            type[size] = (byte) t;
            time[size] = fragmentStart;
            value[size] = v;
            aux[size] = a;
            size++;
        }

        void flush() throws IOException {
            if (size > 0) {
                writer.records(thread, type, time, value, aux, 0, size);
                size = 0;
            }
        }
    }
}
