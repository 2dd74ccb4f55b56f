package dev.minitrace.injector.runtime;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The time source of buffered method records and the two cheap signals that decide when a record
 * needs a clock read at all (see {@code docs/trace-buffer.md}).
 *
 * <ul>
 * <li>Ticks come from JFR's own counter ({@code jdk.jfr.internal.JVM.counterTime()}, the clock of
 * every JFR timestamp), so record times compare exactly with GC pause times. Reaching it needs
 * {@code jdk.jfr.internal} exported to the agent, which only {@link Instrumentation} can do.</li>
 * <li>A ticker thread advances {@link #tick} once per millisecond: a record made in the same tick
 * as its thread's last stamped record shares that stamp, which bounds the error of shared stamps.</li>
 * <li>The JVM's collection counters ({@link GcCounters}) change inside every stop-the-world pause,
 * so a thread that reads the same count as at its last stamp knows no pause came in between, and
 * its records land on the right side of every fragment boundary without a clock read.</li>
 * </ul>
 */
public final class TraceClock {
    /** Advanced by the ticker; read by every buffered record. */
    static volatile int tick;
    /** True when every record must be stamped (option, or a collector whose counters do not follow its pauses). */
    static boolean stampEvery;

    private static boolean exported;
    /** Kept by {@link #open} until {@link #ready} opens the modules with it. */
    private static Instrumentation instrumentation;
    private static boolean gcCounted;
    private static boolean stampOption;
    private static volatile int state; // 0 unknown, 1 ready, -1 unavailable
    /** The ticker's period: system property {@code minitrace.tick.ms} (default 1). */
    private static final long TICK_NANOS = tickNanos();

    // Collectors that count every pause the converter can cut a fragment at (docs/mtlog-format.md)
    // inside that pause; ZGC and Shenandoah move objects outside their pauses.
    private static final Set<String> STOP_THE_WORLD_COLLECTORS = Set.of("Copy", "MarkSweepCompact", "PS Scavenge",
            "PS MarkSweep", "G1 Young Generation", "G1 Old Generation", "G1 Concurrent GC");

    private TraceClock() {
    }

    /**
     * Remembers what {@link #ready} needs to open {@code jdk.jfr.internal} to the agent and to map
     * the JVM's collection counters. Called once at agent start; the work itself waits for the
     * first recording that wants buffered records (about 20 ms of start-up that a JVM which never
     * records does not pay). Failing then leaves buffered records off (the agent then commits one
     * event per record).
     *
     * @param everyRecord the {@code stamp=every} agent option
     */
    public static synchronized void open(Instrumentation inst, boolean everyRecord) {
        stampOption = everyRecord;
        instrumentation = inst;
    }

    /** Exports {@code jdk.jfr.internal} to the agent and maps the collection counters, once. */
    private static void openModules() {
        Instrumentation inst = instrumentation;
        if (inst == null) {
            return;
        }
        instrumentation = null;
        try {
            Module jfr = ModuleLayer.boot().findModule("jdk.jfr").orElse(null);
            if (jfr == null) {
                return;
            }
            inst.redefineModule(jfr, Set.of(), Map.of("jdk.jfr.internal", Set.of(TraceClock.class.getModule())),
                    Map.of(), Set.of(), Map.of());
            exported = true;
        } catch (Throwable t) {
            exported = false;
        }
        gcCounted = GcCounters.open(inst);
    }

    /**
     * Whether buffered records can be stamped; resolves JFR's counter the first time (JFR must be
     * initialized by then) and starts the ticker.
     */
    static synchronized boolean ready() {
        if (state != 0) {
            return state > 0;
        }
        state = -1;
        openModules();
        if (!exported) {
            return false;
        }
        try {
            if (Counter.frequency() <= 0 || Counter.ticks() == 0) {
                return false;
            }
            stampEvery = stampOption || !gcCounted || !countersFollowCollectors();
            Thread ticker = new Thread(TraceClock::runTicker, "minitrace-ticker");
            ticker.setDaemon(true);
            ticker.start();
            state = 1;
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** JFR's tick count now. */
    static long ticks() {
        return Counter.ticks();
    }

    /** Ticks per second of {@link #ticks}. */
    static long frequency() {
        return Counter.frequency();
    }

    /** The ticker's period: system property {@code minitrace.tick.ms} (docs/agent.md), 1 ms by default. */
    private static long tickNanos() {
        try {
            long ms = Long.parseLong(System.getProperty("minitrace.tick.ms", "1"));
            return ms >= 1 ? ms * 1_000_000L : 1_000_000L;
        } catch (RuntimeException e) {
            return 1_000_000L;
        }
    }

    private static boolean countersFollowCollectors() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!STOP_THE_WORLD_COLLECTORS.contains(gc.getName())) {
                return false;
            }
        }
        return true;
    }

    private static void runTicker() {
        while (true) {
            // While no method tracing runs the tick need not move; wake rarely.
            LockSupport.parkNanos(Trace.methodOn ? TICK_NANOS : 50 * TICK_NANOS);
            tick++;
        }
    }

    /**
     * The start of the chunk JFR writes now (its own {@code getChunkStartNanos}), which tells the
     * periodic hook's run at a chunk's end from the run at the next one's start; -1 when it cannot
     * be read (then every run commits everything).
     */
    static long chunkStart() {
        if (!exported) {
            return -1;
        }
        try {
            return ChunkStart.nanos();
        } catch (Throwable t) {
            return -1;
        }
    }

    /** JFR's chunk start, resolved on first use. */
    private static final class ChunkStart {
        private static final MethodHandle NANOS;

        static {
            MethodHandle h;
            try {
                h = jvmMethod(Class.forName("jdk.jfr.internal.JVM"), MethodHandles.lookup(), "getChunkStartNanos");
            } catch (Throwable t) {
                h = null;
            }
            NANOS = h;
        }

        static long nanos() throws Throwable {
            return NANOS == null ? -1 : (long) NANOS.invokeExact();
        }
    }

    /** A {@code long} method of JFR's {@code JVM} without arguments: static on later JDKs, an instance method of {@code JVM.getJVM()} on JDK 17. */
    private static MethodHandle jvmMethod(Class<?> jvm, MethodHandles.Lookup lookup, String name) throws Throwable {
        try {
            return lookup.findStatic(jvm, name, MethodType.methodType(long.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            // JDK 17: an instance method (findStatic reports it as not accessible)
            MethodHandle h = lookup.findVirtual(jvm, name, MethodType.methodType(long.class));
            return MethodHandles.insertArguments(h, 0, lookup.findStatic(jvm, "getJVM", MethodType.methodType(jvm)).invoke());
        }
    }

    /** The resolved counter; its static final handles let the JIT call the intrinsic directly. */
    private static final class Counter {
        private static final MethodHandle COUNTER_TIME;
        private static final long FREQUENCY;

        static {
            try {
                Class<?> jvm = Class.forName("jdk.jfr.internal.JVM");
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                COUNTER_TIME = lookup.findStatic(jvm, "counterTime", MethodType.methodType(long.class));
                FREQUENCY = readFrequency(jvm, lookup);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        static long ticks() {
            try {
                return (long) COUNTER_TIME.invokeExact();
            } catch (Throwable t) {
                return 0;
            }
        }

        static long frequency() {
            return FREQUENCY;
        }

        private static long readFrequency(Class<?> jvm, MethodHandles.Lookup lookup) throws ReflectiveOperationException {
            try {
                return (long) jvmMethod(jvm, lookup, "getTicksFrequency").invokeExact();
            } catch (ReflectiveOperationException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }
}
