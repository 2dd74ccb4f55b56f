package dev.minitrace.query.export;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.TraceWriter;
import java.io.IOException;

/**
 * A small trace with every case the tables must get right, delivered to a {@link TraceWriter} as
 * the converter would (each thread's records in order, a fragment point before the first record
 * after a GC). The numbers in {@code add} are microseconds after {@link #T0} (ns since the epoch).
 *
 * <pre>
 * thread 1 "main":  run() { alloc int[] ; sync(lockA) { work() } ; throws }   GC 3   step() { sync(lockB) ...   (never ends)
 * thread 2 "late":  exit of a call begun before the trace, a whole call, another such exit, a release without its acquire
 * thread 3 "lost":  outer() { inner() { ... exit of outer: inner's exit was lost
 * </pre>
 */
public final class SyntheticTrace {
    public static final long T0 = 1_700_000_000_000_000_000L;
    /** Method ids. */
    public static final long RUN = 1, WORK = 2, STEP = 3, BEFORE = 5, WHOLE = 6, OUTSIDE = 7, OUTER = 8, INNER = 9;
    /** Class ids and the objects. */
    public static final long INTS = 7, MONITOR = 8;
    public static final long ARRAY = INTS << 32 | 0x55, LOCK_A = MONITOR << 32 | 0x99, LOCK_B = MONITOR << 32 | 0x77,
            LOCK_C = MONITOR << 32 | 0x33;

    private SyntheticTrace() {
    }

    /** Delivers the trace to {@code w} and finishes it. */
    public static void write(TraceWriter w) throws IOException {
        Batch b = new Batch();
        b.add(MtlogFormat.METHOD_ENTRY, 100, RUN, 0);
        b.add(MtlogFormat.OBJECT_ALLOC, 110, ARRAY, 4);
        b.add(MtlogFormat.LOCK_ACQUIRE, 120, LOCK_A, 12);
        b.add(MtlogFormat.METHOD_ENTRY, 130, WORK, 0);
        b.add(MtlogFormat.METHOD_EXIT, 150, WORK, 9);
        b.add(MtlogFormat.LOCK_RELEASE, 160, LOCK_A, 20);
        b.add(MtlogFormat.METHOD_EXIT, 200, RUN, 0);
        b.flush(w, 1);
        w.fragment(1, 3, T0 + 250_000);
        b.add(MtlogFormat.METHOD_ENTRY, 300, STEP, 0);
        b.add(MtlogFormat.LOCK_ACQUIRE, 310, LOCK_B, 5);
        b.add(MtlogFormat.OBJECT_ALLOC, 320, ARRAY + 1, 8);
        b.flush(w, 1);

        b.add(MtlogFormat.METHOD_EXIT, 50, BEFORE, 7);
        b.add(MtlogFormat.METHOD_ENTRY, 60, WHOLE, 0);
        b.add(MtlogFormat.METHOD_EXIT, 70, WHOLE, 3);
        b.add(MtlogFormat.METHOD_EXIT, 80, OUTSIDE, 11);
        b.add(MtlogFormat.LOCK_RELEASE, 90, LOCK_C, 14);
        b.flush(w, 2);

        b.add(MtlogFormat.METHOD_ENTRY, 10, OUTER, 0);
        b.add(MtlogFormat.METHOD_ENTRY, 20, INNER, 0);
        b.add(MtlogFormat.METHOD_EXIT, 40, OUTER, 6);
        b.flush(w, 3);

        w.finish(info());
    }

    /** The names of every id the trace uses. */
    public static MtlogInfo info() {
        MtlogInfo i = new MtlogInfo();
        i.putThread(1, 1, "main");
        i.putThread(2, 22, "late");
        i.putThread(3, -1, "lost");
        i.putClass(INTS, "[I");
        i.putClass(MONITOR, "com.acme.Monitor");
        i.putMethod(RUN, "com.acme.App", "run", "()V");
        i.putMethod(WORK, "com.acme.App", "work", "()I");
        i.putMethod(STEP, "com.acme.App", "step", "()V");
        i.putMethod(BEFORE, "com.acme.Early", "before", "()V");
        i.putMethod(WHOLE, "com.acme.Early", "whole", "()V");
        i.putMethod(OUTSIDE, "com.acme.Early", "outside", "()V");
        i.putMethod(OUTER, "com.acme.Lost", "outer", "()V");
        i.putMethod(INNER, "com.acme.Lost", "inner", "()V");
        i.putGc(3, "G1New", "G1 Evacuation Pause", T0 + 250_000, 5_000);
        i.putGc(4, "?", "?", T0 + 400_000, -1);
        return i;
    }

    private static final class Batch {
        final byte[] type = new byte[16];
        final long[] time = new long[16];
        final long[] value = new long[16];
        final int[] aux = new int[16];
        int n;

        void add(int t, long at, long v, int a) {
            type[n] = (byte) t;
            time[n] = T0 + at * 1000;
            value[n] = v;
            aux[n] = a;
            n++;
        }

        void flush(TraceWriter w, long thread) throws IOException {
            // two calls, so a thread's records reach the writer in more than one batch
            int half = n / 2;
            w.records(thread, type, time, value, aux, 0, half);
            w.records(thread, type, time, value, aux, half, n);
            n = 0;
        }
    }
}
