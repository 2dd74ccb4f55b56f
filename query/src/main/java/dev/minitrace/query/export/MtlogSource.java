package dev.minitrace.query.export;

import static dev.minitrace.query.parquet.ParquetFile.NULL_INT;
import static dev.minitrace.query.parquet.ParquetFile.NULL_LONG;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;
import java.util.Arrays;

/**
 * Replays an {@code .mtlog} into a {@link TraceWriter} that wants {@link TraceWriter.Order#THREAD}.
 * An {@code .mtlog} has no per-record times, so every time is null; the global layout's
 * {@code aux} is the thread, so its bytecode indexes are null too, and its GC points start a
 * fragment in every thread at once. Each stream's records keep their order; runs of one thread
 * go to the writer together.
 */
public final class MtlogSource {
    private static final int RUN = 4096;

    private final byte[] type = new byte[RUN];
    private final long[] time = new long[RUN];
    private final long[] value = new long[RUN];
    private final int[] aux = new int[RUN];
    private long thread = Long.MIN_VALUE;
    private int n;

    private MtlogSource() {
        Arrays.fill(time, NULL_LONG);
    }

    /** Hands every record of {@code log} to {@code writer}, then its INFO to {@link TraceWriter#finish}. */
    public static void replay(MtlogReader log, TraceWriter writer) throws IOException {
        new MtlogSource().run(log, writer);
    }

    private void run(MtlogReader log, TraceWriter writer) throws IOException {
        if (writer.order() != TraceWriter.Order.THREAD) {
            throw new IllegalArgumentException("an .mtlog is replayed in thread order only");
        }
        boolean global = log.globalLayout();
        log.forEachRecord((stream, t, v, a) -> {
            long key = global ? a & 0xFFFFFFFFL : stream & 0xFFFFFFFFL;
            if (t == MtlogFormat.GC_TIMESTAMP) {
                flush(writer);
                writer.fragment(global ? -1 : key, a & 0xFFFFFFFFL, v);
                return;
            }
            if (t < MtlogFormat.METHOD_ENTRY || t > MtlogFormat.MAX_TYPE || t > MtlogFormat.MAX_BASE_TYPE && t < MtlogFormat.EXCEPTION_THROW) {
                return; // a type this version does not know: skipped, as the format says
            }
            if (key != thread || n == RUN) {
                flush(writer);
                thread = key;
            }
            type[n] = (byte) t;
            value[n] = v;
            aux[n] = global ? NULL_INT : a;
            n++;
        });
        flush(writer);
        writer.finish(log.info());
    }

    private void flush(TraceWriter writer) throws IOException {
        if (n > 0) {
            writer.records(thread, type, time, value, aux, 0, n);
            n = 0;
        }
    }
}
