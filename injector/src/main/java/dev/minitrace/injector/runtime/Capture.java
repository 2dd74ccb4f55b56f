package dev.minitrace.injector.runtime;

import dev.minitrace.events.MethodCaptureEvent;

/**
 * The hooks of captured methods (the agent's {@code capture=} option): {@link #enter} at the start
 * renders the receiver and the arguments and begins a {@link MethodCaptureEvent}; one of the
 * {@code returned…} hooks before each return, or {@link #threw} from a catch-all handler, ends and
 * commits it. Instrumented code reads {@link #on} before building the argument array, so a
 * captured method costs one volatile read per call while no recording enables the event.
 *
 * <p>While rendering values the thread is marked busy (the flag every MiniTrace hook checks), so
 * an application {@code toString} that calls traced or captured code commits nothing and cannot
 * recurse into the agent. Open calls are kept per thread in a small stack; an exit whose entry was
 * not recorded (capture switched on meanwhile) finds no matching entry and commits nothing.
 */
public final class Capture {
    /** True when a running recording may enable {@code minitrace.MethodCapture}; read by instrumented code. */
    public static volatile boolean on;
    /** Whether the agent was given methods to capture (then a recording without the event is worth a warning). */
    private static volatile boolean requested;
    private static boolean warned;

    private Capture() {
    }

    /**
     * A captured method was entered.
     *
     * @param methodId the method's id (defined in the registry)
     * @param receiver {@code this}, or null for a static method
     * @param arguments the arguments, primitives boxed
     */
    public static void enter(int methodId, Object receiver, Object[] arguments) {
        if (!on) {
            return;
        }
        try {
            ThreadState s = Trace.state();
            if (s.busy) {
                return;
            }
            s.busy = true;
            try {
                MethodCaptureEvent e = new MethodCaptureEvent();
                if (!e.isEnabled()) {
                    return;
                }
                e.methodId = methodId;
                String[] d = MethodRegistry.describe(methodId);
                if (d != null) {
                    e.method = d[0] + "::" + d[1];
                    e.descriptor = d[2];
                }
                if (receiver != null) {
                    e.receiver = ValueText.of(receiver);
                }
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < arguments.length; i++) {
                    if (i > 0) {
                        b.append(", ");
                    }
                    b.append(ValueText.of(arguments[i]));
                }
                e.arguments = b.toString();
                s.pushCapture(methodId, e);
                e.begin();
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Capturing must never change the application's behaviour.
        }
    }

    /** A captured void method returns. */
    public static void returnedVoid(int methodId) {
        if (on) {
            end(methodId, "void", null, false);
        }
    }

    /** A captured method returns an int, short, char, byte or boolean ({@code kind}: its descriptor letter). */
    public static void returnedInt(int value, int methodId, char kind) {
        if (on) {
            end(methodId, switch (kind) {
                case 'Z' -> Boolean.toString(value != 0);
                case 'C' -> String.valueOf((char) value);
                default -> Integer.toString(value);
            }, null, true);
        }
    }

    /** A captured method returns a long. */
    public static void returnedLong(long value, int methodId) {
        if (on) {
            end(methodId, Long.toString(value), null, true);
        }
    }

    /** A captured method returns a float. */
    public static void returnedFloat(float value, int methodId) {
        if (on) {
            end(methodId, Float.toString(value), null, true);
        }
    }

    /** A captured method returns a double. */
    public static void returnedDouble(double value, int methodId) {
        if (on) {
            end(methodId, Double.toString(value), null, true);
        }
    }

    /** A captured method returns a reference. */
    public static void returnedObject(Object value, int methodId) {
        if (on) {
            end(methodId, value, null, false);
        }
    }

    /** An exception leaves a captured method. */
    public static void threw(Throwable thrown, int methodId) {
        if (on) {
            end(methodId, null, thrown, false);
        }
    }

    private static void end(int methodId, Object value, Throwable thrown, boolean rendered) {
        try {
            ThreadState s = Trace.state();
            if (s.busy) {
                return;
            }
            MethodCaptureEvent e = s.popCapture(methodId);
            if (e == null) {
                return;
            }
            s.busy = true;
            try {
                e.end();
                if (e.shouldCommit()) {
                    if (thrown != null) {
                        e.thrown = ValueText.thrown(thrown);
                    } else {
                        e.returnValue = rendered ? ValueText.checked((String) value) : ValueText.of(value);
                    }
                    e.commit();
                }
            } finally {
                s.busy = false;
            }
        } catch (Throwable ignored) {
            // Capturing must never change the application's behaviour.
        }
    }

    /** Applies {@code redaction} to every value captured from now on; called when an agent starts. */
    public static void redact(Redaction redaction) {
        ValueText.redact(redaction);
    }

    /** Records whether {@code capture=} named methods; called when an agent starts. */
    public static void requested(boolean methodsNamed) {
        requested = methodsNamed;
    }

    /**
     * Called by {@link Enablement} when recordings run but none enables the event: a user who gave
     * {@code capture=} would otherwise get an empty result and no hint, so say it once.
     */
    static synchronized void noRecordingEnables() {
        if (requested && !warned) {
            warned = true;
            System.err.println("minitrace: capture= names methods, but no running recording enables minitrace.MethodCapture,"
                    + " so nothing is captured: record with jfc-profiles/minitrace.jfc or add +minitrace.MethodCapture#enabled=true");
            System.err.flush();
        }
    }

    /** Sets the flag; called by {@link Enablement}. */
    static void setEnabled(boolean enabled) {
        on = enabled;
    }
}
