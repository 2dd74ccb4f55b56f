package dev.minitrace.bench.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JUnitSummaryTest {
    @Test
    void readsTheTestCountsNotTheContainerCounts() {
        String out = String.join("\n", "Test run finished after 2180 ms", "[         9 containers found      ]",
                "[         7 containers successful ]", "[      1246 tests found           ]", "[         3 tests skipped         ]",
                "[      1211 tests successful      ]", "[        20 tests failed          ]");
        assertEquals(new JUnitSummary(1246, 1211, 20, 3), JUnitSummary.parse(out));
    }

    @Test
    void aRunWithoutItsSummaryIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> JUnitSummary.parse("Error: could not find or load main class\n[ 5 tests found ]"));
    }

    @Test
    void failedTestsAreTheCasesWithAFailureOrAnError(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("TEST-junit-jupiter.xml");
        Files.writeString(report, String.join("\n", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<testsuite name=\"JUnit Jupiter\" tests=\"3\">",
                "<testcase name=\"ok()\" classname=\"a.B\"/>", "<testcase name=\"bad()\" classname=\"a.B\"><failure message=\"x\"/></testcase>",
                "<testcase name=\"boom()\" classname=\"a.C\"><error message=\"y\"/></testcase>", "</testsuite>"));
        assertEquals(List.of("a.B#bad()", "a.C#boom()"), List.copyOf(JUnitSummary.failedTests(report)));
        assertTrue(JUnitSummary.failedTests(dir.resolve("absent.xml")).isEmpty());
    }
}
