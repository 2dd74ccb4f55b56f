package dev.minitrace.views.timeline;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.Names;
import dev.minitrace.converter.util.LongIntMap;
import dev.minitrace.views.AtomicOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes the timeline file once the names are known: the Trace Event Format's JSON object form
 * ({@code {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}}), streamed through
 * Jackson's generator. Times ({@code ts}, microseconds) are relative to the recording's start, with
 * three decimals (nanoseconds), so that they stay exact in a double for recordings of any length.
 * Process 1 is the JVM; each traced thread is a track with its JFR thread id as {@code tid} and its
 * name; {@link #GC_TID} is the GC track.
 */
final class TraceEventJson {
    static final int PID = 1;
    /**
     * The GC track's {@code tid}: never a thread's key (the .mtlog's global stream id), and last in
     * speedscope's list of threads, which opens the first.
     */
    static final long GC_TID = 0xFFFF_FFFFL;

    private static final SerializableString NAME = new SerializedString("name");
    private static final SerializableString PH = new SerializedString("ph");
    private static final SerializableString TS = new SerializedString("ts");
    private static final SerializableString DUR = new SerializedString("dur");
    private static final SerializableString PID_FIELD = new SerializedString("pid");
    private static final SerializableString TID = new SerializedString("tid");
    private static final SerializableString ARGS = new SerializedString("args");
    private static final SerializableString S = new SerializedString("s");
    private static final SerializableString B = new SerializedString("B");
    private static final SerializableString E = new SerializedString("E");
    private static final SerializableString I = new SerializedString("i");
    private static final SerializableString X = new SerializedString("X");
    private static final SerializableString M = new SerializedString("M");
    private static final SerializableString MONITOR = new SerializedString("monitor");
    private static final SerializableString CLASS = new SerializedString("class");
    private static final SerializableString BCI = new SerializedString("bci");

    private final MtlogInfo info;
    private final Names names;
    private final long origin;
    private final long windowStart;
    private final long windowEnd;
    private final ThreadTrack.Cut cut;
    private final List<ThreadTrack> tracks;
    private final List<long[]> fragments;
    private final LongIntMap methodIndex;
    private final SerializableString[] methodNames;
    private final LongIntMap classIndex;
    private final SerializableString[] lockNames;
    private final SerializableString[] allocNames;
    private final String[] classNames;
    private final char[] number = new char[32];
    private final char[] text = new char[512];
    private JsonGenerator g;
    private long events;

    TraceEventJson(MtlogInfo info, long origin, long windowStart, long windowEnd, ThreadTrack.Cut cut, List<ThreadTrack> tracks,
            List<long[]> fragments) {
        this.info = info;
        this.names = new Names(info);
        this.origin = origin;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.cut = cut;
        this.tracks = tracks;
        this.fragments = fragments;
        Map<Long, MtlogInfo.MethodInfo> methods = info.methods();
        methodIndex = new LongIntMap(methods.size());
        methodNames = new SerializableString[methods.size()];
        int i = 0;
        for (Map.Entry<Long, MtlogInfo.MethodInfo> e : methods.entrySet()) {
            methodIndex.put(e.getKey(), i);
            methodNames[i++] = new SerializedString(e.getValue().className() + "." + e.getValue().methodName());
        }
        Map<Long, String> classes = info.classes();
        classIndex = new LongIntMap(classes.size());
        lockNames = new SerializableString[classes.size()];
        allocNames = new SerializableString[classes.size()];
        classNames = new String[classes.size()];
        i = 0;
        for (Map.Entry<Long, String> e : classes.entrySet()) {
            classIndex.put(e.getKey(), i);
            classNames[i] = e.getValue();
            lockNames[i] = new SerializedString("lock " + e.getValue());
            allocNames[i++] = new SerializedString("new " + e.getValue());
        }
    }

    /** Writes the file {@code out} from the spooled events; returns what it holds. */
    TimelineSummary write(EventSpool spool, Path out) throws IOException {
        int gcs = 0;
        long early = 0;
        try (AtomicOutput file = new AtomicOutput(out)) {
            g = new JsonFactory().createGenerator(file.stream(), JsonEncoding.UTF8);
            g.writeStartObject();
            g.writeFieldName("traceEvents");
            g.writeStartArray();
            metadata(GC_TID, "thread_name", "name", "GC");
            metadata(GC_TID, "thread_sort_index", "sort_index", -1);
            g.writeStartObject();
            g.writeFieldName(NAME);
            g.writeString("process_name");
            g.writeFieldName(PH);
            g.writeString(M);
            g.writeFieldName(PID_FIELD);
            g.writeNumber(PID);
            g.writeFieldName(TID);
            g.writeNumber(GC_TID);
            g.writeObjectFieldStart("args");
            g.writeStringField("name", "JVM (MiniTrace)");
            g.writeEndObject();
            g.writeEndObject();
            int sort = 0;
            for (ThreadTrack t : tracks) {
                metadata(t.key, "thread_name", "name", names.thread(t.key));
                metadata(t.key, "thread_sort_index", "sort_index", sort++);
            }
            gcs = gcs();
            for (long[] f : fragments) {
                if (f[1] >= windowStart && f[1] < windowEnd) {
                    start("fragment: GC " + f[0], I, GC_TID, f[1]);
                    g.writeFieldName(S);
                    g.writeString("g");
                    g.writeObjectFieldStart("args");
                    g.writeNumberField("gcId", f[0]);
                    g.writeStringField("meaning", "a GC that can move objects paused the program here: a new fragment of the .mtlog starts");
                    g.writeEndObject();
                    g.writeEndObject();
                    events++;
                }
            }
            for (ThreadTrack t : tracks) {
                t.visitEarly(windowStart, this::event);
                early += t.earlyCount();
            }
            spool.replay(this::event);
            g.writeEndArray();
            g.writeStringField("displayTimeUnit", "ns");
            g.writeObjectFieldStart("otherData");
            g.writeStringField("producer", "MiniTrace (mt export --format chrome-trace)");
            g.writeStringField("recordingStart", Names.time(origin));
            g.writeStringField("timeOrigin", "ts 0 is the recording's start");
            g.writeStringField("window", Names.time(windowStart) + " .. " + Names.time(windowEnd));
            g.writeStringField("timeResolution", "tick: the agent stamps a record only when its 1 ms ticker has advanced (unless it ran"
                    + " with stamp=every), so records that share a stamp are laid out in sequence order over the tick:"
                    + " order and nesting are exact, durations below a tick are not measured");
            g.writeNumberField("maxEvents", cut.maxEvents);
            if (cut.time != Long.MAX_VALUE) {
                g.writeStringField("cut", "the --max-events cap was reached at " + seconds(cut.time - origin)
                        + " s: no slice begins after it (calls open then are shown whole); " + cutRecords()
                        + " records after it are not shown");
            }
            g.writeEndObject();
            g.writeEndObject();
            g.close();
            file.commit();
        }
        return new TimelineSummary(events, tracks.size(), gcs, cut.time == Long.MAX_VALUE ? -1 : cut.time - origin, cutRecords(), early);
    }

    private long cutRecords() {
        long n = 0;
        for (long d : cut.dropped) {
            n += d;
        }
        return n;
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.6f", nanos / 1e9);
    }

    /** The GC slices that overlap the window; returns how many. */
    private int gcs() throws IOException {
        int n = 0;
        for (Map.Entry<Long, MtlogInfo.GcInfo> e : info.gcs().entrySet()) {
            MtlogInfo.GcInfo gc = e.getValue();
            long start = gc.startNanos();
            long end = gc.durationNanos() < 0 ? start : start + gc.durationNanos();
            if (end < windowStart || start >= windowEnd) {
                continue;
            }
            start("GC " + gc.name(), gc.durationNanos() < 0 ? I : X, GC_TID, start);
            if (gc.durationNanos() >= 0) {
                g.writeFieldName(DUR);
                writeMicros(gc.durationNanos());
            } else {
                g.writeFieldName(S);
                g.writeString("t");
            }
            g.writeObjectFieldStart("args");
            g.writeNumberField("gcId", e.getKey());
            g.writeStringField("collector", gc.name());
            g.writeStringField("cause", gc.cause());
            if (gc.durationNanos() < 0) {
                g.writeStringField("duration", "unknown: the cycle was still running when the recording ended");
            }
            g.writeEndObject();
            g.writeEndObject();
            events++;
            n++;
        }
        return n;
    }

    private void metadata(long tid, String name, String arg, Object value) throws IOException {
        g.writeStartObject();
        g.writeFieldName(NAME);
        g.writeString(name);
        g.writeFieldName(PH);
        g.writeString(M);
        g.writeFieldName(PID_FIELD);
        g.writeNumber(PID);
        g.writeFieldName(TID);
        g.writeNumber(tid);
        g.writeObjectFieldStart("args");
        if (value instanceof Integer i) {
            g.writeNumberField(arg, i);
        } else {
            g.writeStringField(arg, value.toString());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void start(String name, SerializableString ph, long tid, long time) throws IOException {
        g.writeStartObject();
        g.writeFieldName(NAME);
        g.writeString(name);
        startRest(ph, tid, time);
    }

    private void start(SerializableString name, SerializableString ph, long tid, long time) throws IOException {
        g.writeStartObject();
        g.writeFieldName(NAME);
        g.writeString(name);
        startRest(ph, tid, time);
    }

    private void startRest(SerializableString ph, long tid, long time) throws IOException {
        g.writeFieldName(PH);
        g.writeString(ph);
        g.writeFieldName(TS);
        writeMicros(time - origin);
        g.writeFieldName(PID_FIELD);
        g.writeNumber(PID);
        g.writeFieldName(TID);
        g.writeNumber(tid);
    }

    /** One spooled event as JSON. */
    private void event(int kind, int endKind, long thread, long time, long value, int aux) throws IOException {
        switch (kind) {
            case ThreadTrack.BEGIN, ThreadTrack.END -> {
                start(methodName(value), kind == ThreadTrack.BEGIN ? B : E, thread, time);
                if (endKind != ThreadTrack.END_RETURN) {
                    g.writeFieldName(ARGS);
                    g.writeStartObject();
                    reason(kind == ThreadTrack.BEGIN, false, endKind);
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            case ThreadTrack.LOCK_BEGIN, ThreadTrack.LOCK_END -> {
                int c = classIndex.get(value >>> 32);
                if (c == LongIntMap.MISSING) {
                    start("lock " + names.className(value >>> 32), kind == ThreadTrack.LOCK_BEGIN ? B : E, thread, time);
                } else {
                    start(lockNames[c], kind == ThreadTrack.LOCK_BEGIN ? B : E, thread, time);
                }
                // The end repeats the begin's arguments: speedscope matches an end to its begin by name and arguments.
                g.writeFieldName(ARGS);
                g.writeStartObject();
                g.writeFieldName(MONITOR);
                objectName(c, value);
                g.writeFieldName(BCI);
                g.writeNumber(aux);
                if (endKind != ThreadTrack.END_RETURN) {
                    reason(kind == ThreadTrack.LOCK_BEGIN, true, endKind);
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            case ThreadTrack.ALLOC -> {
                int c = classIndex.get(value >>> 32);
                if (c == LongIntMap.MISSING) {
                    start("new " + names.className(value >>> 32), I, thread, time);
                } else {
                    start(allocNames[c], I, thread, time);
                }
                g.writeFieldName(S);
                g.writeString("t");
                g.writeFieldName(ARGS);
                g.writeStartObject();
                g.writeFieldName(CLASS);
                g.writeString(c == LongIntMap.MISSING ? names.className(value >>> 32) : classNames[c]);
                g.writeFieldName(BCI);
                g.writeNumber(aux);
                g.writeEndObject();
                g.writeEndObject();
            }
            default -> throw new IllegalStateException("unknown timeline event kind " + kind);
        }
        events++;
    }

    private void reason(boolean begin, boolean lock, int endKind) throws IOException {
        if (begin && endKind == ThreadTrack.BEGIN_AT_END) {
            g.writeStringField("begin", lock ? "no acquire record, released inside other slices: shown at its release"
                    : "no entry record, exited inside other slices: shown at its exit");
            return;
        }
        if (begin) {
            g.writeStringField("begin", lock ? "held before the records start: no acquire record (shown from the start)"
                    : "running before the records start: no entry record (shown from the start)");
            return;
        }
        switch (endKind) {
            case ThreadTrack.END_EXCEPTION -> g.writeStringField("exit", "exception");
            case ThreadTrack.END_RECORDING -> g.writeStringField("unfinished", lock ? "still held when the recording ended"
                    : "still running when the recording ended");
            case ThreadTrack.END_WINDOW -> g.writeStringField("unfinished", lock ? "still held at the end of the time window"
                    : "still running at the end of the time window");
            case ThreadTrack.END_NO_RECORD -> g.writeStringField("unfinished", lock
                    ? "no release record: ended where the enclosing frame ended" : "no exit record: ended where the enclosing frame ended");
            default -> {
            }
        }
    }

    private SerializableString methodName(long id) {
        int i = methodIndex.get(id);
        return i == LongIntMap.MISSING ? new SerializedString(names.method(id)) : methodNames[i];
    }

    /** {@code class@identityHash} without making a String. */
    private void objectName(int c, long objectId) throws IOException {
        String cls = c == LongIntMap.MISSING ? names.className(objectId >>> 32) : classNames[c];
        int n = Math.min(cls.length(), text.length - 9);
        cls.getChars(0, n, text, 0);
        text[n++] = '@';
        int hash = (int) objectId;
        int digits = Math.max(1, 8 - Integer.numberOfLeadingZeros(hash) / 4);
        for (int d = digits - 1; d >= 0; d--) {
            text[n++] = Character.forDigit((hash >>> (d * 4)) & 0xF, 16);
        }
        g.writeString(text, 0, n);
    }

    /** {@code nanos} as microseconds with three decimals, without making a String. */
    private void writeMicros(long nanos) throws IOException {
        char[] c = number;
        int p = c.length;
        boolean negative = nanos < 0;
        long v = Math.abs(nanos);
        long frac = v % 1000;
        long whole = v / 1000;
        for (int d = 0; d < 3; d++) {
            c[--p] = (char) ('0' + frac % 10);
            frac /= 10;
        }
        c[--p] = '.';
        do {
            c[--p] = (char) ('0' + whole % 10);
            whole /= 10;
        } while (whole > 0);
        if (negative) {
            c[--p] = '-';
        }
        g.writeNumber(c, p, c.length - p);
    }
}
