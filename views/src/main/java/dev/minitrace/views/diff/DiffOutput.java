package dev.minitrace.views.diff;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the rows of a {@link TraceDiff}: an aligned table for people, CSV (the header line first:
 * the key columns, then {@code METRIC_base,METRIC_new,METRIC_delta} per metric) or one JSON
 * document ({@code {"by": ..., "rows": [{column: value, ...}, ...]}}).
 */
public final class DiffOutput {
    /** The formats. */
    public enum Format {
        TABLE, CSV, JSON;

        /** The format named {@code text}. */
        public static Format parse(String text) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(text.trim())) {
                    return f;
                }
            }
            throw new IllegalArgumentException("unknown --format '" + text + "' (expected table, csv or json)");
        }
    }

    private DiffOutput() {
    }

    /** The header: the key columns, then base, new and delta of each metric. */
    public static List<String> header(DiffBy by) {
        List<String> h = new ArrayList<>(by.keys());
        for (String m : by.metrics()) {
            h.add(m + "_base");
            h.add(m + "_new");
            h.add(m + "_delta");
        }
        return h;
    }

    /** Writes {@code rows} of {@code diff} to {@code out} in {@code format}. */
    public static void write(TraceDiff diff, int[] rows, Format format, PrintWriter out) throws IOException {
        switch (format) {
            case CSV -> csv(diff, rows, out);
            case JSON -> json(diff, rows, out);
            default -> table(diff, rows, out);
        }
        out.flush();
    }

    private static List<String> cells(TraceDiff diff, int r) {
        List<String> c = new ArrayList<>(diff.key(r));
        for (int k = 0; k < diff.by().metrics().size(); k++) {
            long b = diff.base(r, k);
            long n = diff.next(r, k);
            c.add(Long.toString(b));
            c.add(Long.toString(n));
            c.add(signed(n - b));
        }
        return c;
    }

    /** {@code +3}, {@code -2}, {@code 0}. */
    static String signed(long d) {
        return d > 0 ? "+" + d : Long.toString(d);
    }

    private static void csv(TraceDiff diff, int[] rows, PrintWriter out) {
        out.println(String.join(",", header(diff.by())));
        for (int r : rows) {
            List<String> c = cells(diff, r);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < c.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(csvField(c.get(i)));
            }
            out.println(b);
        }
    }

    private static String csvField(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static void json(TraceDiff diff, int[] rows, PrintWriter out) throws IOException {
        List<String> header = header(diff.by());
        int keys = diff.by().keys().size();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeStringField("by", diff.by().label());
            g.writeArrayFieldStart("rows");
            for (int r : rows) {
                g.writeStartObject();
                List<String> key = diff.key(r);
                for (int i = 0; i < keys; i++) {
                    g.writeStringField(header.get(i), key.get(i));
                }
                for (int k = 0; k < diff.by().metrics().size(); k++) {
                    long b = diff.base(r, k);
                    long n = diff.next(r, k);
                    g.writeNumberField(header.get(keys + 3 * k), b);
                    g.writeNumberField(header.get(keys + 3 * k + 1), n);
                    g.writeNumberField(header.get(keys + 3 * k + 2), n - b);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.println();
    }

    private static void table(TraceDiff diff, int[] rows, PrintWriter out) {
        List<String> header = new ArrayList<>();
        for (String k : diff.by().keys()) {
            header.add(k);
        }
        for (String m : diff.by().metrics()) {
            header.add(m + " base");
            header.add("new");
            header.add("delta");
        }
        List<List<String>> lines = new ArrayList<>();
        lines.add(header);
        for (int r : rows) {
            lines.add(cells(diff, r));
        }
        int keys = diff.by().keys().size();
        int[] width = new int[header.size()];
        for (List<String> l : lines) {
            for (int i = 0; i < l.size(); i++) {
                width[i] = Math.max(width[i], l.get(i).length());
            }
        }
        for (List<String> l : lines) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append("  ");
                }
                String cell = l.get(i);
                String pad = " ".repeat(width[i] - cell.length());
                // keys to the left, numbers to the right; the last column is not padded
                if (i < keys) {
                    b.append(cell);
                    if (i < l.size() - 1) {
                        b.append(pad);
                    }
                } else {
                    b.append(pad).append(cell);
                }
            }
            out.println(b);
        }
        if (rows.length == 0) {
            out.println("(no " + diff.by().label() + " differs)");
        }
    }

    /** One line for a row that crossed {@code bound}: its key and the metric's base, new and change. */
    public static String offence(TraceDiff diff, int r, FailBound bound) {
        int k = diff.by().metrics().indexOf(bound.metric());
        long b = diff.base(r, k);
        long n = diff.next(r, k);
        String rel = b == 0 ? "" : String.format(Locale.ROOT, ", %+.1f%%", 100.0 * (n - b) / b);
        return diff.label(r) + ": " + bound.metric() + " " + b + " -> " + n + " (" + signed(n - b) + rel
                + "), crosses " + bound.text();
    }
}
