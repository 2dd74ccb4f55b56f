package dev.minitrace.converter.jfr;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The facts of the recorded JVM that the converter does not read: the JVM
 * ({@code jdk.JVMInformation}) and its collectors ({@code jdk.GCConfiguration}). Read with JFR's own
 * reader, which skips every other event by its size, from the first chunk only: the JVM writes both
 * at the start of every chunk. The one reader of these facts for every view (the report's facts, the
 * Parquet {@code recording} table). A recording without them, or one the reader cannot take, gives
 * empty facts and says why.
 *
 * @param pid            the JVM's process id, or -1
 * @param jvmName        the JVM's name, or null
 * @param jvmVersion     the JVM and its version, or null
 * @param jvmArguments   the JVM's arguments and its flags (from a flags file), or null
 * @param javaArguments  the program's main class and arguments, or null
 * @param jvmStartNanos  the JVM's start, ns since the epoch, or -1
 * @param youngCollector the young generation's collector, or null
 * @param oldCollector   the old generation's collector, or null
 * @param problem        why something is missing, or null
 */
public record JvmFacts(long pid, String jvmName, String jvmVersion, String jvmArguments, String javaArguments,
        long jvmStartNanos, String youngCollector, String oldCollector, String problem) {

    /** No facts, for {@code reason}. */
    public static JvmFacts none(String reason) {
        return new JvmFacts(-1, null, null, null, null, -1, null, null, reason);
    }

    /** Reads the facts of JFR recording {@code recording}; never throws. */
    public static JvmFacts read(Path recording) {
        Object[] f = {-1L, null, null, null, null, -1L, null, null};
        boolean[] gc = {false};
        String failure = null;
        try (EventStream s = EventStream.openFile(recording)) {
            // Newer JDKs leave out events stamped before the stream's start unless told otherwise;
            // jdk.JVMInformation is stamped at the JVM's start, before the recording's.
            s.setStartTime(Instant.EPOCH);
            s.setOrdered(false);
            s.onEvent("jdk.JVMInformation", e -> {
                if (f[2] == null) {
                    f[0] = e.getLong("pid");
                    f[1] = e.getString("jvmName");
                    f[2] = e.getString("jvmVersion");
                    f[3] = join(e, "jvmArguments", "jvmFlags");
                    f[4] = e.getString("javaArguments");
                    Instant started = e.getInstant("jvmStartTime");
                    f[5] = started.getEpochSecond() * 1_000_000_000L + started.getNano();
                }
                stopWhenDone(s, f, gc);
            });
            s.onEvent("jdk.GCConfiguration", e -> {
                if (!gc[0]) {
                    gc[0] = true;
                    f[6] = string(e, "youngCollector");
                    f[7] = string(e, "oldCollector");
                }
                stopWhenDone(s, f, gc);
            });
            s.onFlush(s::close);
            s.start();
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            failure = "JFR's reader could not read the recording's JVM information: " + e;
        }
        String problem = failure != null ? failure
                : f[2] == null && !gc[0] ? "the recording has no jdk.JVMInformation or jdk.GCConfiguration events"
                : f[2] == null ? "the recording has no jdk.JVMInformation event"
                : !gc[0] ? "the recording has no jdk.GCConfiguration event" : null;
        return new JvmFacts((Long) f[0], (String) f[1], (String) f[2], (String) f[3], (String) f[4], (Long) f[5],
                (String) f[6], (String) f[7], problem);
    }

    /** "young / old", a collector the recording does not name as "?"; null when the recording names neither. */
    public String collectors() {
        if (youngCollector == null && oldCollector == null) {
            return null;
        }
        return (youngCollector == null ? "?" : youngCollector) + " / " + (oldCollector == null ? "?" : oldCollector);
    }

    private static String string(RecordedEvent e, String field) {
        Object v = e.hasField(field) ? e.getValue(field) : null;
        return v == null ? null : v.toString();
    }

    private static String join(RecordedEvent e, String a, String b) {
        String x = string(e, a);
        String y = string(e, b);
        if (y == null || y.isEmpty()) {
            return x;
        }
        return x == null || x.isEmpty() ? y : x + " " + y;
    }

    private static void stopWhenDone(EventStream s, Object[] f, boolean[] gc) {
        if (f[2] != null && gc[0]) {
            s.close();
        }
    }
}
