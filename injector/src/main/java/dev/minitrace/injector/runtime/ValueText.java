package dev.minitrace.injector.runtime;

/**
 * Renders captured values as bounded text without ever throwing: {@code null}, primitives (boxed
 * by the caller), arrays like {@code Arrays.toString} but with at most {@value #MAX_ELEMENTS}
 * elements, and other objects by their own {@code toString}; a {@code toString} that throws
 * (or overflows the stack by recursing) gives {@code <Type.toString() threw X>}. Every value is cut
 * to {@value #MAX_CHARS} characters. The caller marks its thread busy first, so whatever the
 * application's {@code toString} runs commits no MiniTrace event.
 *
 * <p>The {@link Redaction} rules apply to each value: one of a redacted type is never rendered
 * (its {@code toString} does not run), and a text that matches a redacted pattern is replaced as a
 * whole, checked before it is cut so that no part of a secret is written.
 */
final class ValueText {
    /** Longest rendering of one value. */
    static final int MAX_CHARS = 256;
    /** Array elements shown before {@code ...}. */
    static final int MAX_ELEMENTS = 16;

    /** The rules in force; replaced only when an agent starts (premain or an attach session). */
    private static volatile Redaction rules = Redaction.defaults();

    private ValueText() {
    }

    /** Uses {@code redaction} for every value rendered from now on. */
    static void redact(Redaction redaction) {
        rules = redaction;
    }

    /** The bounded text of {@code value}. */
    static String of(Object value) {
        Redaction r = rules;
        if (value == Redaction.REDACTED || value != null && r.redactsType(value.getClass())) {
            return Redaction.TEXT;
        }
        String s;
        try {
            s = render(value);
        } catch (Throwable t) {
            s = "<" + typeName(value) + ".toString() threw " + t.getClass().getName() + ">";
        }
        return r.redactsText(s) ? Redaction.TEXT : bound(s);
    }

    /** {@code text} (a rendered primitive) unless a redacted pattern matches it. */
    static String checked(String text) {
        return rules.redactsText(text) ? Redaction.TEXT : text;
    }

    /** {@code Type: message} of an exception; a throwing {@code getMessage} gives just the type. */
    static String thrown(Throwable t) {
        Redaction r = rules;
        if (r.redactsType(t.getClass())) {
            return Redaction.TEXT;
        }
        String message;
        try {
            message = t.getMessage();
        } catch (Throwable e) {
            message = "<getMessage() threw " + e.getClass().getName() + ">";
        }
        String s = message == null ? t.getClass().getName() : t.getClass().getName() + ": " + message;
        return r.redactsText(s) ? t.getClass().getName() + ": " + Redaction.TEXT : bound(s);
    }

    private static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value.getClass().isArray()) {
            return array(value);
        }
        return String.valueOf(value.toString());
    }

    private static String array(Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        StringBuilder b = new StringBuilder("[");
        int shown = Math.min(length, MAX_ELEMENTS);
        for (int i = 0; i < shown && b.length() <= MAX_CHARS; i++) {
            if (i > 0) {
                b.append(", ");
            }
            Object element = java.lang.reflect.Array.get(array, i);
            if (element != null && element.getClass().isArray()) {
                b.append(typeName(element)).append("[").append(java.lang.reflect.Array.getLength(element)).append("]");
            } else {
                b.append(of(element));
            }
        }
        if (length > shown) {
            b.append(", ... (").append(length).append(" elements)");
        }
        return b.append(']').toString();
    }

    private static String bound(String s) {
        if (s.length() <= MAX_CHARS) {
            return s;
        }
        return s.substring(0, MAX_CHARS) + "... (" + s.length() + " chars)";
    }

    private static String typeName(Object value) {
        if (value == null) {
            return "null";
        }
        Class<?> c = value.getClass();
        return c.isArray() ? c.getComponentType().getName() : c.getName();
    }
}
