package dev.minitrace.views.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.minitrace.converter.ConvertOptions;
import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.views.BrowserTests;
import dev.minitrace.views.Chromium;
import dev.minitrace.views.DemoRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's timeline opened in speedscope's offline build (the npm package's, fetched by the
 * build) in headless Chromium, as speedscope's own command line opens a file: it loads without a
 * console error, has a profile per thread named like the thread, the workers' frames are in its
 * sandwich table, and a screenshot is written to {@code target/screenshots/timeline-speedscope.png}.
 */
class SpeedscopeBrowserIT {
    private static final Path SPEEDSCOPE = Paths.get(System.getProperty("minitrace.speedscope", "target/speedscope/index.html"));
    private static final String TITLE = "[...document.querySelectorAll('*')].filter(e => e.children.length === 0"
            + " && /^\\(\\d+\\/\\d+\\)$/.test(e.textContent.trim()))";

    @TempDir
    Path dir;

    @Test
    void theTimelineOpensInSpeedscopeWithAProfilePerThread() throws Exception {
        Path exe = BrowserTests.chromium();
        assertTrue(Files.isRegularFile(SPEEDSCOPE), "speedscope's offline build at " + SPEEDSCOPE);
        Path json = dir.resolve("demo.json");
        Timeline.export(DemoRecording.get(), json, ConvertOptions.defaults(),
                new TimelineOptions(null, null, TimelineOptions.DEFAULT_MAX_EVENTS, null), Engines.byName(Engines.DEFAULT), null, null);
        // What speedscope's command line does: a script that hands the file to the page.
        Path loader = dir.resolve("load.js");
        Files.writeString(loader, "speedscope.loadFileFromBase64(\"demo.json\", \""
                + Base64.getEncoder().encodeToString(Files.readAllBytes(json)) + "\")");
        try (Chromium browser = Chromium.start(exe, Files.createDirectory(dir.resolve("profile")))) {
            browser.open(SPEEDSCOPE.toUri() + "#localProfilePath=" + loader);
            browser.waitFor(TITLE + ".length > 0", Duration.ofSeconds(90));
            assertEquals(List.of(), browser.errors(), "console errors");
            int profiles = Integer.parseInt(browser.eval(TITLE + "[0].textContent").asText().replaceAll("\\((\\d+)/(\\d+)\\)", "$2"));
            List<String> titles = new ArrayList<>();
            titles.add(title(browser));
            for (int i = 1; i < profiles; i++) {
                key(browser, "n");
                String t = title(browser);
                titles.add(t);
                if (t.contains("demo-worker-0 ")) {
                    Path shot = browser.screenshot(BrowserTests.screenshot("timeline-speedscope.png"));
                    System.err.println("views: screenshot of the timeline in speedscope: " + shot);
                    click(browser, "Sandwich");
                    // The sandwich table fills in after its header: wait for its rows, not the header
                    // (CI once read the page between the two).
                    browser.waitFor("document.body.innerText.includes('Symbol Name')"
                            + " && document.body.innerText.includes('dev.minitrace.demo.OrderWorker.process')", Duration.ofSeconds(30));
                    String table = browser.eval("document.body.innerText").asText();
                    assertTrue(table.contains("dev.minitrace.demo.OrderWorker.process"), table);
                    assertTrue(table.contains("dev.minitrace.demo.Warehouse.take"), table);
                    assertTrue(table.contains("lock dev.minitrace.demo.Warehouse"), table);
                    click(browser, "Time Order");
                }
            }
            for (int w = 0; w < DemoRecording.WORKERS; w++) {
                String name = "demo-worker-" + w + " ";
                assertTrue(titles.stream().anyMatch(t -> t.contains(name)), titles::toString);
            }
            assertTrue(titles.stream().anyMatch(t -> t.contains(", main ")), titles::toString);
            assertTrue(titles.stream().anyMatch(t -> t.contains(", GC ")), titles::toString);
            assertEquals(List.of(), browser.errors(), "console errors");
        }
    }

    private static String title(Chromium browser) throws Exception {
        return browser.eval(TITLE + "[0].parentElement.textContent").asText();
    }

    /** Presses a key as a person would (speedscope: n = next profile). */
    private static void key(Chromium browser, String key) throws Exception {
        ObjectMapper om = new ObjectMapper();
        String before = title(browser);
        int code = Character.toUpperCase(key.charAt(0));
        browser.call("Input.dispatchKeyEvent", om.createObjectNode().put("type", "keyDown").put("key", key).put("text", key)
                .put("code", "Key" + key.toUpperCase()).put("windowsVirtualKeyCode", code));
        browser.call("Input.dispatchKeyEvent", om.createObjectNode().put("type", "keyUp").put("key", key)
                .put("code", "Key" + key.toUpperCase()).put("windowsVirtualKeyCode", code));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (title(browser).equals(before) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Clicks speedscope's view tab whose label ends with {@code label}. */
    private static void click(Chromium browser, String label) throws Exception {
        browser.eval("[...document.querySelectorAll('div')].filter(e => e.textContent.trim().endsWith('" + label
                + "') && e.children.length < 3).pop().click()");
    }
}
