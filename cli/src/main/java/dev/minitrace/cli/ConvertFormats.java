package dev.minitrace.cli;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.write.ElephantTracksWriter;
import dev.minitrace.converter.write.MtlogGlobalLayout;
import dev.minitrace.converter.write.MtlogThreadLayout;
import dev.minitrace.converter.write.TraceWriterFactory;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** The formats of {@code mt convert}, by the name {@code --format} takes. Adding a format is one line here. */
final class ConvertFormats implements Iterable<String> {
    /** How a format opens its writer for OUT; {@code folder}: OUT is a folder (created when missing). */
    record Format(boolean folder, java.util.function.BiFunction<Path, ConvertOptions, TraceWriterFactory> writers) {
    }

    private static final Map<String, Format> FORMATS = new LinkedHashMap<>();

    static {
        FORMATS.put("mtlog", new Format(false, (out, o) -> (start, end) -> o.globalLayout() ? new MtlogGlobalLayout(out, start)
                : new MtlogThreadLayout(out, start)));
        FORMATS.put("et", new Format(true, (out, o) -> (start, end) -> new ElephantTracksWriter(out)));
    }

    /** The format called {@code name}, or null. */
    static Format byName(String name) {
        return FORMATS.get(name);
    }

    /** Every format by name. */
    static Map<String, Format> all() {
        return Collections.unmodifiableMap(FORMATS);
    }

    @Override
    public Iterator<String> iterator() {
        return FORMATS.keySet().iterator();
    }
}
