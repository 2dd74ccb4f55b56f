package dev.minitrace.converter;

/** Child-JVM main for the JDK 25 MethodTrace test: known calls of {@link Traced}'s methods on two threads. */
public final class MethodTraceWorkload {
    private MethodTraceWorkload() {
    }

    /** The class the recording's method-trace filter selects. */
    public static final class Traced {
        private Traced() {
        }

        static int depth(int n) {
            return n == 0 ? 0 : 1 + depth(n - 1);
        }

        static void leaf() {
            // an empty method still gets its own entry and exit
        }

        static void thrower() {
            throw new IllegalStateException("exit by exception");
        }
    }

    /** Calls depth(2), leaf() and thrower() three times on main, depth(1) on thread "other". */
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 3; i++) {
            Traced.depth(2);
            Traced.leaf();
            try {
                Traced.thrower();
            } catch (IllegalStateException expected) {
                // part of the trace
            }
        }
        Thread t = new Thread(() -> Traced.depth(1), "other");
        t.start();
        t.join();
    }
}
