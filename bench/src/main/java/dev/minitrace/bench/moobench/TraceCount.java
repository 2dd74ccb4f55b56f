package dev.minitrace.bench.moobench;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The exactness check of {@code bench/run moobench}: a MiniTrace recording converted as users
 * convert it ({@code bin/mt convert}), then the entries and exits of one method counted with the
 * converter's {@link MtlogReader}.
 */
final class TraceCount {
    private TraceCount() {
    }

    /**
     * Converts {@code recording} into {@code work} and returns how many METHOD_ENTRY and
     * METHOD_EXIT records of {@code method} ({@code class.name}) the log holds.
     */
    static long monitoredRecords(Path root, Path javaHome, Path recording, Path work, String method) throws IOException, InterruptedException {
        Path mtlog = work.resolve("trace.mtlog");
        Path log = work.resolve("convert.log");
        ProcessBuilder pb = new ProcessBuilder(List.of(root.resolve("bin/mt").toString(), "convert", recording.toString(), mtlog.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", javaHome.toString());
        int rc = pb.start().waitFor();
        if (rc != 0) {
            throw new IOException("bin/mt convert " + recording + " failed (exit " + rc + "): " + Files.readString(log).strip());
        }
        try {
            return count(mtlog, method);
        } finally {
            Files.deleteIfExists(mtlog);
        }
    }

    /** Entries and exits of {@code method} ({@code class.name}, any descriptor) in an {@code .mtlog}. */
    static long count(Path mtlog, String method) throws IOException {
        try (MtlogReader reader = MtlogReader.open(mtlog)) {
            if (reader.truncated()) {
                throw new IOException(mtlog + " is truncated: " + reader.truncation());
            }
            long[] ids = reader.info().methods().entrySet().stream()
                    .filter(e -> (e.getValue().className().replace('/', '.') + "." + e.getValue().methodName()).equals(method))
                    .mapToLong(Map.Entry::getKey).toArray();
            long[] n = {0};
            reader.forEachRecord((stream, type, value, aux) -> {
                if (type == MtlogFormat.METHOD_ENTRY || type == MtlogFormat.METHOD_EXIT) {
                    for (long id : ids) {
                        if (id == value) {
                            n[0]++;
                        }
                    }
                }
            });
            return n[0];
        }
    }
}
