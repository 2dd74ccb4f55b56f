package dev.minitrace.views.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The facts of a recording that the converter does not read: the JVM ({@code jdk.JVMInformation})
 * and its collectors ({@code jdk.GCConfiguration}), from JFR's own reader, which skips every other
 * event by its size, and stops as soon as both are found. A recording without them, or one the
 * reader cannot take, gives empty facts and says why.
 *
 * @param jvm        the JVM and its version, or null
 * @param jvmArgs    the JVM's arguments, or null
 * @param javaArgs   the program's main class and arguments, or null
 * @param collectors young and old collector, or null
 * @param problem    why something is missing, or null
 */
public record RecordingFacts(String jvm, String jvmArgs, String javaArgs, String collectors, String problem) {
    /** No facts, for {@code reason}. */
    public static RecordingFacts none(String reason) {
        return new RecordingFacts(null, null, null, null, reason);
    }

    /** Reads the facts of {@code recording}. */
    public static RecordingFacts read(Path recording) {
        String[] f = new String[4];
        try (EventStream s = EventStream.openFile(recording)) {
            // Newer JDKs leave out events stamped before the stream's start unless told otherwise;
            // jdk.JVMInformation is stamped at the JVM's start, before the recording's.
            s.setStartTime(Instant.EPOCH);
            s.setOrdered(false);
            s.onEvent("jdk.JVMInformation", e -> {
                if (f[0] == null) {
                    f[0] = e.getString("jvmVersion");
                    f[1] = e.getString("jvmArguments");
                    f[2] = e.getString("javaArguments");
                }
                stopWhenDone(s, f);
            });
            s.onEvent("jdk.GCConfiguration", e -> {
                if (f[3] == null) {
                    f[3] = collector(e, "youngCollector") + " / " + collector(e, "oldCollector");
                }
                stopWhenDone(s, f);
            });
            s.start();
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            return new RecordingFacts(f[0], f[1], f[2], f[3], "JFR's reader could not read the recording's JVM information: " + e);
        }
        String problem = f[0] == null && f[3] == null ? "the recording has no jdk.JVMInformation or jdk.GCConfiguration events"
                : f[0] == null ? "the recording has no jdk.JVMInformation event"
                : f[3] == null ? "the recording has no jdk.GCConfiguration event" : null;
        return new RecordingFacts(f[0], f[1], f[2], f[3], problem);
    }

    private static String collector(RecordedEvent e, String field) {
        Object v = e.hasField(field) ? e.getValue(field) : null;
        return v == null ? "?" : v.toString();
    }

    private static void stopWhenDone(EventStream s, String[] f) {
        if (f[0] != null && f[3] != null) {
            s.close();
        }
    }
}
