package dev.minitrace.views.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.views.BrowserTests;
import dev.minitrace.views.Chromium;
import dev.minitrace.views.DemoRecording;
import dev.minitrace.views.report.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report with a differential section ({@code mt report --baseline}) opened from disk in headless
 * Chromium: the demo's recording counted as two traces that differ in a known way (the baseline
 * with the main thread and one worker, the new one with two workers: every worker's path is called
 * twice as often, the main thread's paths are gone), its changed and removed frames drawn and
 * coloured, its tables filled; screenshots go to {@code target/screenshots/report-diff.png} and
 * {@code report-diff-removed.png} (zoomed into a removed path).
 */
class DiffReportBrowserIT {
    private static final String DEMO = "dev.minitrace.demo.";

    @TempDir
    Path dir;

    @Test
    void theDifferentialFlameGraphShowsChangedAndRemovedFrames() throws Exception {
        Path exe = BrowserTests.chromium();
        Path demo = DemoRecording.get();
        TraceCounts base = count(demo, Set.of("main", "demo-worker-0"));
        TraceCounts next = count(demo, Set.of("demo-worker-0", "demo-worker-1"));
        BiPredicate<String, String> all = (c, m) -> true;
        String diff = DiffJson.write("base.jfr", "demo.jfr", TraceDiff.of(DiffBy.PATH, base, next, all),
                TraceDiff.of(DiffBy.METHOD, base, next, all), TraceDiff.of(DiffBy.ALLOC, base, next, all),
                TraceDiff.of(DiffBy.LOCK, base, next, all), TraceDiff.of(DiffBy.EXCEPTION, base, next, all));
        Path page = dir.resolve("diff.html");
        Report.ofRecording(demo, page, ConvertOptions.defaults(), Engines.byName(Engines.DEFAULT), null, null, diff);
        try (Chromium browser = Chromium.start(exe, Files.createDirectory(dir.resolve("profile")))) {
            browser.open(page.toUri().toString());
            browser.waitFor("document.body.getAttribute('data-minitrace-diff-ready') === 'true'", Duration.ofSeconds(30));
            assertEquals(List.of(), browser.errors(), "console errors");
            assertTrue(browser.eval("!document.getElementById('diff').hidden").asBoolean());

            // every drawn frame is bound to a merged path: those called more are red
            browser.waitFor("document.querySelectorAll('#diff-chart svg g').length > 10", Duration.ofSeconds(10));
            String run = browser.eval(frame(DEMO + "OrderWorker::run()V")).asText();
            assertTrue(run.startsWith("1>2 rgb(255,"), "run: called once by each of one worker, now of two, red: " + run);
            String take = browser.eval(frame(DEMO + "Warehouse::take(Ldev/minitrace/demo/Order;)J")).asText();
            assertTrue(take.startsWith("2000>4000 rgb(255,"), take);
            browser.eval("document.getElementById('diff').scrollIntoView()");
            Thread.sleep(700); // the library animates the first drawing
            Path shot = browser.screenshot(BrowserTests.screenshot("report-diff.png"));
            assertTrue(Files.size(shot) > 10_000, "a screenshot of the section: " + shot);
            System.err.println("views: screenshot of the differential report: " + shot);

            // the main thread's paths are gone: too small to draw beside the workers' until zoomed into
            browser.eval("const root = d3.select('#diff-chart svg g').datum();"
                    + " minitraceDiff.chart.zoomTo(root.descendants().find(d => d.data.name === '" + DEMO + "DemoMain::main([Ljava/lang/String;)V'))");
            browser.waitFor(frame(DEMO + "DemoMain::main([Ljava/lang/String;)V") + " !== ''", Duration.ofSeconds(10));
            Thread.sleep(700); // the library animates the zoom
            String main = browser.eval(frame(DEMO + "DemoMain::main([Ljava/lang/String;)V")).asText();
            assertEquals("1>0 rgb(40, 60, 160)", main, "a removed path is drawn, as wide as in the baseline, dark blue");
            String methods = browser.eval("document.getElementById('diff-methods').textContent").asText();
            assertTrue(methods.contains(DEMO + "Warehouse::take"), methods);
            assertTrue(methods.contains(DEMO + "DemoMain::main"), methods);
            assertTrue(browser.eval("document.getElementById('diff-locks').textContent").asText().contains(DEMO + "Warehouse"));
            assertTrue(browser.eval("document.getElementById('flame-chart').querySelectorAll('svg g').length > 10").asBoolean(),
                    "the report of the new trace is still there");

            browser.eval("document.getElementById('diff').scrollIntoView()");
            assertEquals(List.of(), browser.errors(), "console errors");
            Path zoomed = browser.screenshot(BrowserTests.screenshot("report-diff-removed.png"));
            System.err.println("views: screenshot of a removed path in the differential report: " + zoomed);
        }
    }

    /** The script that gives the drawn frame named {@code name}: its base and new calls and its colour ('' when not drawn). */
    private static String frame(String name) {
        return "(() => { const g = [...document.querySelectorAll('#diff-chart svg g')].find(g => d3.select(g).datum().data.name === '" + name
                + "'); if (!g) return ''; const d = d3.select(g).datum().data;"
                + " return d.base + '>' + d.next + ' ' + getComputedStyle(g.querySelector('rect')).fill; })()";
    }

    private static TraceCounts count(Path recording, Set<String> threads) throws Exception {
        return CountedTrace.ofRecording(recording, threads, 64, Engines.byName(Engines.DEFAULT), null, null).counts();
    }
}
