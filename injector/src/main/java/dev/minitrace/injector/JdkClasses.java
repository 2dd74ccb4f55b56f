package dev.minitrace.injector;

/**
 * Which classes of the JDK (those of the bootstrap and platform class loaders) the agent may
 * rewrite, when it rewrites JDK classes at all ({@code alloc-scope=all}, or an include filter
 * naming JDK classes). The classes the hooks run on before they can tell that their thread is
 * already inside the agent, the classes that call the transformer, and JFR's machinery are never
 * rewritten; each entry says why (docs/agent.md lists them too).
 */
final class JdkClasses {
    /** Internal-name prefixes (a package ends with {@code /}; a class covers its nested classes) and why each is left alone. */
    private static final String[][] NEVER = {
        {"java/lang/Object", "every constructor starts in it, also the one that makes a thread's hook state"},
        {"java/lang/Thread", "a hook asks it for the current thread before it can tell whether the thread is inside the agent"},
        {"java/lang/ThreadLocal", "a hook finds its thread's state through it before it can tell whether the thread is inside the agent"},
        {"java/lang/ref/", "the death thread and the reference handler run on it, and each recorded allocation registers a reference"},
        {"java/lang/invoke/", "the JVM links call sites through it while it resolves the hooks, and its pre-generated holder classes"
                + " are not valid class files for a rewriter"},
        {"java/lang/instrument/", "the transformer is called through it"},
        {"sun/instrument/", "the transformer is called through it"},
        {"jdk/internal/", "JFR's event writer, Unsafe and the VM's support code that every committed record runs on"},
        {"jdk/jfr/", "JFR's machinery, which commits the agent's records"},
        {"sun/reflect/", "reflection's generated accessors and their support, which the JVM calls from native code"},
    };

    /**
     * Packages inside a {@link #NEVER} entry that are rewritten all the same: code the application
     * runs on its own threads that neither the hooks, the transformer nor JFR reach (the JVM reads
     * the bootstrap classes of the run-time image natively), and that allocates much. The run-time
     * image's reader and the {@code jrt:} file system, through which compilers (ecj, javac) read the
     * JDK's classes; also their copies from {@code lib/jrt-fs.jar} that the {@code jrt:} file system
     * of a given {@code java.home} loads in a loader of its own.
     */
    private static final String[] REWRITTEN_ALL_THE_SAME = {"jdk/internal/jimage/", "jdk/internal/jrtfs/"};

    private JdkClasses() {
    }

    /** Why the JDK class {@code internalName} is never rewritten, or null when it may be. */
    static String neverReason(String internalName) {
        String[] entry = entry(internalName);
        return entry == null ? null : entry[1];
    }

    /** The entry that keeps {@code internalName} out, as a dotted name ({@code java.lang.invoke.*}), or null. */
    static String neverEntry(String internalName) {
        String[] entry = entry(internalName);
        return entry == null ? null : entry[0].endsWith("/") ? entry[0].replace('/', '.') + "*" : entry[0].replace('/', '.');
    }

    /** Whether {@code internalName} is in one of the packages {@link #REWRITTEN_ALL_THE_SAME}. */
    static boolean rewrittenAllTheSame(String internalName) {
        for (String prefix : REWRITTEN_ALL_THE_SAME) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String[] entry(String internalName) {
        if (rewrittenAllTheSame(internalName)) {
            return null;
        }
        for (String[] entry : NEVER) {
            String prefix = entry[0];
            if (prefix.endsWith("/") ? internalName.startsWith(prefix)
                    : internalName.equals(prefix) || internalName.startsWith(prefix) && internalName.length() > prefix.length()
                            && internalName.charAt(prefix.length()) == '$') {
                return entry;
            }
        }
        return null;
    }

    /** The entries as {@code prefix: reason} lines, for docs and tests. */
    static java.util.List<String> entries() {
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (String[] entry : NEVER) {
            lines.add(entry[0] + ": " + entry[1]);
        }
        return lines;
    }
}
