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
 * <p>Retransformation runs in batches. One class the JVM refuses fails the whole call, which then
 * changes nothing, so a failed batch is split, and how depends on where the JVM stopped:
 * <ul>
 *   <li>after handing classes to the transformers (JDK 17 takes a batch's classes in order, each
 *       completely: linked after the transformers had it, its new bytes parsed and verified): the
 *       class at fault is the last one handed over. The batch is split there — the classes before,
 *       the suspect alone, the classes after — and the parts are retried the same way.</li>
 *   <li>before handing any over (JDK 25 first links every class of the call, and refuses the call
 *       with "invalid class" if one cannot be linked): which class it was is found by sifting, calls
 *       that stop at the first class handed over (a marker transformer answers it with bytes the
 *       JVM cannot parse, so the call changes nothing): a part the JVM gets through is linked and
 *       kept, a part it refuses is halved, down to the class at fault. Then the kept classes are
 *       retransformed in one call. A sifting call costs a linking check of its classes, not a
 *       retransformation.</li>
 * </ul>
 * A class that cannot be retransformed thus costs its own call or a few sifting calls, not a
 * call per class of its batch. It is named once on stderr, with its cause, and skipped.
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
        return retransform(todo, "cannot instrument ");
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
        return retransform(todo, "cannot retransform ");
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
        Retransformation done = retransform(todo, "cannot restore (its hooks stay, switched off) ");
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
     * without initializing it), as the retransformation would have; an interface has no
     * constructors to ask for, and asking for its fields links it. The classes that fail are kept
     * together at the end, where a failure costs no work on the classes that do not fail.
     * (Reflection also fails for a class that links but whose constructors or fields name a missing
     * type: that one is retransformed with them, and traced.)
     */
    private static List<Class<?>> linkedFirst(List<Class<?>> classes, Map<Class<?>, String> suspects) {
        List<Class<?>> ordered = new ArrayList<>(classes.size());
        List<Class<?>> failing = new ArrayList<>();
        for (Class<?> c : classes) {
            try {
                if (c.isInterface()) {
                    c.getDeclaredFields();
                } else {
                    c.getDeclaredConstructors();
                }
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
     * <p>Restoring links first too: a changed class need not have run, nor be linkable (one the
     * program loaded while tracing and never used, or one a class's reflection loaded, as
     * {@link #linkedFirst} does); one that cannot be linked keeps its hooks, but its code cannot run.
     */
    private Retransformation retransform(List<Class<?>> classes, String failing) {
        Retransformation out = new Retransformation();
        if (!retransform || classes.isEmpty()) {
            return out;
        }
        Map<Class<?>, String> suspects = new IdentityHashMap<>();
        classes = linkedFirst(classes, suspects);
        Progress progress = new Progress(Thread.currentThread());
        inst.addTransformer(progress, true);
        try {
            for (int from = 0; from < classes.size(); from += BATCH) {
                retransform(classes.subList(from, Math.min(classes.size(), from + BATCH)), progress, out, failing, suspects, true);
            }
        } finally {
            inst.removeTransformer(progress);
        }
        return out;
    }

    private void retransform(List<Class<?>> batch, Progress progress, Retransformation out, String failing,
            Map<Class<?>, String> suspects, boolean sift) {
        boolean[] before = marks(batch);
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
            unmark(batch, before);
            if (batch.size() == 1) {
                refused(batch.get(0), e, out, failing, suspects);
                return;
            }
        }
        int seen = lastSeen(batch, progress);
        if (seen < 0) {
            if (sift) {
                List<Class<?>> accepted = new ArrayList<>(batch.size());
                sift(batch, progress, out, failing, suspects, accepted);
                if (!accepted.isEmpty()) {
                    retransform(accepted, progress, out, failing, suspects, false);
                }
            } else {
                // Refused up front although sifting let every class through: halves, each retried.
                int half = batch.size() / 2;
                retransform(batch.subList(0, half), progress, out, failing, suspects, false);
                retransform(batch.subList(half, batch.size()), progress, out, failing, suspects, false);
            }
            return;
        }
        // The suspect: the last class handed over (the JVM links a class after the transformers
        // had it, then parses and verifies the new bytes). Were it innocent, its own call succeeds
        // and the parts around it are retried all the same.
        if (seen > 0) {
            retransform(batch.subList(0, seen), progress, out, failing, suspects, sift);
        }
        retransform(batch.subList(seen, seen + 1), progress, out, failing, suspects, sift);
        if (seen + 1 < batch.size()) {
            retransform(batch.subList(seen + 1, batch.size()), progress, out, failing, suspects, sift);
        }
    }

    /**
     * Puts the classes of {@code part} that the JVM gets through up to handing one over into
     * {@code accepted}, and names those it refuses before that: one call that {@link Progress}
     * ends at the first class handed over, then, if the JVM refused it earlier, the same for
     * each half.
     */
    private void sift(List<Class<?>> part, Progress progress, Retransformation out, String failing,
            Map<Class<?>, String> suspects, List<Class<?>> accepted) {
        boolean[] before = marks(part);
        progress.last = null;
        progress.poison = true;
        Throwable refusal = null;
        try {
            inst.retransformClasses(part.toArray(new Class<?>[0]));
        } catch (Exception | LinkageError | InternalError e) {
            refusal = e;
        } finally {
            progress.poison = false;
        }
        if (refusal == null) {
            // Not expected (the marker's bytes cannot be parsed), but then the call did the work.
            for (Class<?> c : part) {
                out.done(transformer.changed(c));
            }
            return;
        }
        unmark(part, before);
        if (progress.last != null) {
            accepted.addAll(part);
        } else if (part.size() == 1) {
            refused(part.get(0), refusal, out, failing, suspects);
        } else {
            int half = part.size() / 2;
            sift(part.subList(0, half), progress, out, failing, suspects, accepted);
            sift(part.subList(half, part.size()), progress, out, failing, suspects, accepted);
        }
    }

    /** Counts {@code c} as refused and names it once on stderr, with the linking error if reflection met one. */
    private void refused(Class<?> c, Throwable e, Retransformation out, String failing, Map<Class<?>, String> suspects) {
        String linking = suspects.get(c);
        String cause = linking == null ? Retransformation.cause(e) : "cannot be linked: " + linking;
        out.failed(c.getName(), cause);
        // Once: the transformer may have named it already (the JVM's bytes of it cannot be read).
        if (reported.add(c.getName()) && !transformer.named(c.getName())) {
            System.err.println("minitrace: " + failing + c.getName() + ": " + cause);
        }
    }

    private boolean[] marks(List<Class<?>> classes) {
        boolean[] before = new boolean[classes.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = transformer.changed(classes.get(i));
        }
        return before;
    }

    /** After a refused call: each class counts as rewritten as it did before it. */
    private void unmark(List<Class<?>> classes, boolean[] before) {
        for (int i = 0; i < before.length; i++) {
            transformer.markChanged(classes.get(i), before[i]);
        }
    }

    /** The index in {@code batch} of the last class handed over in the last call, or -1. */
    private static int lastSeen(List<Class<?>> batch, Progress progress) {
        Class<?> last = progress.last;
        for (int i = batch.size() - 1; last != null && i >= 0; i--) {
            if (batch.get(i) == last) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Registered (retransformation-capable, after the agent's transformer) while the instrumenter
     * retransforms: notes the last class the JVM handed to the transformers on the instrumenter's
     * thread, which tells where a failed call stopped. Changes nothing, but while {@link #poison}
     * is set: then it answers the class with bytes the JVM cannot parse, which ends the call there
     * with nothing changed.
     */
    private static final class Progress implements ClassFileTransformer {
        /** Not a class file (no magic number): the JVM refuses it with a ClassFormatError. */
        private static final byte[] UNPARSABLE = new byte[4];

        private final Thread thread;
        volatile Class<?> last;
        volatile boolean poison;

        Progress(Thread thread) {
            this.thread = thread;
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            if (classBeingRedefined != null && Thread.currentThread() == thread) {
                last = classBeingRedefined;
                if (poison) {
                    return UNPARSABLE.clone();
                }
            }
            return null;
        }
    }
}
