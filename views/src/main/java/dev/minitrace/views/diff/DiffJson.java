package dev.minitrace.views.diff;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * What the report's differential section shows, as JSON: the merged call path tree of both traces
 * (flat columns, a parent before its children: each path's method and its calls in the base and in
 * the new trace, so paths only in the base, removed, are in it too) and the rows that differ by
 * method, allocation site, monitor class and thrown exception.
 */
public final class DiffJson {
    /** Frames kept in the page: beyond, the paths with the fewest calls are left out (their ancestors stay). */
    static final int MAX_FRAMES = 20_000;

    private DiffJson() {
    }

    /** The JSON of {@code paths} (by path) and {@code tables} (one per other row kind), named {@code base} and {@code next}. */
    public static String write(String base, String next, TraceDiff paths, TraceDiff... tables) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("base", base);
            g.writeStringField("next", next);
            tree(g, paths);
            for (TraceDiff t : tables) {
                g.writeArrayFieldStart(t.by().label());
                for (int r : t.rows(false)) {
                    g.writeStartObject();
                    g.writeStringField("row", t.label(r));
                    for (int k = 0; k < t.by().metrics().size(); k++) {
                        g.writeArrayFieldStart(t.by().metrics().get(k));
                        g.writeNumber(t.base(r, k));
                        g.writeNumber(t.next(r, k));
                        g.writeEndArray();
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void tree(JsonGenerator g, TraceDiff d) throws IOException {
        int n = d.size();
        boolean[] keep = kept(d);
        int[] index = new int[n];
        Arrays.fill(index, -1);
        int kept = 0;
        for (int r = 0; r < n; r++) {
            if (keep[r]) {
                index[r] = kept++;
            }
        }
        g.writeObjectFieldStart("tree");
        g.writeArrayFieldStart("name");
        for (int r = 0; r < n; r++) {
            if (keep[r]) {
                g.writeString(r == 0 ? "(all)" : d.pathMethod(r));
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("parent");
        for (int r = 0; r < n; r++) {
            if (keep[r]) {
                g.writeNumber(r == 0 ? -1 : index[d.parent(r)]);
            }
        }
        g.writeEndArray();
        for (int side = 0; side < 2; side++) {
            g.writeArrayFieldStart(side == 0 ? "base" : "next");
            for (int r = 0; r < n; r++) {
                if (keep[r]) {
                    g.writeNumber(side == 0 ? d.base(r, 0) : d.next(r, 0));
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** The frames to keep: all when few, else those with the most calls and every ancestor of one. */
    private static boolean[] kept(TraceDiff d) {
        int n = d.size();
        boolean[] keep = new boolean[n];
        keep[0] = true;
        long threshold = 1;
        if (n > MAX_FRAMES) {
            long[] v = new long[n - 1];
            for (int r = 1; r < n; r++) {
                v[r - 1] = Math.max(d.base(r, 0), d.next(r, 0));
            }
            Arrays.sort(v);
            threshold = Math.max(1, v[v.length - MAX_FRAMES]);
        }
        for (int r = n - 1; r > 0; r--) {
            if (keep[r] || Math.max(d.base(r, 0), d.next(r, 0)) >= threshold) {
                keep[r] = true;
                keep[d.parent(r)] = true;
            }
        }
        return keep;
    }
}
