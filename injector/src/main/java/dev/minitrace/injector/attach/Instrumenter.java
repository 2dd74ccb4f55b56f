package dev.minitrace.injector.attach;

import dev.minitrace.injector.TraceTransformer;
import dev.minitrace.injector.filter.MethodSelector;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's live instrumentation in one JVM: its {@link TraceTransformer}, registered with
 * retransformation, and the operations that change which loaded classes carry hooks — instrument
 * the classes loaded before the agent, switch to another selection (retransforming only the
 * classes whose selection changed), and restore every changed class's original bytecode.
 *
 * <p>Retransformation runs in batches. The JVM takes a batch's classes in order, each completely
 * (linked, handed to the transformers, parsed and verified) before the next, and one class it
 * refuses fails the whole call, which then changes nothing: the class at fault is the last one the
 * transformers were handed (the JVM links a class, and parses and verifies its new bytes, after
 * the transformers had it). So a failed batch is split there — the classes before, the suspect
 * alone, the classes after — and the parts are retried the same way: a class that cannot be
 * retransformed costs its own call and a second pass over the classes before it, not a call per
 * class of its batch. It is named once on stderr, with the JVM's cause,
 * and skipped.
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
     * @return what the JVM did with the classes handed to it
     */
    public synchronized Retransformation instrumentLoaded() {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            // A class already rewritten (loaded since the transformer became active) is left alone:
            // retransforming a class that has just started running was measured to lose its
            // thread's records for a while (BufferedTraceIT's two recordings, deferred).
            if (candidate(c) && !transformer.changed(c) && transformer.mayChange(c.getName())) {
                todo.add(c);
            }
        }
        return retransform(todo, true, "cannot instrument ");
    }

    /**
     * Switches to {@code next} and retransforms the loaded classes whose selection differs
     * (see {@link MethodSelector#classKey}): those instrumented now or that {@code next} may trace.
     *
     * @return what the JVM did with the classes handed to it
     */
    public synchronized Retransformation reselect(MethodSelector next) {
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
        return retransform(todo, true, "cannot retransform ");
    }

    /**
     * Gives every class the transformer changed its original bytecode back, then removes the
     * transformer. The transformer must be inactive ({@link TraceTransformer#setActive}) and stays
     * registered while the classes are retransformed: the JVM's bytes of some classes need its
     * repair to be accepted at all ({@link RecordRepair}); otherwise it hands every class back as
     * the JVM gives it, which is the class's own bytecode. A class the JVM refuses keeps its hooks,
     * which record nothing once the events are off; it is named on stderr and in the result.
     * The transformer is not removed if it became active again meanwhile (a new recording).
     *
     * @return what the JVM did: {@link Retransformation#plain()} classes restored
     */
    public synchronized Retransformation restore() {
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (transformer.changed(c) && inst.isModifiableClass(c)) {
                todo.add(c);
            }
        }
        Retransformation done = retransform(todo, false, "cannot restore (its hooks stay, switched off) ");
        synchronized (registration) {
            if (!transformer.active()) {
                inst.removeTransformer(transformer);
                installed = false;
            }
        }
        return done;
    }

    private boolean candidate(Class<?> c) {
        try {
            return inst.isModifiableClass(c) && transformer.eligible(c);
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * {@code classes} in the order to retransform them: first those that are linked or can be
     * linked now, then the others, whose linking failed with the error kept in {@code suspects}. A
     * class loaded but never used is not linked yet, and the JVM links it before retransforming it;
     * one that cannot be linked (its code needs a class that is missing, common where a library has
     * optional dependencies) fails its batch. Asking for its constructors links it (reflection does,
     * without initializing it), as the retransformation would have: the classes that fail are kept
     * together at the end, where a failure makes the JVM's work on the classes before it be done
     * again only for them. (Reflection also fails for a class that links but whose constructors
     * name a missing type: that one is retransformed with them, and traced.)
     */
    private static List<Class<?>> linkedFirst(List<Class<?>> classes, Map<Class<?>, String> suspects) {
        List<Class<?>> ordered = new ArrayList<>(classes.size());
        List<Class<?>> failing = new ArrayList<>();
        for (Class<?> c : classes) {
            try {
                c.getDeclaredConstructors();
                ordered.add(c);
            } catch (LinkageError e) {
                failing.add(c);
                suspects.put(c, Retransformation.cause(e));
            }
        }
        ordered.addAll(failing);
        return ordered;
    }

    /**
     * Retransforms {@code classes} in batches, counting what happened; a class the JVM refuses is
     * named once on stderr after {@code failing}.
     *
     * @param link whether some classes may not be linked yet (not when restoring: a changed class ran)
     */
    private Retransformation retransform(List<Class<?>> classes, boolean link, String failing) {
        Retransformation out = new Retransformation();
        if (!retransform || classes.isEmpty()) {
            return out;
        }
        Map<Class<?>, String> suspects = new IdentityHashMap<>();
        if (link) {
            classes = linkedFirst(classes, suspects);
        }
        Progress progress = new Progress(Thread.currentThread());
        inst.addTransformer(progress, true);
        try {
            for (int from = 0; from < classes.size(); from += BATCH) {
                retransform(classes.subList(from, Math.min(classes.size(), from + BATCH)), progress, out, failing, suspects);
            }
        } finally {
            inst.removeTransformer(progress);
        }
        return out;
    }

    private void retransform(List<Class<?>> batch, Progress progress, Retransformation out, String failing,
            Map<Class<?>, String> suspects) {
        boolean[] before = new boolean[batch.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = transformer.changed(batch.get(i));
        }
        progress.last = null;
        try {
            inst.retransformClasses(batch.toArray(new Class<?>[0]));
            for (Class<?> c : batch) {
                out.done(transformer.changed(c));
            }
            return;
        } catch (Exception | LinkageError | InternalError e) {
            // InternalError: the JVM rejected a class (JVMTI_ERROR_INVALID_CLASS and the like).
            // The call changed nothing, whatever the transformer returned for the classes it saw.
            for (int i = 0; i < before.length; i++) {
                transformer.markChanged(batch.get(i), before[i]);
            }
            if (batch.size() == 1) {
                Class<?> c = batch.get(0);
                String linking = suspects.get(c);
                String cause = linking == null ? Retransformation.cause(e) : "cannot be linked: " + linking;
                out.failed(c.getName(), cause);
                // Once: the transformer may have named it already (the JVM's bytes of it cannot be read).
                if (reported.add(c.getName()) && !transformer.named(c.getName())) {
                    System.err.println("minitrace: " + failing + c.getName() + ": " + cause);
                }
                return;
            }
        }
        int seen = -1;
        for (int i = batch.size() - 1; i >= 0 && seen < 0; i--) {
            if (batch.get(i) == progress.last) {
                seen = i;
            }
        }
        // The suspect: the last class handed over (the JVM links a class after the transformers
        // had it, then parses and verifies the new bytes); none handed over: the first. Were it
        // innocent, its own call succeeds and the parts around it are retried all the same.
        int suspect = Math.max(seen, 0);
        if (suspect > 0) {
            retransform(batch.subList(0, suspect), progress, out, failing, suspects);
        }
        retransform(batch.subList(suspect, suspect + 1), progress, out, failing, suspects);
        if (suspect + 1 < batch.size()) {
            retransform(batch.subList(suspect + 1, batch.size()), progress, out, failing, suspects);
        }
    }

    /**
     * Registered (retransformation-capable, after the agent's transformer) while the instrumenter
     * retransforms: notes the last class the JVM handed to the transformers on the instrumenter's
     * thread, which tells where a failed call stopped. Changes nothing.
     */
    private static final class Progress implements ClassFileTransformer {
        private final Thread thread;
        volatile Class<?> last;

        Progress(Thread thread) {
            this.thread = thread;
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            if (classBeingRedefined != null && Thread.currentThread() == thread) {
                last = classBeingRedefined;
            }
            return null;
        }
    }
}
