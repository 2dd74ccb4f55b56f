package dev.minitrace.injector.runtime;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JVM's own count of collections, read from its performance counters
 * ({@code sun.gc.collector.N.invocations}, the numbers {@code jstat} shows) through the in-process
 * mapping that {@code jdk.internal.perf.Perf} gives: one memory load per counter. A collector bumps
 * its counter inside the stop-the-world pause, so a thread that reads the same sum as at its last
 * timestamp knows that no such pause came in between.
 *
 * <p>A weak reference to a young object was tried first and rejected: an object allocated while
 * the GC locker is held can be placed in the old generation, and then young collections never
 * clear it (measured: about two runs in three missed every pause with the parallel collector).
 */
final class GcCounters {
    private static ByteBuffer buffer;
    private static int[] offsets = new int[0];

    private GcCounters() {
    }

    /**
     * Opens {@code jdk.internal.perf} to the agent and finds the collectors' invocation counters.
     * False when the JVM runs without performance data ({@code -XX:-UsePerfData}) or hides it.
     */
    static boolean open(Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            inst.redefineModule(base, Set.of(), Map.of("jdk.internal.perf", Set.of(GcCounters.class.getModule())),
                    Map.of(), Set.of(), Map.of());
            Class<?> perfClass = Class.forName("jdk.internal.perf.Perf");
            Object perf = perfClass.getMethod("getPerf").invoke(null);
            ByteBuffer b;
            try {
                b = (ByteBuffer) perfClass.getMethod("attach", int.class).invoke(perf, 0); // JDK 21 and later
            } catch (NoSuchMethodException e) {
                b = (ByteBuffer) perfClass.getMethod("attach", int.class, String.class).invoke(perf, 0, "r");
            }
            return parse(b);
        } catch (Throwable t) {
            return false;
        }
    }

    // The hsperfdata layout (stable since JDK 6): a prologue, then entries of
    // {length, nameOffset, vectorLength, type, flags, units, variability, dataOffset}.
    private static boolean parse(ByteBuffer b) {
        b.order(b.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0xcafec0c0 && Integer.reverseBytes(b.getInt(0)) != 0xcafec0c0) {
            return false;
        }
        int entry = b.getInt(24);
        int count = b.getInt(28);
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < count && entry > 0 && entry < b.capacity(); i++) {
            int length = b.getInt(entry);
            int nameOffset = b.getInt(entry + 4);
            int vectorLength = b.getInt(entry + 8);
            byte type = b.get(entry + 12);
            int dataOffset = b.getInt(entry + 16);
            String name = cString(b, entry + nameOffset);
            if (type == 'J' && vectorLength == 0 && name.startsWith("sun.gc.collector.") && name.endsWith(".invocations")) {
                found.add(entry + dataOffset);
            }
            if (length <= 0) {
                break;
            }
            entry += length;
        }
        if (found.isEmpty()) {
            return false;
        }
        int[] o = new int[found.size()];
        for (int i = 0; i < o.length; i++) {
            o[i] = found.get(i);
        }
        offsets = o;
        buffer = b;
        return true;
    }

    private static String cString(ByteBuffer b, int at) {
        StringBuilder sb = new StringBuilder();
        for (int p = at; p < b.capacity() && b.get(p) != 0 && sb.length() < 256; p++) {
            sb.append((char) b.get(p));
        }
        return sb.toString();
    }

    /** Collections so far, all collectors together (only compared with an earlier value). */
    static long count() {
        return Holder.count();
    }

    /** Final copies for the JIT: the counters cannot move once found. */
    private static final class Holder {
        private static final ByteBuffer BUFFER = buffer;
        private static final int FIRST = offsets.length > 0 ? offsets[0] : -1;
        private static final int SECOND = offsets.length > 1 ? offsets[1] : -1;
        private static final int[] REST = offsets.length > 2 ? java.util.Arrays.copyOfRange(offsets, 2, offsets.length) : new int[0];

        static long count() {
            long n = BUFFER.getLong(FIRST);
            if (SECOND >= 0) {
                n += BUFFER.getLong(SECOND);
            }
            for (int o : REST) {
                n += BUFFER.getLong(o);
            }
            return n;
        }
    }
}
