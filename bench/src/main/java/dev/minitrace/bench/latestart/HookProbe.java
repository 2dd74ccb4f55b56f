package dev.minitrace.bench.latestart;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An agent {@link LateStartBench} loads into the target after MiniTrace: its retransformation-capable
 * transformer runs after MiniTrace's, so it sees the bytes the JVM installs, and notes for every
 * retransformed class whether they carry MiniTrace's hooks. {@code register} adds it;
 * {@code report} publishes, in the system property {@value #REPORT}, how many classes it saw
 * retransformed, how many of those hold hooks now, and the first of them.
 */
public final class HookProbe implements ClassFileTransformer {
    static final String REPORT = "minitrace.bench.hooks";
    /** Joined at run time: as one constant it would be in this class's own bytes. */
    private static final byte[] HOOKS = String.join("/", "dev", "minitrace", "injector", "runtime", "Trace")
            .getBytes(StandardCharsets.ISO_8859_1);
    private static final Map<String, Boolean> LAST = new ConcurrentHashMap<>();

    private HookProbe() {
    }

    /** Entry point for dynamic attach. */
    public static void agentmain(String args, Instrumentation inst) {
        if (args.equals("register")) {
            inst.addTransformer(new HookProbe(), true);
        } else {
            TreeSet<String> hooked = new TreeSet<>();
            LAST.forEach((name, hooks) -> {
                if (hooks) {
                    hooked.add(name);
                }
            });
            System.setProperty(REPORT, LAST.size() + " " + hooked.size() + " " + String.join(",", hooked.stream().limit(5).toList()));
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (classBeingRedefined != null && className != null) {
            LAST.put(className, contains(classfileBuffer));
        }
        return null;
    }

    private static boolean contains(byte[] b) {
        outer:
        for (int i = 0; i + HOOKS.length <= b.length; i++) {
            for (int j = 0; j < HOOKS.length; j++) {
                if (b[i + j] != HOOKS[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
