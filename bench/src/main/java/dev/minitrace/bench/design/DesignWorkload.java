package dev.minitrace.bench.design;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Candidate event designs for tracing a call, each hand-written into the same depth-10 recursion so
 * that only the design differs: {@code plain} (nothing), {@code two} (an entry and an exit event
 * per call, as the agent commits today), {@code one} (one event per call carrying start and
 * duration, entry and exit sequences), {@code buffer} (packed records in a per-thread char buffer,
 * flushed as one event per 8 K chars, a timestamp per record) and {@code buffer-notime} (the same
 * without timestamps). Prints {@code RESULT <wall ns/call> <process CPU ns/call>}.
 *
 * <p>Arguments: {@code MODE warmupTrees measuredTrees batches}.
 */
public final class DesignWorkload {
    private static final int DEPTH = 10;
    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);
    static volatile long sink;

    private DesignWorkload() {
    }

    /** An entry event of design {@code two}. */
    @Name("bench.Entry")
    @StackTrace(false)
    static final class EntryEvent extends Event {
        int methodId;
        long sequence;
    }

    /** An exit event of design {@code two}. */
    @Name("bench.Exit")
    @StackTrace(false)
    static final class ExitEvent extends Event {
        int methodId;
        long sequence;
    }

    /** The single event of design {@code one}: start time and duration come from begin()/commit(). */
    @Name("bench.Call")
    @StackTrace(false)
    static final class CallEvent extends Event {
        int methodId;
        long entrySequence;
        long exitSequence;
    }

    /** A flushed buffer of design {@code buffer}: chars below 128 cost one byte each on disk. */
    @Name("bench.Buffer")
    @StackTrace(false)
    static final class BufferEvent extends Event {
        String records;
        long firstSequence;
    }

    /** Per-thread state: the sequence and the record buffer. */
    static final class State {
        long sequence;
        long lastTime;
        final char[] buffer = new char[8192];
        int position;
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) {
        String mode = args[0];
        long warmup = Long.parseLong(args[1]);
        long measured = Long.parseLong(args[2]);
        int batches = Integer.parseInt(args[3]);
        boolean time = !mode.equals("buffer-notime");
        run(mode, warmup, time);
        long perBatch = measured / batches;
        double[] wall = new double[batches];
        long cpu0 = processCpuNanos();
        for (int b = 0; b < batches; b++) {
            long t0 = System.nanoTime();
            run(mode, perBatch, time);
            wall[b] = (System.nanoTime() - t0) / (double) (perBatch * DEPTH);
        }
        double cpu = (processCpuNanos() - cpu0) / (double) (perBatch * batches * DEPTH);
        Arrays.sort(wall);
        System.out.println("RESULT " + wall[batches / 2] + " " + cpu);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void run(String mode, long trees, boolean time) {
        long acc = 0;
        switch (mode) {
            case "plain" -> {
                for (long i = 0; i < trees; i++) {
                    acc += plain(DEPTH);
                }
            }
            case "two" -> {
                for (long i = 0; i < trees; i++) {
                    acc += two(DEPTH);
                }
            }
            case "one" -> {
                for (long i = 0; i < trees; i++) {
                    acc += one(DEPTH);
                }
            }
            case "buffer", "buffer-notime" -> {
                for (long i = 0; i < trees; i++) {
                    acc += buffered(DEPTH, time);
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        sink += acc;
    }

    /** The untraced method; also the method JEP 520's filter selects in the reference run. */
    public static int plain(int depth) {
        return depth <= 1 ? 1 : plain(depth - 1) + 1;
    }

    static int two(int depth) {
        EntryEvent e = new EntryEvent();
        e.methodId = 7;
        e.sequence = ++STATE.get().sequence;
        e.commit();
        int r = depth <= 1 ? 1 : two(depth - 1) + 1;
        ExitEvent x = new ExitEvent();
        x.methodId = 7;
        x.sequence = ++STATE.get().sequence;
        x.commit();
        return r;
    }

    static int one(int depth) {
        CallEvent c = new CallEvent();
        c.begin();
        c.entrySequence = ++STATE.get().sequence;
        int r = depth <= 1 ? 1 : one(depth - 1) + 1;
        c.methodId = 7;
        c.exitSequence = ++STATE.get().sequence;
        c.commit();
        return r;
    }

    static int buffered(int depth, boolean time) {
        record(STATE.get(), 1, 7, time);
        int r = depth <= 1 ? 1 : buffered(depth - 1, time) + 1;
        record(STATE.get(), 2, 7, time);
        return r;
    }

    // A record: type char, then method id and time delta as base-64 varints (6 bits a char, bit 6
    // = more), so every char is below 128 and JFR writes it as one byte.
    private static void record(State s, int type, int methodId, boolean time) {
        long delta = 0;
        if (time) {
            long now = System.nanoTime();
            delta = now - s.lastTime;
            s.lastTime = now;
        }
        char[] b = s.buffer;
        int p = s.position;
        if (p > b.length - 16) {
            flush(s, p);
            p = 0;
        }
        b[p++] = (char) type;
        int id = methodId;
        while (id >= 0x40) {
            b[p++] = (char) (0x40 | (id & 0x3f));
            id >>>= 6;
        }
        b[p++] = (char) id;
        while (delta >= 0x40 || delta < 0) {
            b[p++] = (char) (0x40 | (delta & 0x3f));
            delta >>>= 6;
        }
        b[p++] = (char) delta;
        s.position = p;
        s.sequence++;
    }

    private static void flush(State s, int length) {
        BufferEvent e = new BufferEvent();
        e.records = new String(s.buffer, 0, length);
        e.firstSequence = s.sequence;
        e.commit();
        s.position = 0;
    }
}
