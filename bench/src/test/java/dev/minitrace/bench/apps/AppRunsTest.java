package dev.minitrace.bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppRunsTest {
    private static AppRuns.Run run(String config, int round, double wall, String checksum) {
        return new AppRuns.Run(config, round, wall, wall * 2, 1000, -1, checksum);
    }

    @Test
    void mediansAndRatiosAreOfTheSameRun() {
        AppRuns r = new AppRuns("x");
        r.add(run("plain", 1, 10, "c"));
        r.add(run("plain", 2, 12, "c"));
        r.add(run("plain", 3, 30, "c")); // an outlier the median ignores
        r.add(run("full", 1, 25, "c"));
        r.add(run("full", 2, 24, "c"));
        r.add(run("full", 3, 60, "c"));
        r.add(run("jep520", 1, 48, "c"));
        r.add(run("jep520", 2, 50, "c"));
        assertEquals(12, r.medianWall("plain").getAsDouble());
        assertEquals(49, r.medianWall("jep520").getAsDouble()); // even count: mean of the middle two
        assertEquals(24, r.medianCpu("plain").getAsDouble());
        assertEquals(25.0 / 12, r.slowdown("full", "plain").getAsDouble(), 1e-12);
        assertEquals((25.0 - 12) / (49 - 12), r.addedCostRatio("full", "jep520", "plain").getAsDouble(), 1e-12);
        assertTrue(r.slowdown("agent", "plain").isEmpty());
        assertTrue(r.medianRecordingBytes("plain").isEmpty()); // -1: no recording
    }

    @Test
    void perRoundRatiosPairRunsOfTheSameRound() {
        AppRuns r = new AppRuns("x");
        // The load drifts: round 3 is slow for both configurations alike.
        r.add(run("plain", 1, 10, "c"));
        r.add(run("agent", 1, 10.5, "c"));
        r.add(run("plain", 2, 11, "c"));
        r.add(run("agent", 2, 11.0, "c"));
        r.add(run("plain", 3, 20, "c"));
        r.add(run("agent", 3, 21, "c"));
        assertEquals(1.05, r.slowdownPerRound("agent", "plain").getAsDouble(), 1e-12); // ratios 1.05, 1.0, 1.05
        assertEquals(11.0 / 11, r.slowdown("agent", "plain").getAsDouble(), 1e-12); // the medians come from round 2
        assertTrue(r.slowdownPerRound("full", "plain").isEmpty());
    }

    @Test
    void aDifferentChecksumFailsAtOnceNamingBothRuns() {
        AppRuns r = new AppRuns("h2");
        r.add(run("plain", 1, 10, "aaaa"));
        r.add(run("agent", 1, 11, "aaaa"));
        AppRuns.ChecksumMismatch e = assertThrows(AppRuns.ChecksumMismatch.class, () -> r.add(run("full", 1, 20, "bbbb")));
        assertTrue(e.getMessage().contains("'full' round 1") && e.getMessage().contains("'plain' round 1"), e.getMessage());
        assertTrue(r.runs("full").isEmpty());
    }

    @Test
    void badCommandLinesAreUsageErrors() throws Exception {
        for (String[] args : List.of(new String[] {"--rounds", "0"}, new String[] {"--rounds", "x"}, new String[] {"--rounds"},
                new String[] {"--apps", "ecj,nope"}, new String[] {"--configs", "plain,fast"}, new String[] {"--frobnicate"},
                new String[] {"--java", "/no/such/jdk"}, new String[] {"--keep", "--rounds", "1"},
                new String[] {"--against", "/no/such/checkout"})) {
            assertThrows(dev.minitrace.bench.BenchArgs.Usage.class, () -> AppsBench.parse(args), String.join(" ", args));
        }
        AppsBench.Options o = AppsBench.parse(new String[] {"--rounds", "2", "--apps", "h2,ecj,h2", "--configs", "plain,full"});
        assertEquals(2, o.rounds());
        assertEquals(List.of("h2", "ecj"), o.apps());
        assertEquals(List.of("plain", "full"), o.configs());
        assertTrue(o.configsGiven());
    }

    @Test
    void theJep520FilterNamesEveryClassOfThePackagesIncludingNestedOnes(@TempDir Path dir) throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(lib.resolve("a.jar")))) {
            for (String n : List.of("org/h2/A.class", "org/h2/A$1.class", "org/h2/sub/B.class", "org/h2/package-info.class",
                    "org/h2x/C.class", "com/other/D.class", "META-INF/versions/21/org/h2/A.class", "module-info.class")) {
                out.putNextEntry(new java.util.zip.ZipEntry(n));
                out.closeEntry();
            }
        }
        String jfc = Files.readString(AppsBench.writeJep520Jfc(dir.resolve("t.jfc"), lib, List.of("org.h2")));
        assertTrue(jfc.contains("<setting name=\"filter\">org.h2.A;org.h2.A$1;org.h2.sub.B</setting>"), jfc);
    }
}
