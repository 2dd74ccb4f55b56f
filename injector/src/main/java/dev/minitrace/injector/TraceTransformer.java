package dev.minitrace.injector;

import dev.minitrace.injector.asm.ClassTransformer;
import dev.minitrace.injector.attach.RecordRepair;
import dev.minitrace.injector.attach.Retransformation;
import dev.minitrace.injector.filter.MethodSelector;
import dev.minitrace.injector.runtime.MethodRegistry;
import dev.minitrace.injector.runtime.Trace;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's {@link ClassFileTransformer}: decides which classes are eligible, runs
 * {@link ClassTransformer}, defines the method ids of a kept rewrite and commits their definition
 * events. Returns null for every class it does not change; never lets a Throwable escape; names a
 * class it cannot rewrite once on stderr; ignores classes loaded while it is itself transforming
 * on the same thread (nothing it does can recurse).
 *
 * <p>JDK classes (those of the bootstrap and platform loaders) are rewritten only when asked:
 * with {@code alloc-scope=all} (their allocation sites) and for the include filters that name
 * them (their methods), never those {@link JdkClasses} keeps out. While it transforms, the thread
 * counts as inside the agent, so the JDK code the rewriter runs records nothing.
 */
public final class TraceTransformer implements ClassFileTransformer {
    /** Internal-name prefixes of the agent's own classes and JDK proxies: never instrumented, whatever the loader and options. */
    private static final String[] AGENT = {"dev/minitrace/injector/", "dev/minitrace/events/", "dev/minitrace/shaded/", "jdk/proxy"};

    /** Internal-name prefixes never instrumented, whatever the filters say. */
    private static final String[] NEVER = {
        // The agent itself: its hooks, its event classes and its shaded ASM (not the rest of
        // dev.minitrace, such as the demo, which is an ordinary traced application).
        "dev/minitrace/injector/", "dev/minitrace/events/", "dev/minitrace/shaded/", "java/", "jdk/jfr/", "jdk/internal/", "sun/", "jdk/proxy",
    };
    /**
     * The JDK's own com.sun code ({@link #jdkCode}): third-party code lives there too (JavaMail's
     * com.sun.mail, JAXB's runtime, JNA) and is traced like any other.
     */
    private static final String JDK_COM_SUN = "com/sun/";

