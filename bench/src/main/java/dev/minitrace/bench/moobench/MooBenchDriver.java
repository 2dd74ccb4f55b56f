package dev.minitrace.bench.moobench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The child JVM of {@code bench/run moobench}, MooBench's benchmark thread: one thread makes
 * {@code CALLS} top-level calls of {@link MonitoredClass#monitoredMethod} at recursion depth
 * {@code DEPTH}, timing each with {@link System#nanoTime()}; no warm-up of its own (the harness
 * keeps the second half of the calls, as MooBench does). Writes every call's time, in order, as
 * little-endian longs to {@code OUT}.
 *
 * <p>Usage: {@code MooBenchDriver CALLS DEPTH METHOD_TIME_NS OUT}. Prints {@code RESULT <calls>}.
 */
public final class MooBenchDriver {
    /** The last call's result, published so that the JIT cannot drop the calls. */
    private static volatile long last;

    private MooBenchDriver() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws Exception {
        int calls = Integer.parseInt(args[0]);
        int depth = Integer.parseInt(args[1]);
        long methodTime = Long.parseLong(args[2]);
        Path out = Path.of(args[3]);
        long[] times = new long[calls];
        // MooBench measures on a thread of its own, not on main.
        Thread t = new Thread(() -> last = measure(new MonitoredClass(), times, depth, methodTime), "moobench-0");
        t.start();
        t.join();
        write(times, out);
        System.out.println("RESULT " + calls + (last == 0 ? " (clock at 0)" : ""));
    }

    private static long measure(MonitoredClass monitored, long[] times, int depth, long methodTime) {
        long last = 0;
        for (int i = 0; i < times.length; i++) {
            long start = System.nanoTime();
            last = monitored.monitoredMethod(methodTime, depth);
            times[i] = System.nanoTime() - start;
        }
        return last;
    }

    static void write(long[] times, Path out) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long t : times) {
                if (!buf.hasRemaining()) {
                    buf.flip();
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    buf.clear();
                }
                buf.putLong(t);
            }
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    }
}
