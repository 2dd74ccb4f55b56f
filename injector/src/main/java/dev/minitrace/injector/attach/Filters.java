package dev.minitrace.injector.attach;

import dev.minitrace.events.EventNames;
import dev.minitrace.events.FilterSetting;
import dev.minitrace.wire.filter.Filter;
import dev.minitrace.injector.filter.MethodSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Applies the {@code minitrace.MethodEntry#filter} setting of the running recordings (see
 * {@link FilterSetting}) to the agent's instrumentation.
 *
 * <p>Precedence: when the running recordings carry a filter, their union (minus the agent's
 * {@code exclude=}) is what is instrumented, and the agent's {@code include=} is ignored; when none
 * carries one (every recording stopped, or none sets it), the agent's {@code include=} applies
 * again. Each change retransforms only the classes whose selection changed. The work runs on a
 * daemon thread of its own, never on JFR's (which holds the recorder lock while it sets values);
 * when it is done, the system property {@value #APPLIED_PROPERTY} names the filter in force.
 */
public final class Filters implements FlightRecorderListener {
    /** The setting's key in {@link Recording#getSettings()}. */
    static final String SETTING = EventNames.METHOD_ENTRY + "#filter";
    private static final Filters LISTENER = new Filters();

    /** System property naming the filter in force once it is applied ({@code ""}: the agent's options). */
    public static final String APPLIED_PROPERTY = "minitrace.filter";

    /** Guards the selection state; never held while calling into JFR (whose lock JFR holds while it calls us). */
    private static final Object APPLY_LOCK = new Object();
    private static final Object WORKER_LOCK = new Object();
    private static volatile Instrumenter target;
    private static MethodSelector staticSelector;
    private static volatile String applied = "";
    private static ExecutorService worker;

    private Filters() {
    }

    /** Makes {@code instrumenter} follow the filter setting from now on (its current selection is the static one). */
    public static void use(Instrumenter instrumenter) {
        synchronized (APPLY_LOCK) {
            target = instrumenter;
            staticSelector = instrumenter.transformer().selector();
            applied = "";
        }
        FilterSetting.listen(new java.util.function.Consumer<String>() { // not a lambda: see Enablement.COMMIT_ALL
            @Override
            public void accept(String value) {
                changedLater(value);
            }
        });
        FlightRecorder.addListener(LISTENER);
    }

    /** Stops following the setting (before {@code instrumenter} is restored). */
    public static void release(Instrumenter instrumenter) {
        synchronized (APPLY_LOCK) {
            if (target != instrumenter) {
                return;
            }
            target = null;
            System.clearProperty(APPLIED_PROPERTY);
        }
        FilterSetting.listen(null);
        FlightRecorder.removeListener(LISTENER);
    }

    @Override
    public void recordingStateChanged(Recording recording) {
        changed();
    }

    /**
     * The union of the filters the running recordings set, each filter once, in a stable order;
     * {@code ""} when none sets one.
     */
    static String runningFilters() {
        if (!FlightRecorder.isInitialized()) {
            return "";
        }
        Set<String> union = new TreeSet<>();
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (r.getState() != RecordingState.RUNNING) {
                continue;
            }
            String v = r.getSettings().get(SETTING);
            if (v != null) {
                for (String f : v.split(";")) {
                    if (!f.isBlank()) {
                        union.add(f.trim());
                    }
                }
            }
        }
        return String.join(";", union);
    }

    /**
     * The setting callback: JFR may call it while registering an event class, holding its metadata
     * lock, and asking JFR for the recordings then needs the recorder lock, which JFR's periodic
     * flush holds while it waits for the metadata lock (a start-up hang seen on JDK 25). So this
     * path never calls into JFR: the worker looks.
     */
    private static void changedLater(String value) {
        if (target == null) {
            return;
        }
        synchronized (WORKER_LOCK) {
            if (worker == null && value.isEmpty() && applied.isEmpty()) {
                return; // no filter set and none applied (listen's first call): no thread started for nothing
            }
        }
        try {
            worker().execute(Filters::apply);
        } catch (Throwable ignored) {
            // a worker shut down with the JVM
        }
    }

    private static ExecutorService worker() {
        synchronized (WORKER_LOCK) {
            if (worker == null) {
                worker = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "minitrace-filter");
                    t.setDaemon(true);
                    return t;
                });
            }
            return worker;
        }
    }

    private static void changed() {
        if (target == null) {
            return;
        }
        ExecutorService w;
        try {
            // JFR calls in holding its recorder lock, which this thread may take again; the
            // retransformation itself runs on the worker.
            if (runningFilters().equals(applied) && worker == null) {
                return; // nothing to do, and no thread started for nothing
            }
        } catch (Throwable t) {
            return;
        }
        w = worker();
        w.execute(Filters::apply);
    }

    private static void apply() {
        String latest;
        try {
            latest = runningFilters();
        } catch (Throwable t) {
            return; // JFR shutting down
        }
        synchronized (APPLY_LOCK) {
            Instrumenter t = target;
            if (t == null) {
                return;
            }
            if (!latest.equals(applied)) {
                MethodSelector next = staticSelector;
                if (!latest.isBlank()) {
                    try {
                        List<Filter> filters = new ArrayList<>();
                        for (String f : latest.split(";")) {
                            filters.add(Filter.parse(f));
                        }
                        next = new MethodSelector(filters, staticSelector.excludes());
                    } catch (IllegalArgumentException e) {
                        System.err.println("minitrace: ignoring the recording's filter setting '" + latest + "': " + e.getMessage());
                    }
                }
                try {
                    t.reselect(next);
                } catch (Throwable e) {
                    System.err.println("minitrace: could not apply the filter setting '" + latest + "': " + e);
                }
                applied = latest;
            }
            System.setProperty(APPLIED_PROPERTY, applied);
        }
    }
}
