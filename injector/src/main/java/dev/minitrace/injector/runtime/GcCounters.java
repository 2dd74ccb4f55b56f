package dev.minitrace.injector.runtime;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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
    /** Reads a long at an address ({@link #directReader}), or null. */
    private static MethodHandle reader;
    /** The address of {@link #buffer}'s first byte when {@link #reader} is set. */
    private static long base;

    private GcCounters() {
    }

    /**
     * Opens {@code jdk.internal.perf} to the agent and finds the collectors' invocation counters.
     * False when the JVM runs without performance data ({@code -XX:-UsePerfData}) or hides it.
     */
    static boolean open(Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            Set<Module> agent = Set.of(GcCounters.class.getModule());
            inst.redefineModule(base, Set.of(), Map.of("jdk.internal.perf", agent, "jdk.internal.misc", agent),
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
        reader = directReader(b);
        warmUp();
        return true;
    }

    /**
     * Runs {@link #count} until the JDK has linked its method-handle call sites and customized the
     * handle: that is Java code of {@code java.lang.invoke} (lists, maps), which a hook's fast path
     * (no busy flag: docs/decisions.md) must never run, as an included JDK class such as
     * {@code java.util.ArrayList} would then record inside it. Runs as the agent, recording nothing.
     */
    private static void warmUp() {
        boolean marked = Trace.enterAgent();
        try {
            for (int i = 0; i < 4 * 128; i++) { // past the handle's customization threshold (127)
                count();
            }
        } finally {
            if (marked) {
                Trace.leaveAgent();
            }
        }
    }

    /**
     * {@code jdk.internal.misc.Unsafe.getLong(address)} of the counters' mapping, or null when it
     * cannot be reached (then the buffer's own bounds-checked reads serve): one load per counter,
     * where a read through the buffer is a chain of a dozen methods for the JIT to inline into
     * every record site.
     */
    private static MethodHandle directReader(ByteBuffer b) {
        try {
            if (b.order() != ByteOrder.nativeOrder()) {
                return null;
            }
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            long addressOffset = (long) unsafeClass.getMethod("objectFieldOffset", Class.class, String.class)
                    .invoke(unsafe, java.nio.Buffer.class, "address");
            long address = (long) unsafeClass.getMethod("getLong", Object.class, long.class).invoke(unsafe, b, addressOffset);
            if (address == 0) {
                return null;
            }
            MethodHandle getLong = MethodHandles.lookup().findVirtual(unsafeClass, "getLong", MethodType.methodType(long.class, long.class))
                    .bindTo(unsafe);
            // Check it against the buffer once: the same counters must read the same (they only grow).
            for (int o : offsets) {
                long viaBuffer = b.getLong(o);
                long direct = (long) getLong.invokeExact(address + o);
                if (direct < viaBuffer) {
                    return null;
                }
            }
            base = address;
            return getLong;
        } catch (Throwable t) {
            return null;
        }
    }

    private static String cString(ByteBuffer b, int at) {
        StringBuilder sb = new StringBuilder();
        for (int p = at; p < b.capacity() && b.get(p) != 0 && sb.length() < 256; p++) {
            sb.append((char) b.get(p));
        }
        return sb.toString();
    }

    /**
     * Whether {@link #count} reads the counters directly, running only {@code java.lang.invoke}
     * code already linked ({@link #warmUp}), never rewritten: only then may a hook's fast path,
     * which runs without the busy flag, call it (a program may include {@code java.nio} classes).
     */
    static boolean direct() {
        return Holder.DIRECT;
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
        private static final MethodHandle READ = reader;
        /** The counters' addresses when {@link #READ} is set and there are at most three of them (G1 has three), else null. */
        private static final long A0 = offsets.length > 0 ? base + offsets[0] : 0;
        private static final long A1 = offsets.length > 1 ? base + offsets[1] : 0;
        private static final long A2 = offsets.length > 2 ? base + offsets[2] : 0;
        private static final boolean DIRECT = READ != null && offsets.length <= 3;

        static long count() {
            return DIRECT ? direct() : viaBuffer();
        }

        private static long direct() {
            try {
                long n = (long) READ.invokeExact(A0);
                if (A1 != 0) {
                    n += (long) READ.invokeExact(A1);
                }
                if (A2 != 0) {
                    n += (long) READ.invokeExact(A2);
                }
                return n;
            } catch (Throwable t) {
                return ~System.nanoTime(); // never thrown by the intrinsic; a count that makes the record stamp
            }
        }

        private static long viaBuffer() {
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
