package dev.minitrace.injector.attach;

import dev.minitrace.injector.TraceTransformer;
import dev.minitrace.injector.filter.MethodSelector;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's live instrumentation in one JVM: its {@link TraceTransformer}, registered with
 * retransformation, and the operations that change which loaded classes carry hooks — instrument
 * the classes loaded before the agent, switch to another selection (retransforming only the
 * classes whose selection changed), and restore every changed class's original bytecode.
 *
 * <p>Retransformation runs in batches; a batch that fails is retried class by class, and a class
 * that cannot be retransformed is named once on stderr and skipped.
 */
public final class Instrumenter {
    /** Classes per {@code retransformClasses} call: bounds the time the JVM holds its locks at once. */
    static final int BATCH = 200;

    private final Instrumentation inst;
    private final TraceTransformer transformer;
    private final boolean retransform;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /** Whether the transformer is registered: while none is, the JVM calls no agent code as classes load. */
    private boolean installed;
    private final Object registration = new Object();

    /** Wraps a transformer; {@link #install} registers it. */
    public Instrumenter(Instrumentation inst, TraceTransformer transformer) {
        this.inst = inst;
        this.transformer = transformer;
        this.retransform = inst.isRetransformClassesSupported();
    }

    /** The transformer. */
    public TraceTransformer transformer() {
        return transformer;
    }

    /**
     * Registers the transformer (retransformation-capable when the JVM supports it), unless it is
     * registered. Never waits for a retransformation in progress: JFR's thread calls it.
     */
    public void install() {
        synchronized (registration) {
            if (!installed) {
                inst.addTransformer(transformer, retransform);
                installed = true;
            }
        }
    }

    /**
     * Instruments the already loaded classes the current selection may trace.
     *
     * @return the number of classes retransformed
     */
    public synchronized int instrumentLoaded() {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            // A class already rewritten (loaded since the transformer became active) is left alone:
            // retransforming a class that has just started running was measured to lose its
            // thread's records for a while (BufferedTraceIT's two recordings, deferred).
            if (candidate(c) && !transformer.changed(c) && transformer.mayChange(c.getName())) {
                todo.add(c);
            }
        }
        return retransform(todo);
    }

    /**
     * Switches to {@code next} and retransforms the loaded classes whose selection differs
     * (see {@link MethodSelector#classKey}): those instrumented now or that {@code next} may trace.
     *
     * @return the number of classes retransformed
     */
    public synchronized int reselect(MethodSelector next) {
        MethodSelector previous = transformer.selector();
        transformer.select(next);
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!candidate(c)) {
                continue;
            }
            String name = c.getName();
            if ((transformer.changed(c) || next.mayTraceClass(name)) && !previous.classKey(name).equals(next.classKey(name))) {
                todo.add(c);
            }
        }
        return retransform(todo);
    }

    /**
     * Removes the transformer, then retransforms every class it changed: with no transformer left
     * to rewrite them, they get their original bytecode back.
     *
     * @return the number of classes restored
     */
    public synchronized int restore() {
        synchronized (registration) {
            inst.removeTransformer(transformer);
            installed = false;
        }
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (transformer.changed(c) && inst.isModifiableClass(c)) {
                todo.add(c);
            }
        }
        return retransform(todo, true);
    }

    private boolean candidate(Class<?> c) {
        try {
            return inst.isModifiableClass(c) && transformer.eligible(c);
        } catch (Throwable t) {
            return false;
        }
    }

    private int retransform(List<Class<?>> classes) {
        return retransform(classes, false);
    }

    /**
     * @param restoring whether the classes are being given their own bytecode back with the
     *        transformer removed: it then never hears of them, so the classes done are marked here
     *        (unless it was registered again meanwhile and rewrote them)
     */
    private int retransform(List<Class<?>> classes, boolean restoring) {
        if (!retransform || classes.isEmpty()) {
            return 0;
        }
        int done = 0;
        for (int from = 0; from < classes.size(); from += BATCH) {
            List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + BATCH));
            boolean[] before = new boolean[batch.size()];
            for (int i = 0; i < before.length; i++) {
                before[i] = transformer.changed(batch.get(i));
            }
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                done += batch.size();
                unmark(batch, restoring);
            } catch (Throwable batchFailure) {
                // One bad class fails the whole call, which then changed nothing: find the class
                // by retrying one by one.
                for (int i = 0; i < before.length; i++) {
                    transformer.markChanged(batch.get(i), before[i]);
                }
                for (int i = 0; i < before.length; i++) {
                    Class<?> c = batch.get(i);
                    try {
                        inst.retransformClasses(c);
                        done++;
                        unmark(List.of(c), restoring);
                    } catch (UnmodifiableClassException | RuntimeException | LinkageError | InternalError e) {
                        // InternalError: the JVM rejected the class (JVMTI_ERROR_INVALID_CLASS and the like).
                        transformer.markChanged(c, before[i]);
                        if (reported.add(c.getName())) {
                            System.err.println("minitrace: cannot retransform " + c.getName() + ": "
                                    + String.valueOf(e).replace('\n', ' '));
                        }
                    }
                }
            }
        }
        return done;
    }

    private void unmark(List<Class<?>> restored, boolean restoring) {
        if (!restoring) {
            return;
        }
        synchronized (registration) {
            if (!installed) {
                for (Class<?> c : restored) {
                    transformer.markChanged(c, false);
                }
            }
        }
    }
}
