package dev.minitrace.bench.churn;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.function.IntUnaryOperator;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * The child of {@code bench/run churn}: defines classes with Byte Buddy as fast as it can, each in
 * a class loader of its own, calls their methods a few times and drops them, for the given seconds.
 * The loader looks in itself first (Byte Buddy's child-first strategy): with parent-first loading
 * the application class loader keeps a lock object per class name it was asked for, which grows
 * the plain run's heap by about 0.2 kB a class and would hide what the agent keeps. Every {@code sample} seconds it
 * collects the garbage and prints {@code SAMPLE seconds heapMB metaspaceMB defined loaded unloaded};
 * at the end {@code RESULT defined}. The generated classes are in package {@code churn.gen}, which
 * the traced run includes.
 */
public final class ChurnApp {
    private ChurnApp() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        long sample = Long.parseLong(args[1]);
        long start = System.nanoTime();
        long nextSample = sample;
        long defined = 0;
        long sink = 0;
        ByteBuddy buddy = new ByteBuddy();
        sample(0, defined);
        while (true) {
            long elapsed = (System.nanoTime() - start) / 1_000_000_000L;
            if (elapsed >= nextSample) {
                sample(elapsed, defined);
                if (elapsed >= seconds) {
                    break;
                }
                nextSample += sample;
            }
            Class<? extends IntUnaryOperator> type = buddy.subclass(IntUnaryOperator.class)
                    .name("churn.gen.Gen" + defined)
                    .method(ElementMatchers.named("applyAsInt")).intercept(FixedValue.value(42))
                    .defineMethod("label", String.class, Visibility.PUBLIC).intercept(FixedValue.value("gen"))
                    .make()
                    .load(ChurnApp.class.getClassLoader(), ClassLoadingStrategy.Default.CHILD_FIRST)
                    .getLoaded();
            IntUnaryOperator op = type.getDeclaredConstructor().newInstance();
            for (int i = 0; i < 4; i++) {
                sink += op.applyAsInt(i);
            }
            sink += ((String) type.getMethod("label").invoke(op)).length();
            defined++;
        }
        System.out.println("RESULT " + defined + " " + sink);
    }

    private static void sample(long seconds, long defined) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long metaspace = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                metaspace = pool.getUsage().getUsed();
            }
        }
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        System.out.printf(java.util.Locale.ROOT, "SAMPLE %d %.1f %.1f %d %d %d%n", seconds, heap / 1048576.0, metaspace / 1048576.0, defined,
                classes.getLoadedClassCount(), classes.getUnloadedClassCount());
        System.out.flush();
    }
}
