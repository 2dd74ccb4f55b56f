package dev.minitrace.views.diff;

import dev.minitrace.converter.ConversionReport;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.Converter;
import dev.minitrace.converter.jfr.RecordingSource;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.views.report.MtlogReplay;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * One side of {@code mt diff}: a trace's {@link TraceCounts}, with the warnings of its reading and
 * whether it lost data.
 */
public record CountedTrace(TraceCounts counts, List<String> warnings, boolean lostData) {
    /**
     * Counts a JFR recording, converted on the fly; {@code threads} (names or ids, null for all) as
     * {@code mt convert --threads}.
     */
    public static CountedTrace ofRecording(Path in, Set<String> threads, int pathDepth, RecordingSource source, Path tempDir,
            LongConsumer progress) throws IOException {
        ConvertOptions d = ConvertOptions.defaults();
        ConvertOptions options = new ConvertOptions(d.globalLayout(), d.fragments(), null, null, threads, d.typeMask());
        TraceCounts counts = new TraceCounts(pathDepth);
        // the writer writes no file: waiting records go to tempDir, or beside the input
        Path besides = (tempDir != null ? tempDir : in.toAbsolutePath().getParent()).resolve(".minitrace-diff");
        ConversionReport report = new Converter(options, source, tempDir).convert(in, besides, (start, end) -> counts, progress);
        if (counts.info() == null) {
            throw new IOException(in + ": the conversion ended before the trace was complete");
        }
        return of(counts, report.warnings(), report.lostData());
    }

    /** A counted trace; a path tree that reached its bound adds a warning. */
    public static CountedTrace of(TraceCounts counts, List<String> warnings, boolean lostData) {
        if (counts.pathsDropped == 0) {
            return new CountedTrace(counts, warnings, lostData);
        }
        List<String> w = new ArrayList<>(warnings);
        w.add(String.format(java.util.Locale.ROOT, "more than %,d call paths: %,d calls on further paths are not counted by path"
                + " (a smaller --depth keeps them)", TraceCounts.MAX_PATHS - 1, counts.pathsDropped));
        return new CountedTrace(counts, w, lostData);
    }

    /** Counts an {@code .mtlog}; {@code threads} (names or ids, null for all) as for a recording. */
    public static CountedTrace ofLog(Path in, Set<String> threads, int pathDepth) throws IOException {
        try (MtlogReader reader = MtlogReader.open(in)) {
            TraceCounts counts = new TraceCounts(pathDepth);
            List<String> warnings = new ArrayList<>();
            if (reader.globalLayout()) {
                counts.exitKindsUnknown();
                warnings.add("the .mtlog is in the global layout, whose exits carry no bytecode index: exits by exception are not counted");
            }
            if (reader.truncated()) {
                warnings.add("the .mtlog is truncated (" + reader.truncation() + "): the complete blocks before the cut are counted");
            }
            MtlogInfo info = reader.info();
            MtlogReplay.replay(reader, counts, key -> selected(threads, key, info), MtlogFormat.MAX_TYPE);
            return of(counts, warnings, reader.truncated());
        }
    }

    /** Whether {@code --threads} (null: every thread) names thread {@code key} by its id, Java thread id or name. */
    public static boolean selected(Set<String> threads, long key, MtlogInfo info) {
        if (threads == null || threads.contains(Long.toString(key))) {
            return true;
        }
        MtlogInfo.ThreadInfo t = info.threads().get(key);
        return t != null && (threads.contains(t.name()) || threads.contains(Long.toString(t.javaThreadId())));
    }
}
