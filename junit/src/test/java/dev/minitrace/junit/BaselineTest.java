package dev.minitrace.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import example.inventory.Stock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The baseline of {@link BaselineExample}, run through JUnit's launcher in this traced JVM: written
 * on the first run, passing while the counts hold, failing with the method and both counts on a
 * deliberate regression, rewritten by the update flag.
 */
class BaselineTest {
    private static final Path FILE = Path.of(BaselineExample.FILE);

    @AfterEach
    void reset() {
        Stock.regression = false;
        System.clearProperty(MiniTraceExtension.UPDATE_PROPERTY);
    }

    private static TestExecutionSummary run() {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(BaselineExample.class)).build(), listener);
        TestExecutionSummary s = listener.getSummary();
        assertEquals(1, s.getTestsStartedCount());
        return s;
    }

    private static String failure(TestExecutionSummary s) {
        assertEquals(1, s.getTestsFailedCount(), "the regression fails the test");
        return s.getFailures().get(0).getException().getMessage();
    }

    @Test
    void theBaselineRoundTripsAndARegressionFailsNamingTheMethodAndBothCounts() throws Exception {
        Files.deleteIfExists(FILE);
        assertEquals(0, run().getTestsFailedCount(), "the first run writes the baseline");
        List<String> written = Files.readAllLines(FILE);
        assertEquals(List.of(Baseline.HEADER,
                "example.inventory.Stock$Reservation::<init>(Ljava/lang/String;I)V,3,0,0,0",
                "example.inventory.Stock::<init>(I[Ljava/lang/String;)V,1,0,2,0",
                "example.inventory.Stock::lookup(Ljava/lang/String;)I,3,0,0,0",
                "example.inventory.Stock::reserve(Ljava/lang/String;I)Z,3,0,3,3"), written);
        assertEquals(Baseline.read(FILE).keySet().size(), 4);

        assertEquals(0, run().getTestsFailedCount(), "the same counts pass");
        assertEquals(written, Files.readAllLines(FILE), "a passing run leaves the file as it was");

        Stock.regression = true;
        String message = failure(run());
        assertTrue(message.contains("example.inventory.Stock::lookup(Ljava/lang/String;)I: calls 3 in the baseline, 6 now"), message);
        assertTrue(message.contains(FILE.toString()), message);
        assertEquals(1, message.lines().filter(l -> l.startsWith("  ")).count(), "only lookup changed: " + message);

        System.setProperty(MiniTraceExtension.UPDATE_PROPERTY, "true");
        assertEquals(0, run().getTestsFailedCount(), "the update flag rewrites the baseline");
        assertTrue(Files.readAllLines(FILE).contains("example.inventory.Stock::lookup(Ljava/lang/String;)I,6,0,0,0"));
        System.clearProperty(MiniTraceExtension.UPDATE_PROPERTY);
        assertEquals(0, run().getTestsFailedCount(), "the new counts are the baseline now");

        Stock.regression = false;
        String back = failure(run());
        assertTrue(back.contains("example.inventory.Stock::lookup(Ljava/lang/String;)I: calls 6 in the baseline, 3 now"), back);
    }

    @Test
    void aBaselineFileThatIsNotOneIsSaidSo() throws Exception {
        Files.createDirectories(FILE.getParent());
        Files.writeString(FILE, "something else\n");
        String message = failure(run());
        assertTrue(message.contains("not a MiniTrace baseline"), message);
        Files.delete(FILE);
    }
}