    private static final ThreadLocal<boolean[]> ACTIVE = new ThreadLocal<boolean[]>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };

    private final AgentOptions options;
    /** The rewriter for the current selection; replaced when the selection changes. */
    private volatile ClassTransformer transformer;
    private volatile MethodSelector selector;
    /** The rewriter of JDK classes, or null when none is rewritten. */
    private volatile ClassTransformer jdkTransformer;
    /** The include filters that name JDK classes ({@link MethodSelector#forJdk}), or null. */
    private volatile MethodSelector jdkSelector;
    /** Whether the transformer is registered as retransformation-capable (then it instruments retransformed classes too). */
    private final boolean retransforming;
    /** Classes currently rewritten by this transformer. */
    private final ChangedClasses changed = new ChangedClasses();
    private final boolean verbose;
    /**
     * False while no recording enables MiniTrace's events and the agent defers its rewriting
     * ({@link dev.minitrace.injector.attach.Deferral}): every class then keeps its own bytes, and
     * a class retransformed meanwhile gets them back.
     */
    private volatile boolean rewriting = true;
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
    private final ClassLoader agentLoader = TraceTransformer.class.getClassLoader();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /** Creates the transformer for the parsed options, for classes as they are loaded only. */
    public TraceTransformer(AgentOptions options) {
        this(options, false);
    }

    /**
     * Creates the transformer for the parsed options.
     *
     * @param retransforming true when it is registered with {@code canRetransform}: it then
     *     instruments classes being retransformed as well, and keeps track of the classes it changed
     */
    public TraceTransformer(AgentOptions options, boolean retransforming) {
        this.options = options;
        this.retransforming = retransforming;
        this.verbose = options.verbose();
        select(options.selector());
        // Loaded now, not by the first transform, which consults it before its re-entry guard: a
        // class loaded from there would reach this transformer half-loaded, and fail for good.
        JdkClasses.neverReason("");
    }

    /** Uses {@code newSelector} for every class transformed from now on. */
    public void select(MethodSelector newSelector) {
        this.selector = newSelector;
        this.transformer = new ClassTransformer(newSelector, options.events(), options.captureSelector(), options.redaction(),
                options.allocAll());
        MethodSelector jdk = newSelector.forJdk();
        this.jdkSelector = jdk;
        ClassTransformer jdkRewriter = jdk == null && !options.allocAll() ? null
                : new ClassTransformer(jdk, options.events(), null, options.redaction(), options.allocAll());
        if (jdkRewriter != null) {
            Trace.jdkRewritten(); // before any JDK class carries a hook, however the agent was started
        }
        this.jdkTransformer = jdkRewriter;
    }

    /** Whether some JDK class may be rewritten with the options and current selection. */
    public boolean rewritesJdk() {
        return jdkTransformer != null;
    }

    /** Whether classes are rewritten now (see {@link #setActive}). */
    public boolean active() {
        return rewriting;
    }

    /** Rewrites classes from now on ({@code true}) or leaves them (and gives retransformed ones their own bytes back). */
    public void setActive(boolean on) {
        this.rewriting = on;
    }

    /** The current selection. */
    public MethodSelector selector() {
        return selector;
    }

    /** The options this transformer was made with. */
    public AgentOptions options() {
        return options;
    }

    /** Whether the current selection or the capture filters may change some method of {@code className} (dotted). */
    public boolean mayChange(String className) {
        MethodSelector capture = options.captureSelector();
        return options.allocAll() || selector.mayTraceClass(className) || (capture != null && capture.mayTraceClass(className));
    }

    /** Whether {@code c} is currently rewritten by this transformer. */
    public boolean changed(Class<?> c) {
        return changed.contains(c.getClassLoader(), c.getName().replace('.', '/'));
    }

    /**
     * Sets whether {@code c} counts as rewritten: after the JVM refused a retransformation (the
     * call is all or nothing), the class kept the bytes it had before, whatever this transformer
     * returned for it during the failed call.
     */
    public void markChanged(Class<?> c, boolean isChanged) {
        String name = c.getName().replace('.', '/');
        if (isChanged) {
            changed.add(c.getClassLoader(), name);
        } else {
            changed.remove(c.getClassLoader(), name);
        }
    }

    /** The number of classes currently rewritten by this transformer. */
    public int changedCount() {
        return changed.size();
    }

    /**
     * Whether a loaded class may be retransformed by this agent at all: eligible by loader and
     * name (whatever the filters say), and able to see the hooks. Loads nothing.
     */
    public boolean eligible(Class<?> c) {
        ClassLoader loader = c.getClassLoader();
        if (c.isArray() || c.isPrimitive() || c.isHidden()) {
            return false;
        }
        String name = c.getName().replace('.', '/');
        if (isJdk(loader)) {
            return jdkEligible(name) && (options.allocAll() || jdkSelector != null && jdkSelector.mayTraceClass(c.getName()));
        }
        return eligible(loader, name, platformLoader) && !jdkCode(name, c.getProtectionDomain()) && seesAgent(loader, agentLoader);
    }

    private boolean isJdk(ClassLoader loader) {
        return loader == null || loader == platformLoader;
    }

    /** Whether the JDK class {@code className} (internal name) may be rewritten when JDK classes are. */
    private boolean jdkEligible(String className) {
        if (jdkTransformer == null || agentLoader != null || className == null || className.contains("$$Lambda") || className.contains("$$$")) {
            return false;
        }
        for (String prefix : AGENT) {
            if (className.startsWith(prefix)) {
                return false;
            }
        }
        return JdkClasses.neverReason(className) == null;
    }

    /**
     * Whether a class of {@value #JDK_COM_SUN} comes from the JDK's run-time image: the JDK's own
     * loaders are excluded already, but the application loader defines some JDK modules too (such
     * as jdk.compiler's com.sun.tools.javac), and their code source is a {@code jrt:} location.
     */
    static boolean jdkCode(String className, ProtectionDomain domain) {
        if (className == null || !className.startsWith(JDK_COM_SUN) || domain == null) {
            return false;
        }
        java.security.CodeSource source = domain.getCodeSource();
        return source != null && source.getLocation() != null && "jrt".equals(source.getLocation().getProtocol());
    }

    /** Whether classes of this loader and name are eligible at all (before filters). */
    static boolean eligible(ClassLoader loader, String className, ClassLoader platformLoader) {
        if (loader == null || loader == platformLoader || className == null) {
            return false;
        }
        if (className.contains("$$Lambda") || className.contains("$$$")) {
            return false;
        }
        for (String prefix : NEVER) {
            if (className.startsWith(prefix)) {
                // the jrt: file system of another JDK (or of this one, asked with a java.home) is a copy of its
                // jdk.internal.jrtfs and jimage classes from lib/jrt-fs.jar, in a loader of its own
                return JdkClasses.rewrittenAllTheSame(className);
            }
        }
        return true;
    }

    /**
     * Whether code defined by {@code loader} can link to the hooks: the agent's loader must be on
     * its parent chain (a loader that does not delegate there would make every traced method
     * fail with NoClassDefFoundError). Walks the chain; loads nothing.
     */
    static boolean seesAgent(ClassLoader loader, ClassLoader agentLoader) {
        if (agentLoader == null) {
            return true; // the agent is on the bootstrap search path (Boot-Class-Path), which every loader reaches
        }
        for (ClassLoader l = loader; l != null; l = l.getParent()) {
            if (l == agentLoader) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (classBeingRedefined != null && !retransforming) {
            return null;
        }
        ClassTransformer rewriter = transformer;
        if (isJdk(loader) && jdkTransformer != null) {
            if (!jdkEligible(className)) {
                String reason = className == null ? null : JdkClasses.neverReason(className);
                MethodSelector requested = jdkSelector;
                if (reason != null && requested != null && requested.mayTraceClass(className.replace('/', '.'))) {
                    report(JdkClasses.neverEntry(className) + " (requested by include=)", reason);
                }
                return null;
            }
            rewriter = jdkTransformer;
        } else if (!eligible(loader, className, platformLoader) || jdkCode(className, protectionDomain)) {
            return null;
        }
        // A record's bytes as JDK 17 reconstitutes them may be malformed (see RecordRepair): then
        // the mended bytes are what this transformer rewrites, or hands back when it changes nothing.
        byte[] mended = classBeingRedefined != null && classBeingRedefined.isRecord() ? RecordRepair.repaired(classfileBuffer) : null;
        if (mended != null) {
            classfileBuffer = mended;
        }
        if (!rewriting) {
            if (classBeingRedefined != null) {
                changed.remove(loader, className); // null: the JVM reverts it to its own bytes
            }
            return mended;
        }
        boolean[] active;
        try {
            active = ACTIVE.get();
        } catch (Throwable t) {
            return mended;
        }
        if (active[0]) {
            return mended;
        }
        if (!seesAgent(loader, agentLoader)) {
            report("classes of " + loader.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(loader)),
                    "its parent chain does not reach the class loader of the agent, so it cannot see the hooks"
                            + " (the agent reaches every loader from the bootstrap path: with -javaagent when its jar is named"
                            + " minitrace-agent.jar, with mt attach --all-loaders)");
            return mended;
        }
        active[0] = true;
        // The rewriter's own JDK calls (ASM's lists and maps) must record nothing once JDK classes carry hooks.
        boolean entered = jdkTransformer != null && Trace.enterAgent();
        try {
            ClassTransformer.Result result = rewriter.transform(classfileBuffer,
                    (cls, name, descriptor) -> MethodRegistry.idFor(loader, cls, name, descriptor));
            if (result == null) {
                if (retransforming) {
                    changed.remove(loader, className);
                }
                return mended;
            }
            List<String[]> methods = result.methods();
            for (int i = 0; i < methods.size(); i++) {
                String[] m = methods.get(i);
                MethodRegistry.define(result.ids()[i], m[0], m[1], m[2], result.access().get(i), result.returnBcis()[i]);
            }
            for (int i = 0; i < methods.size(); i++) {
                MethodRegistry.commitDefinition(result.ids()[i]);
            }
            if (retransforming) {
                changed.add(loader, className);
            }
            if (verbose) {
                System.err.println("minitrace: instrumented " + className.replace('/', '.') + " (" + methods.size()
                        + " methods)");
            }
            return result.bytes();
        } catch (Throwable t) {
            if (retransforming) {
                changed.remove(loader, className);
            }
            report(className.replace('/', '.'), Retransformation.cause(t));
            return mended;
        } finally {
            if (entered) {
                Trace.leaveAgent();
            }
            active[0] = false;
        }
    }

    /** Whether this transformer has named {@code className} (dotted) on stderr as a class it does not instrument. */
    public boolean named(String className) {
        return reported.contains(className);
    }

    private void report(String what, String reason) {
        try {
            if (reported.add(what)) {
                System.err.println("minitrace: not instrumenting " + what + ": " + reason.replace('\n', ' '));
            }
        } catch (Throwable ignored) {
            // Reporting must not fail class loading either.
        }
    }
}
