package dev.minitrace.injector.attach;

import dev.minitrace.injector.runtime.Enablement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Off means off: with {@code -javaagent}, the agent rewrites nothing until a running recording
 * enables one of MiniTrace's events, and gives every class its own bytecode back once none does.
 * Classes that carry disabled hooks still cost CPU time while a program warms up (the rewriting,
 * more JIT compilation, larger methods before C2 prunes the hooks; docs/decisions.md); a class
 * that was never rewritten costs nothing.
 *
 * <p>Until then the transformer is not even registered: with none registered, the JVM calls no
 * agent code as classes load (with one, every class load copies the class file and calls into
 * Java, rewriting or not). When the events turn on, the transformer is registered and active at
 * once, on JFR's thread (so every class loaded from then on is rewritten as it loads, exactly as
 * without deferral: a recording of {@code -XX:StartFlightRecording} starts before the
 * application's first class loads), and the classes already loaded that the selection may trace
 * are retransformed on a worker thread (a listener must not call into JFR, which holds its lock
 * while it calls). When they turn off, the transformer goes inactive at once; after
 * {@link #REVERT_DELAY_MS}, unless the events came back meanwhile, it is removed and the
 * rewritten classes get their own bytecode back: the recording that ends at JVM exit then costs
 * no retransformation.
 */
public final class Deferral {
    /** How long after the last recording stopped the classes are reverted. */
    static final long REVERT_DELAY_MS = 1000;
    /** System property (docs/agent.md): {@code eager} rewrites at load time as before, whatever the recordings. */
    public static final String MODE_PROPERTY = "minitrace.rewrite";
    /** System property set after each retransformation: what it did and how long it took. */
    public static final String LAST_PROPERTY = "minitrace.retransformed";

    private final Instrumenter instrumenter;
    private final boolean verbose;
    /** Started when the events first turn on: a JVM that never records starts no thread. */
    private ExecutorService worker;
    private boolean on;
    private int generation;

    private Deferral(Instrumenter instrumenter, boolean verbose) {
        this.instrumenter = instrumenter;
        this.verbose = verbose;
    }

    /** Whether the agent defers its rewriting (the default; {@code -Dminitrace.rewrite=eager} turns it off). */
    public static boolean wanted() {
        return !"eager".equals(System.getProperty(MODE_PROPERTY));
    }

    /** Makes {@code instrumenter}'s transformer follow the enablement of MiniTrace's events. */
    public static void follow(Instrumenter instrumenter, boolean verbose) {
        Deferral d = new Deferral(instrumenter, verbose);
        instrumenter.transformer().setActive(false);
        Enablement.onChange(new java.util.function.Consumer<Boolean>() { // not a lambda: see Enablement.COMMIT_ALL
            @Override
            public void accept(Boolean anyOn) {
                d.tracing(anyOn);
            }
        });
    }

    private synchronized void tracing(boolean anyOn) {
        if (anyOn == on) {
            return;
        }
        on = anyOn;
        int gen = ++generation;
        instrumenter.transformer().setActive(anyOn);
        if (anyOn) {
            instrumenter.install();
        }
        try {
            if (worker == null) {
                worker = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "minitrace-deferral");
                    t.setDaemon(true);
                    return t;
                });
            }
            worker.execute(() -> retransform(gen, anyOn));
        } catch (Throwable t) {
            // The worker is gone (JVM exiting): the classes loaded from now on follow the flag anyway.
        }
    }

    private void retransform(int gen, boolean activate) {
        try {
            if (!activate) {
                Thread.sleep(REVERT_DELAY_MS);
            }
            synchronized (this) {
                if (gen != generation) {
                    return; // the state changed again; its own task follows
                }
            }
            long t0 = System.nanoTime();
            Retransformation r = activate ? instrumenter.instrumentLoaded() : instrumenter.restore();
            double ms = (System.nanoTime() - t0) / 1e6;
            String took = " in " + String.format(java.util.Locale.ROOT, "%.1f", ms) + " ms";
            String what = activate ? "instrumented: " + r.instrumented() + took : "reverted: " + r.restored() + took;
            System.setProperty(LAST_PROPERTY, what);
            if (verbose && r.hooked() + r.plain() + r.failed().size() > 0) {
                System.err.println("minitrace: " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            System.err.println("minitrace: could not " + (activate ? "instrument" : "revert") + " the loaded classes: " + t);
        }
    }
}
