package dev.minitrace.views;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/** What the browser tests share: the browser, or a skip with one line that says why, and where screenshots go. */
public final class BrowserTests {
    private static boolean told;

    private BrowserTests() {
    }

    /** The Chromium to use; skips the calling test when there is none. */
    public static synchronized Path chromium() {
        Path exe = Chromium.executable();
        String why = "no Chromium on this machine (chromium on the PATH or -Dminitrace.chromium=PATH; .ci/run installs Debian's"
                + " chromium): the browser tests are skipped";
        if (exe == null && !told) {
            System.err.println("views: " + why);
            told = true;
        }
        Assumptions.assumeTrue(exe != null, why);
        return exe;
    }

    /** Where a test's screenshot goes: target/screenshots by default. */
    public static Path screenshot(String name) {
        return Paths.get(System.getProperty("minitrace.screenshots", "target/screenshots")).resolve(name).toAbsolutePath();
    }
}
