package dev.minitrace.views.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.views.BrowserTests;
import dev.minitrace.views.Chromium;
import dev.minitrace.views.DemoRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's report opened from disk in headless Chromium, with no network: it loads without a
 * console error, shows the threads and the frames, searches and switches flame graphs, and a
 * screenshot is written to {@code target/screenshots/report.png}.
 */
class ReportPageBrowserIT {
    private static final String DEMO = "dev.minitrace.demo.";

    @TempDir
    Path dir;

    @Test
    void theReportOpensOfflineWithItsThreadsAndFrames() throws Exception {
        Path exe = BrowserTests.chromium();
        Path page = dir.resolve("demo.html");
        Report.ofRecording(DemoRecording.get(), page, ConvertOptions.defaults(), Engines.byName(Engines.DEFAULT), null, null);
        try (Chromium browser = Chromium.start(exe, Files.createDirectory(dir.resolve("profile")))) {
            browser.open(page.toUri().toString());
            browser.waitFor("document.body.getAttribute('data-minitrace-ready') === 'true'", Duration.ofSeconds(30));
            assertEquals(List.of(), browser.errors(), "console errors");

            String threads = browser.eval("[...document.querySelectorAll('#flame-thread option')].map(o => o.textContent).join('|')").asText();
            for (int w = 0; w < DemoRecording.WORKERS; w++) {
                assertTrue(threads.contains("demo-worker-" + w + " ("), threads);
            }
            // frames are drawn: each is an SVG group bound to its tree node
            browser.waitFor("document.querySelectorAll('#flame-chart svg g').length > 10", Duration.ofSeconds(10));
            String frames = browser.eval("[...document.querySelectorAll('#flame-chart svg g')].map(g => d3.select(g).datum().data.name).join('|')")
                    .asText();
            assertTrue(frames.contains(DEMO + "OrderWorker.process"), frames);
            assertTrue(frames.contains(DEMO + "Warehouse.take"), frames);
            assertTrue(browser.eval("document.getElementById('methods-table').textContent").asText().contains(DEMO + "OrderWorker.process"));
            assertTrue(browser.eval("document.getElementById('monitors-table').textContent").asText().contains("demo-worker-"));
            assertTrue(browser.eval("document.getElementById('facts-table').textContent").asText().contains("METHOD_ENTRY"));

            // search marks the matching frames; a thread's own flame graph by time replaces the merged one
            browser.eval("document.getElementById('flame-search').value = 'Warehouse.take';"
                    + " document.getElementById('flame-search-button').click()");
            browser.waitFor("document.getElementById('flame-details').textContent.includes('search')", Duration.ofSeconds(10));
            browser.eval("const s = document.getElementById('flame-thread'); s.selectedIndex = 2; s.dispatchEvent(new Event('change'));"
                    + " document.getElementById('flame-by-time').click()");
            browser.waitFor("document.querySelector('#flame-chart svg g') && d3.select('#flame-chart svg g').datum().data.name === '(all)'",
                    Duration.ofSeconds(10));
            Thread.sleep(700); // the library animates the switch
            assertEquals(List.of(), browser.errors(), "console errors after searching and switching");
            browser.eval("document.getElementById('overview').scrollIntoView()");
            Path shot = browser.screenshot(BrowserTests.screenshot("report.png"));
            assertTrue(Files.size(shot) > 10_000, "a screenshot of the page: " + shot);
            System.err.println("views: screenshot of the report: " + shot);
        }
    }
}
