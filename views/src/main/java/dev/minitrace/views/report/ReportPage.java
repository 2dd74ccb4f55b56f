package dev.minitrace.views.report;

import dev.minitrace.views.AtomicOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes the report as one HTML file that opens offline: the page's template, its style and
 * script, d3 and d3-flame-graph (fetched pinned by the build, inlined here) and the aggregate as
 * JSON, all in the file.
 */
final class ReportPage {
    private static final String WEB = "web/";

    private ReportPage() {
    }

    /** Writes the page for {@code aggregator} (finished) to {@code out}; returns its size in bytes. */
    static long write(ReportAggregator aggregator, ReportContext context, Path out) throws IOException {
        return write(aggregator, context, out, null);
    }

    /**
     * Writes the page, with the differential section of {@code diff} (views diff/DiffJson; null:
     * none); returns its size in bytes.
     */
    static long write(ReportAggregator aggregator, ReportContext context, Path out, String diff) throws IOException {
        String data = new ReportJson(aggregator, context).write();
        String page = resource("report.html")
                .replace("{{TITLE}}", escape(context.input()))
                .replace("{{LIBRARY_VERSIONS}}", escape(resource(WEB + "versions.txt").trim().replace("\n", ", ")))
                .replace("{{LIBRARY_CSS}}", resource(WEB + "d3-flamegraph.css"))
                .replace("{{PAGE_CSS}}", resource("report.css"));
        // The large parts go in last, so no placeholder is searched for inside them.
        page = page.replace("{{D3}}", script(resource(WEB + "d3.min.js")))
                .replace("{{FLAMEGRAPH}}", script(resource(WEB + "d3-flamegraph.min.js")))
                .replace("{{PAGE_JS}}", script(resource("report.js")))
                .replace("{{DIFF_JS}}", script(resource("report-diff.js")))
                .replace("{{DIFF}}", diff == null ? "null" : script(diff));
        int at = page.indexOf("{{DATA}}");
        byte[] head = page.substring(0, at).getBytes(StandardCharsets.UTF_8);
        byte[] json = data.getBytes(StandardCharsets.UTF_8);
        byte[] tail = page.substring(at + "{{DATA}}".length()).getBytes(StandardCharsets.UTF_8);
        try (AtomicOutput file = new AtomicOutput(out)) {
            file.stream().write(head);
            file.stream().write(json);
            file.stream().write(tail);
            file.commit();
        }
        return head.length + (long) json.length + tail.length;
    }

    /** A script can hold anything but the text that would end its element. */
    private static String script(String js) {
        return js.replace("</script", "<\\/script");
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String resource(String name) {
        try (InputStream in = ReportPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the report's resource " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
