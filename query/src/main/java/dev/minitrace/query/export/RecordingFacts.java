package dev.minitrace.query.export;

import dev.minitrace.converter.jfr.JvmFacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * What the {@code recording} table says about a trace's origin: the source file, the JVM that
 * recorded it and where. The JVM and its collectors are the converter's {@link JvmFacts} (MiniTrace's
 * profiles enable the events they come from); a recording without them, or an {@code .mtlog}, leaves
 * them null. JFR records no host name: {@code host} is the one the user gives, else the machine
 * that exports.
 *
 * @param pid           the recorded JVM's process id, or -1
 * @param jvmStartNanos the recorded JVM's start, ns since the epoch, or -1
 */
public record RecordingFacts(String source, String format, long startNanos, String host, long pid, String jvmName,
        String jvmVersion, String jvmArguments, String javaArguments, long jvmStartNanos, String youngCollector,
        String oldCollector) {

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /**
     * The facts of JFR recording {@code file} that started at {@code startNanos}: its JVM's from
     * {@link JvmFacts}. A file that JFR's reader rejects gives no JVM facts (the conversion reports the problem).
     */
    public static RecordingFacts ofJfr(Path file, long startNanos, String host) {
        JvmFacts j = JvmFacts.read(file);
        return new RecordingFacts(file.getFileName().toString(), "jfr", startNanos, host, j.pid(), j.jvmName(),
                j.jvmVersion(), j.jvmArguments(), j.javaArguments(), j.jvmStartNanos(), j.youngCollector(), j.oldCollector());
    }

    /** The facts of {@code .mtlog} file {@code file}: its start and name; the JVM is unknown. */
    public static RecordingFacts ofMtlog(Path file, long startNanos, String host) {
        return new RecordingFacts(file.getFileName().toString(), "mtlog", startNanos, host, -1, null, null, null, null, -1,
                null, null);
    }

    /**
     * The recording's id, the value of the {@code recording} partition column: its start (UTC),
     * host and process id (or source file name), e.g. {@code 20261123-172652-build7-41233}, so that
     * the traces of many JVMs can share a folder and exporting one trace again replaces it.
     */
    public String id() {
        String who = pid >= 0 ? Long.toString(pid) : source;
        String raw = ID_TIME.format(Instant.ofEpochSecond(0, startNanos)) + "-" + (host == null ? "unknown" : host) + "-" + who;
        StringBuilder b = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '_') ? c : '_');
        }
        return b.toString();
    }

    /** This machine's name: Linux's kernel host name, else the environment's, else "unknown". */
    public static String localHost() {
        try {
            Path p = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(p)) {
                String h = new String(Files.readAllBytes(p), StandardCharsets.UTF_8).trim();
                if (!h.isEmpty()) {
                    return h;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the environment
        }
        for (String v : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String h = System.getenv(v);
            if (h != null && !h.isBlank()) {
                return h.trim();
            }
        }
        return "unknown";
    }
}
