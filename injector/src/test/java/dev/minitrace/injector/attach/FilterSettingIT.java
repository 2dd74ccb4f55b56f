package dev.minitrace.injector.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code minitrace.MethodEntry#filter} setting of recordings started with {@code jcmd JFR.start}
 * selects what is instrumented: several recordings trace the union, each change retransforms only
 * the classes whose selection changed, and when no recording carries a filter the agent's own
 * {@code include=} applies again. A probe agent loaded after MiniTrace logs every retransformed
 * class and sees the installed bytes.
 */
class FilterSettingIT {
    private static final String HOOKS = "dev/minitrace/injector/runtime/Trace";

    @Test
    void recordingsFiltersDriveTheInstrumentation(@TempDir Path dir) throws Exception {
        try (TargetProcess target = TargetProcess.start(dir)) {
            Files.writeString(dir.resolve("load-late"), "now");
            TargetProcess.awaitFile(dir.resolve("late-loaded"), target.process);
            assertTrue(target.attach("include=fixture.attach.Early", dir.resolve("session.jfr")).startsWith("ok "));
            target.probe("after.jar", "register after " + dir);
            Path log = dir.resolve("after-retransformed.log");

            target.jcmd("JFR.start", "name=f1", "settings=" + TargetProcess.SETTINGS,
                    "+minitrace.MethodEntry#filter=fixture.attach.Late", "filename=" + dir.resolve("f1.jfr"));
            assertEquals(Set.of("fixture/attach/Early", "fixture/attach/Late"), awaitApplied(target, "fixture.attach.Late", log));
            assertInstrumented(target, dir, false, true);

            target.jcmd("JFR.start", "name=f2", "settings=" + TargetProcess.SETTINGS,
                    "+minitrace.MethodEntry#filter=fixture.attach.Early");
            assertEquals(Set.of("fixture/attach/Early"),
                    awaitApplied(target, "fixture.attach.Early;fixture.attach.Late", log), "union: only Early changes");
            assertInstrumented(target, dir, true, true);

            target.jcmd("JFR.stop", "name=f1");
            assertEquals(Set.of("fixture/attach/Late"), awaitApplied(target, "fixture.attach.Early", log));
            assertInstrumented(target, dir, true, false);
            assertTrue(AttachIT.entries(dir.resolve("f1.jfr")).containsKey("Late.work"), "f1 traced Late");

            target.jcmd("JFR.stop", "name=f2");
            // No recording carries a filter: back to include=fixture.attach.Early, which Early already has.
            assertEquals(Set.of(), awaitApplied(target, "", log));
            assertInstrumented(target, dir, true, false);

            assertTrue(target.stop().startsWith("ok recording written"));
            assertInstrumented(target, dir, false, false);
            assertEquals("", target.finish());

            // Early was rewritten four times (attach, f1, f2, f1 stopped) and Late three: every
            // method kept its one id, so a log names each method once.
            java.util.Map<String, Set<Integer>> ids = new java.util.TreeMap<>();
            for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(dir.resolve("session.jfr"))) {
                if (e.getEventType().getName().equals("minitrace.MethodDefinition")) {
                    ids.computeIfAbsent(e.getString("className") + "." + e.getString("methodName") + e.getString("descriptor"),
                            k -> new TreeSet<>()).add(e.getInt("methodId"));
                }
            }
            assertTrue(ids.keySet().stream().anyMatch(k -> k.startsWith("fixture.attach.Early.")), ids::toString);
            assertTrue(ids.keySet().stream().anyMatch(k -> k.startsWith("fixture.attach.Late.")), ids::toString);
            for (java.util.Map.Entry<String, Set<Integer>> e : ids.entrySet()) {
                assertEquals(1, e.getValue().size(), e.getKey() + " has ids " + e.getValue());
            }
        }
    }

    /** Waits until the agent reports {@code filter} applied; returns the classes retransformed since the last call. */
    private static Set<String> awaitApplied(TargetProcess target, String filter, Path log) throws Exception {
        while (!filter.equals(target.properties().getProperty(Filters.APPLIED_PROPERTY))) {
            Thread.sleep(20);
        }
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        Files.deleteIfExists(log);
        return new TreeSet<>(lines);
    }

    /** Retransforms Early and Late through the probe and checks which carry hooks. */
    private static void assertInstrumented(TargetProcess target, Path dir, boolean early, boolean late) throws Exception {
        for (String simple : new String[] {"Early", "Late"}) {
            target.probe("after.jar", "retransform fixture.attach." + simple);
            boolean hooked = AttachIT.contains(Files.readAllBytes(latest(dir, "after-" + simple)), HOOKS);
            assertEquals(simple.equals("Early") ? early : late, hooked, simple + " instrumented");
        }
        Files.deleteIfExists(dir.resolve("after-retransformed.log"));
    }

    private static Path latest(Path dir, String prefix) throws Exception {
        int best = -1;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (n.startsWith(prefix + "-") && n.endsWith(".class")) {
                    best = Math.max(best, Integer.parseInt(n.substring(prefix.length() + 1, n.length() - 6)));
                }
            }
        }
        assertFalse(best < 0, "no bytes captured for " + prefix);
        return dir.resolve(prefix + "-" + best + ".class");
    }
}
