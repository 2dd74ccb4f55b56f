package dev.minitrace.injector.attach;

import dev.minitrace.events.FilterSetting;
import dev.minitrace.injector.filter.Filter;
import dev.minitrace.injector.filter.MethodSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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
public final class Filters {
    /** System property naming the filter in force once it is applied ({@code ""}: the agent's options). */
    public static final String APPLIED_PROPERTY = "minitrace.filter";

    private static Instrumenter target;
    private static MethodSelector staticSelector;
    private static String applied = "";
    private static ExecutorService worker;

    private Filters() {
    }

    /** Makes {@code instrumenter} follow the filter setting from now on (its current selection is the static one). */
    public static synchronized void use(Instrumenter instrumenter) {
        target = instrumenter;
        staticSelector = instrumenter.transformer().selector();
        applied = "";
        FilterSetting.listen(Filters::changed);
    }

    /** Stops following the setting (before {@code instrumenter} is restored). */
    public static synchronized void release(Instrumenter instrumenter) {
        if (target == instrumenter) {
            target = null;
            FilterSetting.listen(null);
            System.clearProperty(APPLIED_PROPERTY);
        }
    }

    private static void changed(String value) {
        ExecutorService w;
        synchronized (Filters.class) {
            if (target == null || (value.equals(applied) && worker == null)) {
                return; // nothing to do, and no thread started for nothing
            }
            if (worker == null) {
                worker = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "minitrace-filter");
                    t.setDaemon(true);
                    return t;
                });
            }
            w = worker;
        }
        w.execute(() -> apply(value));
    }

    private static synchronized void apply(String value) {
        if (target == null) {
            return;
        }
        // Always apply the latest value: an older queued one may run after a newer was set.
        String latest = FilterSetting.current();
        if (latest.equals(applied)) {
            System.setProperty(APPLIED_PROPERTY, applied);
            return;
        }
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
            target.reselect(next);
        } catch (Throwable t) {
            System.err.println("minitrace: could not apply the filter setting '" + latest + "': " + t);
        }
        applied = latest;
        System.setProperty(APPLIED_PROPERTY, applied);
    }
}
