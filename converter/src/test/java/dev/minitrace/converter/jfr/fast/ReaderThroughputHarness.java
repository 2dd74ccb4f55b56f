package dev.minitrace.converter.jfr.fast;

import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * Throw-away measurement harness (a main, not a test): events per second of the fast reader
 * against {@link RecordingFile} on the same file in the same JVM, medians of several rounds.
 * Run with the converter's test classes, main classes and the jfr-events classes on the class path.
 * <pre>
 *   generate FILE EVENTS THREADS   record about EVENTS small minitrace events (entry, allocation,
 *                                  exit) from THREADS threads; -Deasy=true makes every field
 *                                  but the time a one-byte varint (to see what branch
 *                                  mispredicts on varint lengths cost: nothing measurable)
 *   compare FILE ROUNDS            alternate the readers named by -Dreaders (default
 *                                  rf,fast; also skip = decode nothing, empty = decode
 *                                  into an empty sink), print medians, ratios and CPU time
 *   only READER FILE               one read, for measuring peak RSS from outside
 *   loop READER FILE N             N reads, for profiling
 * </pre>
 */
public final class ReaderThroughputHarness {
    private ReaderThroughputHarness() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "generate" -> generate(Paths.get(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]));
            case "compare" -> compare(Paths.get(args[1]), Integer.parseInt(args[2]));
            case "only" -> System.out.println(args[1] + " " + once(args[1], Paths.get(args[2])) + " events");
            case "loop" -> {
                for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                    long t0 = System.nanoTime();
                    long n = once(args[1], Paths.get(args[2]));
                    System.out.printf("%s %,d events in %.3f s%n", args[1], n, (System.nanoTime() - t0) / 1e9);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void generate(Path file, long events, int threads) throws Exception {
        try (Recording r = new Recording()) {
            r.enable(MethodEntryEvent.class);
            r.enable(MethodExitEvent.class);
            r.enable(ObjectAllocEvent.class);
            r.setToDisk(true);
            r.start();
            long perThread = events / threads;
            List<Thread> list = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int id = t;
                Thread th = new Thread(() -> {
                    long seq = 1;
                    boolean easy = Boolean.getBoolean("easy");
                    for (long i = 0; i < perThread; i += 3) {
                        MethodEntryEvent e = new MethodEntryEvent();
                        e.methodId = (int) (i % 1000) + id;
                        e.sequence = seq++;
                        if (easy) {
                            e.methodId = 5;
                            e.sequence = 7;
                            e.commit();
                            ObjectAllocEvent a = new ObjectAllocEvent();
                            a.objectClass = String.class;
                            a.identityHash = 9;
                            a.bytecodeIndex = 3;
                            a.sequence = 7;
                            a.commit();
                            MethodExitEvent x = new MethodExitEvent();
                            x.methodId = 5;
                            x.bytecodeIndex = 4;
                            x.sequence = 7;
                            x.commit();
                            continue;
                        }
                        e.commit();
                        ObjectAllocEvent a = new ObjectAllocEvent();
                        a.objectClass = (i & 1) == 0 ? String.class : int[].class;
                        a.identityHash = (int) i * 31;
                        a.bytecodeIndex = (int) (i % 200);
                        a.sequence = seq++;
                        a.commit();
                        MethodExitEvent x = new MethodExitEvent();
                        x.methodId = e.methodId;
                        x.bytecodeIndex = (int) (i % 100);
                        x.sequence = seq++;
                        x.commit();
                    }
                }, "gen-" + t);
                list.add(th);
                th.start();
            }
            for (Thread th : list) {
                th.join();
            }
            r.stop();
            r.dump(file);
        }
        System.out.println("wrote " + Files.size(file) + " bytes to " + file);
    }

    /** Sums every field so the JIT cannot drop the work. */
    static final class SumSink implements JfrEventSink {
        long sum;
        long count;

        @Override
        public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
            sum += threadRef + startNanos + methodId + sequence;
            count++;
        }

        @Override
        public void onMethodExit(long threadRef, long startNanos, int methodId, int bytecodeIndex,
                                 boolean exceptional, long sequence) {
            sum += threadRef + startNanos + methodId + bytecodeIndex + (exceptional ? 1 : 0) + sequence;
            count++;
        }

        @Override
        public void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash,
                                  int bytecodeIndex, long sequence) {
            sum += threadRef + startNanos + classRef + identityHash + bytecodeIndex + sequence;
            count++;
        }
    }

    static long once(String which, Path file) throws IOException {
        switch (which) {
            case "rf" -> {
                long n = 0;
                try (RecordingFile rf = new RecordingFile(file)) {
                    while (rf.hasMoreEvents()) {
                        rf.readEvent();
                        n++;
                    }
                }
                return n;
            }
            case "fast" -> {
                SumSink sink = new SumSink();
                new JfrReader().read(file, sink);
                if (sink.sum == 42) {
                    System.out.print("");
                }
                return sink.count;
            }
            case "empty" -> {
                return new JfrReader().read(file, new JfrEventSink() { }).events();
            }
            case "skip" -> {
                return new JfrReader(java.util.EnumSet.noneOf(JfrEventKind.class)).read(file, new SumSink()).chunks();
            }
            default -> throw new IllegalArgumentException(which);
        }
    }

    static void compare(Path file, int rounds) throws IOException {
        String[] readers = System.getProperty("readers", "rf,fast").split(",");
        double[][] rates = new double[readers.length][rounds];
        long[] counts = new long[readers.length];
        double[][] cpu = new double[readers.length][rounds];
        for (int round = -1; round < rounds; round++) { // round -1 warms up
            for (int r = 0; r < readers.length; r++) {
                long c0 = processCpuNanos();
                long t0 = System.nanoTime();
                counts[r] = once(readers[r], file);
                long t1 = System.nanoTime();
                long c1 = processCpuNanos();
                double rate = counts[r] / ((t1 - t0) / 1e9);
                if (round >= 0) {
                    rates[r][round] = rate;
                    cpu[r][round] = (c1 - c0) / 1e9;
                }
                System.out.printf("round %d %-8s %,d events in %.3f s = %,.0f events/s, %.3f s CPU%n",
                        round, readers[r], counts[r], (t1 - t0) / 1e9, rate, (c1 - c0) / 1e9);
            }
        }
        double base = median(rates[0]);
        for (int r = 0; r < readers.length; r++) {
            double minCpu = Arrays.stream(cpu[r]).min().orElse(0);
            System.out.printf("median %-8s %,.0f events/s (%.1fx RecordingFile), CPU (all threads) median %.3f s,"
                    + " min %.3f s = %,.0f events per CPU-second; events=%,d%n",
                    readers[r], median(rates[r]), median(rates[r]) / base, median(cpu[r]), minCpu,
                    counts[r] / minCpu, counts[r]);
        }
        System.out.println("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                + " CPUs, file " + Files.size(file) + " bytes");
    }

    /** CPU time of the whole process (all threads, GC and JIT included). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }
}
