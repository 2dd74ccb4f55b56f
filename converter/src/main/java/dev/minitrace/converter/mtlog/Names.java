package dev.minitrace.converter.mtlog;

import java.time.Instant;

/** Resolves the ids of records to readable names through an {@link MtlogInfo}; unknown ids are shown as {@code ?<id>}. */
public final class Names {
    private final MtlogInfo info;

    /** Names from {@code info}. */
    public Names(MtlogInfo info) {
        this.info = info;
    }

    /** {@code class.method descriptor}. */
    public String method(long methodId) {
        MtlogInfo.MethodInfo m = info.methods().get(methodId);
        return m == null ? "?method" + Long.toUnsignedString(methodId) : m.className() + "." + m.methodName() + m.descriptor();
    }

    /** The class name of a class id. */
    public String className(long classId) {
        String c = info.classes().get(classId);
        return c == null ? "?class" + classId : c;
    }

    /** {@code class@hash} for an object id; {@code null} for 0 (the heap records' null reference or no holder). */
    public String object(long objectId) {
        return objectId == 0 ? "null" : className(objectId >>> 32) + "@" + Integer.toHexString((int) objectId);
    }

    /** {@code class.field} of a field id ({@code static} appended for a static field). */
    public String field(long fieldId) {
        MtlogInfo.FieldInfo f = info.fields().get(fieldId);
        return f == null ? "?field" + Long.toUnsignedString(fieldId) : f.className() + "." + f.fieldName() + (f.isStatic() ? " static" : "");
    }

    /** The name of a thread id. */
    public String thread(long threadId) {
        MtlogInfo.ThreadInfo t = info.threads().get(threadId);
        return t == null ? "?thread" + threadId : t.name();
    }

    /** {@code name (cause)} of a GC id. */
    public String gc(long gcId) {
        MtlogInfo.GcInfo g = info.gcs().get(gcId);
        return g == null ? "?gc" + gcId : g.name() + " (" + g.cause() + ")";
    }

    /** An epoch-nanosecond time as an ISO instant. */
    public static String time(long epochNanos) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L)).toString();
    }
}
