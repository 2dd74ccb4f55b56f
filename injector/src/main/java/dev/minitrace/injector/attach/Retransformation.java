package dev.minitrace.injector.attach;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pass of {@link Instrumenter} over loaded classes did: how many classes the JVM
 * retransformed and that carry MiniTrace's hooks now, how many it retransformed that do not (the
 * selection changed nothing in them, or they got their own bytecode back), and which classes it
 * refused, each with its cause.
 */
public final class Retransformation {
    /** Failures named in a summary; the rest are counted (each is on stderr anyway). */
    private static final int NAMED = 5;

    private int hooked;
    private int plain;
    private final Map<String, String> failed = new LinkedHashMap<>();

    /** Counts a class the JVM retransformed; {@code hooks}: whether it carries hooks now. */
    void done(boolean hooks) {
        if (hooks) {
            hooked++;
        } else {
            plain++;
        }
    }

    void failed(String className, String cause) {
        failed.put(className, cause);
    }

    /** Classes retransformed that carry hooks now. */
    public int hooked() {
        return hooked;
    }

    /** Classes retransformed that carry no hooks now. */
    public int plain() {
        return plain;
    }

    /** The classes the JVM refused, with the cause, in the order met. */
    public Map<String, String> failed() {
        return failed;
    }

    /**
     * For instrumenting: {@code rewrote 355 loaded classes (72 left unchanged, 2 failed: 1
     * ClassFormatError, 1 NoClassDefFoundError)}.
     */
    public String instrumented() {
        return "rewrote " + hooked + " loaded classes (" + plain + " left unchanged, " + failures() + ")";
    }

    /**
     * For restoring: {@code restored the original bytecode of 355 classes}, and the classes that
     * keep their hooks, named with their cause.
     */
    public String restored() {
        StringBuilder b = new StringBuilder("restored the original bytecode of ").append(plain).append(" classes");
        if (hooked > 0) {
            b.append(" (").append(hooked).append(" rewritten again: tracing was switched on meanwhile)");
        }
        if (!failed.isEmpty()) {
            b.append("; ").append(failed.size()).append(" could not be restored and keep hooks that record nothing: ");
            int n = 0;
            for (Map.Entry<String, String> e : failed.entrySet()) {
                if (n++ == NAMED) {
                    b.append(", and ").append(failed.size() - NAMED).append(" more (named on stderr)");
                    break;
                }
                b.append(n > 1 ? ", " : "").append(e.getKey()).append(" (").append(e.getValue()).append(')');
            }
        }
        return b.toString();
    }

    /** {@code 0 failed}, or {@code 3 failed: 2 VerifyError, 1 ClassFormatError} (by the cause's kind). */
    private String failures() {
        if (failed.isEmpty()) {
            return "0 failed";
        }
        Map<String, Integer> kinds = new TreeMap<>();
        for (String cause : failed.values()) {
            int colon = cause.indexOf(':');
            kinds.merge(colon < 0 ? cause : cause.substring(0, colon), 1, Integer::sum);
        }
        StringBuilder b = new StringBuilder().append(failed.size()).append(" failed:");
        String sep = " ";
        for (Map.Entry<String, Integer> e : kinds.entrySet()) {
            b.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        return b.append(", each named on stderr").toString();
    }

    /**
     * One line for why a class was not rewritten or retransformed: the exception's simple name
     * and message, or where it was thrown when it has no message (ASM's exceptions for a class
     * file it cannot read often have none).
     */
    public static String cause(Throwable t) {
        String what = t.getClass().getSimpleName();
        if (t.getMessage() != null && !t.getMessage().isBlank()) {
            return (what + ": " + t.getMessage()).replace('\n', ' ');
        }
        StackTraceElement[] at = t.getStackTrace();
        if (at.length > 0 && at[0].isNativeMethod()) {
            return what + " (the JVM gave no detail)";
        }
        if (at.length > 0) {
            String cls = at[0].getClassName();
            return what + " (no message; thrown at " + cls.substring(cls.lastIndexOf('.') + 1) + "." + at[0].getMethodName()
                    + (t.getCause() == null ? ")" : ", caused by " + cause(t.getCause()) + ")");
        }
        return what + " (no message)";
    }
}
