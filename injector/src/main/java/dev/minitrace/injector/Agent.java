package dev.minitrace.injector;

import dev.minitrace.injector.attach.AttachSession;
import dev.minitrace.injector.attach.Deferral;
import dev.minitrace.injector.attach.Filters;
import dev.minitrace.injector.attach.Instrumenter;
import dev.minitrace.injector.runtime.Capture;
import dev.minitrace.injector.runtime.Enablement;
import dev.minitrace.injector.runtime.Redaction;
import dev.minitrace.injector.runtime.TraceClock;
import dev.minitrace.injector.runtime.MethodRegistry;
import dev.minitrace.injector.runtime.EventKind;
import dev.minitrace.injector.runtime.Trace;
import dev.minitrace.injector.runtime.TraceSettings;
import dev.minitrace.wire.AttachRequest;
import java.lang.instrument.Instrumentation;

/**
 * The MiniTrace Java agent: {@code java -javaagent:minitrace-agent.jar[=OPTIONS] …}.
 *
 * <p>OPTIONS is a list of {@code key=value} options joined by {@code ,}:
 * <ul>
 *   <li>{@code include=FILTERS} — trace only matching methods (default: every class defined by a
 *       loader other than the bootstrap and platform loaders);</li>
 *   <li>{@code exclude=FILTERS} — never trace matching methods;</li>
 *   <li>{@code events=EVENTS} — what to instrument: {@code method}, {@code lock}, {@code alloc}
 *       joined by {@code +} (default all three);</li>
 *   <li>{@code capture=FILTERS} — record each call of the matching methods with its values
 *       ({@code minitrace.MethodCapture}); when no running recording enables that event, the
 *       agent says so once on stderr;</li>
 *   <li>{@code redact=RULES} — what a capture never writes (see {@link Redaction});</li>
 *   <li>{@code verbose} — name every instrumented class on stderr.</li>
 * </ul>
 * FILTERS are JEP 520-style filters joined by {@code ;}: {@code pkg.Class}, {@code pkg.Class::method},
 * {@code ::method}, {@code @pkg.Annotation}; {@code *} matches within one name segment and a
 * trailing {@code .*} matches a package and its subpackages. A {@code ,} followed by text that does
 * not start with a key continues the previous option, so {@code events=method,lock} and
 * {@code include=a.B,c.D} also work. Example:
 * {@code include=com.acme.*;com.foo.Bar::baz,exclude=::toString,events=method+lock}.
 *
 * <p>A malformed option prints one line, {@code minitrace: bad agent option: …}, and halts the JVM
 * with status 1 before {@code main} runs (the JVM would otherwise print a long stack for a failing
 * {@code premain}). When loaded into a running JVM ({@code agentmain}) it never throws or stops
 * the application: {@code mt attach} (see {@link AttachSession}) gets the error as its answer.
 */
public final class Agent {
    private Agent() {
    }

