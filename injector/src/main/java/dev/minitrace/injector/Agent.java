package dev.minitrace.injector;

import dev.minitrace.injector.runtime.Enablement;
import dev.minitrace.injector.runtime.MethodRegistry;
import dev.minitrace.injector.runtime.Trace;
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
 * {@code premain}). When loaded into a running JVM ({@code agentmain}) it throws instead: an
 * attached agent must not stop the application. Classes loaded before the agent are not traced.
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

    /** Entry point for dynamic attach; classes already loaded are not traced. */
    public static void agentmain(String args, Instrumentation inst) {
        start(AgentOptions.parse(args), inst);
    }

    private static void start(AgentOptions options, Instrumentation inst) {
        // Load the hooks' classes before the transformer exists, so that it never triggers their
        // loading mid-transform. The event classes are left alone: loading a jdk.jfr.Event
        // subclass initializes JFR (measured: 0.2 s of start-up), which only a recording needs;
        // Enablement loads them when JFR initializes.
        Class<?>[] preload = {Trace.class, MethodRegistry.class, Enablement.class};
        for (Class<?> c : preload) {
            try {
                Class.forName(c.getName(), true, Agent.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("minitrace agent jar is incomplete: " + c.getName(), e);
            }
        }
        TraceTransformer transformer = new TraceTransformer(options);
        try {
            Enablement.install();
        } catch (Throwable t) {
            System.err.println("minitrace: JFR is not available, tracing stays off: " + t);
        }
        inst.addTransformer(transformer, false);
    }
}
