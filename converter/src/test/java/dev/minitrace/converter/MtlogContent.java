package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.mtlog.Names;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An {@code .mtlog} file read back for assertions: each thread's records as text lines, counts like {@link Oracles}. */
public final class MtlogContent {
    /** Records per thread name, in stream order, as {@code TYPE subject bci} (GC_TIMESTAMP as {@code GC <gcId>}). */
    public final Map<String, List<String>> byThread = new TreeMap<>();
    /** Counts keyed as in {@link Oracles} (GC_TIMESTAMP only by type). */
    public final Map<String, Long> counts = new TreeMap<>();
    /** The global stream in order, as {@code thread: line} (global layout only). */
    public final List<String> global = new ArrayList<>();
    /** Records as the reader counted them. */
    public long records;
    /** recordCount from the header. */
    public long headerCount;
    /** The INFO tables. */
    public dev.minitrace.converter.mtlog.MtlogInfo info;

    /** Reads {@code file}. */
    public static MtlogContent read(Path file) throws Exception {
        MtlogContent c = new MtlogContent();
        try (MtlogReader r = MtlogReader.open(file)) {
            Names names = new Names(r.info());
            c.info = r.info();
            c.headerCount = r.headerRecordCount();
            boolean global = r.globalLayout();
            r.forEachRecord((stream, type, value, aux) -> {
                c.records++;
                String line = switch (type) {
                    case MtlogFormat.METHOD_ENTRY -> "METHOD_ENTRY " + value + " " + (global ? 0 : aux);
                    case MtlogFormat.METHOD_EXIT -> "METHOD_EXIT " + value + " " + (global ? "?" : aux);
                    case MtlogFormat.GC_TIMESTAMP -> "GC " + aux;
                    case MtlogFormat.ARRAY_LENGTH -> "ARRAY_LENGTH " + value + " " + (global ? "?" : aux);
                    default -> MtlogFormat.typeName(type) + " " + names.object(value) + " " + (global ? "?" : aux);
                };
                c.counts.merge(MtlogFormat.typeName(type), 1L, Long::sum);
                if (global) {
                    if (type == MtlogFormat.GC_TIMESTAMP) {
                        c.global.add(line);
                        return;
                    }
                    String t = names.thread(aux & 0xFFFFFFFFL);
                    c.global.add(t + ": " + line);
                    c.byThread.computeIfAbsent(t, k -> new ArrayList<>()).add(line);
                    c.counts.merge(MtlogFormat.typeName(type) + "@" + t, 1L, Long::sum);
                } else {
                    String t = names.thread(stream & 0xFFFFFFFFL);
                    c.byThread.computeIfAbsent(t, k -> new ArrayList<>()).add(line);
                    if (type != MtlogFormat.GC_TIMESTAMP) {
                        c.counts.merge(MtlogFormat.typeName(type) + "@" + t, 1L, Long::sum);
                    }
                }
            });
        }
        return c;
    }

    /** The records of {@code thread} without GC_TIMESTAMP. */
    public List<String> withoutGc(String thread) {
        List<String> r = new ArrayList<>();
        for (String s : byThread.getOrDefault(thread, List.of())) {
            if (!s.startsWith("GC ")) {
                r.add(s);
            }
        }
        return r;
    }

    /** Counts without GC_TIMESTAMP. */
    public Map<String, Long> traceCounts() {
        Map<String, Long> m = new TreeMap<>(counts);
        m.remove("GC_TIMESTAMP");
        return m;
    }
}
