package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.jfr.FastRecordingSource;
import dev.minitrace.converter.jfr.RecordingFileSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Converts a recording with the default engine (MiniTrace's own JFR parser) and with the
 * reference engine ({@code RecordingFile}), and asserts that both write byte-identical
 * {@code .mtlog} files and the same report: every test that converts through here checks the
 * engine switch too.
 */
public final class BothEngines {
    /** The reason a chunk could not be read is the engine's own message; everything else must match. */
    private static final Pattern FAILURE_REASON = Pattern.compile("(could not be read and was skipped): .*");

    private BothEngines() {
    }

    /** Converts {@code in} to {@code out} with the fast engine, after checking it against RecordingFile. */
    public static ConversionReport convert(ConvertOptions options, Path in, Path out) throws IOException {
        Path reference = out.resolveSibling(out.getFileName() + ".recordingfile");
        Files.deleteIfExists(reference);
        ConversionReport expected = new Converter(options, new RecordingFileSource()).convert(in, reference, null);
        ConversionReport actual = new Converter(options, new FastRecordingSource()).convert(in, out, null);
        try {
            assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(out),
                    "the fast engine's .mtlog differs from RecordingFile's for " + in);
            assertEquals(describe(expected), describe(actual), "reports of both engines for " + in);
        } finally {
            Files.deleteIfExists(reference);
        }
        return actual;
    }

    private static List<Object> describe(ConversionReport r) {
        List<String> warnings = r.warnings().stream().map(w -> FAILURE_REASON.matcher(w).replaceAll("$1")).toList();
        return List.of(java.util.Arrays.toString(r.countByType()), r.records(), r.chunks(), r.threads(),
                r.minitraceEvents(), r.methodTraceEvents(), r.gcs(), r.lostData(), warnings);
    }
}
