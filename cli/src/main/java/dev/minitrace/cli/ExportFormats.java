package dev.minitrace.cli;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** The formats of {@code mt export}, by the name {@code --format} takes. Adding a format is one line here. */
final class ExportFormats implements Iterable<String> {
    private static final Map<String, ExportFormat> FORMATS = new LinkedHashMap<>();

    static {
        FORMATS.put("chrome-trace", new ChromeTraceExport());
        FORMATS.put("parquet", new ParquetFormat());
    }

    /** The format called {@code name}, or null. */
    static ExportFormat byName(String name) {
        return FORMATS.get(name);
    }

    /** Every format by name, in the order they are listed. */
    static Map<String, ExportFormat> all() {
        return Collections.unmodifiableMap(FORMATS);
    }

    /** The names, for picocli's {@code ${COMPLETION-CANDIDATES}}. */
    @Override
    public Iterator<String> iterator() {
        return FORMATS.keySet().iterator();
    }
}