    /** Entry point for {@code -javaagent}. */
    public static void premain(String args, Instrumentation inst) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("minitrace: bad agent option: " + e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(1);
            return;
        }
        start(options, inst);
    }

    /**
     * Entry point for dynamic attach ({@code VirtualMachine.loadAgent}). With an
     * {@link AttachRequest} (what {@code mt attach} and {@code mt stop} send) it starts or ends an
     * {@link AttachSession} and answers in the system property {@code minitrace.reply.TOKEN}
     * ({@link AttachRequest#REPLY_PROPERTY_PREFIX}); it
     * never throws into the target. Plain agent options (no {@code cmd=}) keep the old meaning:
     * trace the classes loaded from now on; a bad option is named in one line on stderr and the
     * agent does not start.
     */
    public static void agentmain(String args, Instrumentation inst) {
        if (args == null || !args.startsWith(AttachRequest.PREFIX)) {
            try {
                start(AgentOptions.parse(args), inst);
            } catch (IllegalArgumentException e) {
                System.err.println("minitrace: bad agent option, agent not started: " + e.getMessage());
            }
            return;
        }
        String replyKey = AttachRequest.REPLY_PROPERTY_PREFIX;
        String reply;
        try {
            AttachRequest request = AttachRequest.parse(args);
            replyKey = AttachRequest.REPLY_PROPERTY_PREFIX + request.reply();
            if (premain) {
                throw new IllegalStateException("MiniTrace is already loaded in this JVM with -javaagent");
            }
            preload();
            reply = AttachRequest.OK + (request.command().equals(AttachRequest.START) ? AttachSession.start(request, inst) : AttachSession.stop());
        } catch (IllegalArgumentException | IllegalStateException e) {
            reply = AttachRequest.ERROR + e.getMessage();
        } catch (Throwable t) {
            reply = AttachRequest.ERROR + t;
        }
        try {
            // Keep at most one reply in the target: remove the answers to earlier requests.
            for (Object key : System.getProperties().keySet().toArray()) {
                if (key instanceof String k && k.startsWith(AttachRequest.REPLY_PROPERTY_PREFIX)) {
                    System.clearProperty(k);
                }
            }
        } catch (Throwable ignored) {
            // a concurrent change of the properties; the old reply stays, harmlessly
        }
        System.setProperty(replyKey, reply.replace('\n', ' '));
    }

    /** True once started by {@code -javaagent} (then attach requests are refused). */
    private static volatile boolean premain;

    /** Loads the hooks and hands them the options; before any transformer is registered. */
    private static final class Hooks implements Runnable {
        private final AgentOptions options;
        private final Instrumentation inst;

        Hooks(AgentOptions options, Instrumentation inst) {
            this.options = options;
            this.inst = inst;
        }

        @Override
        public void run() {
            preload();
            TraceSettings.measureSizesWith(inst);
            TraceSettings.preferBuffered(options.bufferMethods());
            TraceSettings.watchDeaths(options.events().contains(EventKind.DEATH));
            Capture.redact(options.redaction());
            Capture.requested(!options.captures().isEmpty());
        }
    }

    private static void preload() {
        // Load the hooks' classes before the transformer exists, so that it never triggers their
        // loading mid-transform. The event classes are left alone: loading a jdk.jfr.Event
        // subclass initializes JFR (measured: 0.2 s of start-up), which only a recording needs;
        // Enablement loads them when JFR initializes.
        Class<?>[] preload = {Trace.class, Capture.class, Redaction.class, MethodRegistry.class, Enablement.class, Instrumenter.class,
            Filters.class, Deferral.class};
        java.util.List<Class<?>> all = new java.util.ArrayList<>(java.util.List.of(preload));
        all.addAll(java.util.List.of(Trace.helperClasses()));
        for (Class<?> c : all) {
            try {
                Class.forName(c.getName(), true, Agent.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("minitrace agent jar is incomplete: " + c.getName(), e);
            }
        }
        // JDK classes the rewriter needs (asm/MonitorAdapter's identity sets) that the JVM may not
        // have loaded yet: when JDK classes are rewritten, their first load would reach the
        // transformer while it needs them itself (ClassCircularityError, the rewrite of every class
        // after it failing too), as the retransformation of the loaded classes did.
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<Object, Boolean>()).add(Agent.class);
    }

    private static void start(AgentOptions options, Instrumentation inst) {
        // Deferral needs retransformation to catch up on the classes loaded before a recording.
        boolean defer = Deferral.wanted() && inst.isRetransformClassesSupported();
        Hooks hooks = new Hooks(options, inst);
        if (defer) {
            // Nothing calls a hook before a recording turns tracing on: loading them (about 9 ms
            // of premain, docs/decisions.md) waits for the first recording JFR tells of.
            Enablement.beforeFirstUpdate(hooks);
        } else {
            hooks.run();
        }
        premain = true;
        System.setProperty(AttachRequest.STATE_PROPERTY, AttachRequest.STATE_PREMAIN);
        TraceClock.open(inst, options.stampEvery());
        // Registered with retransformation (when the JVM allows it) so that the filter setting of
        // a recording can change the selection later (see Filters).
        TraceTransformer transformer = new TraceTransformer(options, inst.isRetransformClassesSupported());
        Instrumenter instrumenter = new Instrumenter(inst, transformer);
        if (defer) {
            transformer.setActive(false);
        }
        try {
            Enablement.install();
        } catch (Throwable t) {
            System.err.println("minitrace: JFR is not available, tracing stays off: " + t);
        }
        Filters.use(instrumenter);
        if (defer) {
            Deferral.follow(instrumenter, options.verbose()); // registers the transformer when a recording needs it
        } else {
            instrumenter.install();
            if (transformer.rewritesJdk()) {
                instrumenter.instrumentLoaded(); // the JDK classes loaded before the agent
            }
        }
    }
}
