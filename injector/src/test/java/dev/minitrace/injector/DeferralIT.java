package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Off means off: with {@code -javaagent} and no recording enabling MiniTrace's events, no class
 * is rewritten; a recording started later instruments the loaded classes, and stopping the last
 * one reverts them. {@code -Dminitrace.rewrite=eager} rewrites at load time as before.
 */
class DeferralIT {
    private static final Pattern RETRANSFORMED = Pattern.compile("minitrace: (instrumented|reverted): \\D*(\\d+)");

    @Test
    void withoutARecordingNoClassIsRewritten(@TempDir Path dir) throws Exception {
        ChildJvm.Result plain = ChildJvm.run(dir, List.of(), "fixture.workload.Workload");
        ChildJvm.Result deferred = ChildJvm.run(dir, List.of(ChildJvm.agent("verbose")), "fixture.workload.Workload");
        ChildJvm.Result eager = ChildJvm.run(dir, List.of("-Dminitrace.rewrite=eager", ChildJvm.agent("verbose")),
                "fixture.workload.Workload");
        for (ChildJvm.Result r : List.of(plain, deferred, eager)) {
            assertEquals(0, r.exitCode(), r.stderr());
            assertEquals(plain.stdout(), r.stdout());
        }
        assertEquals("", deferred.stderr(), "nothing rewritten, nothing said");
        assertTrue(eager.stderr().contains("minitrace: instrumented fixture.workload."), eager.stderr());
    }

    @Test
    void aLaterRecordingInstrumentsTheLoadedClassesAndStoppingItRevertsThem(@TempDir Path dir) throws Exception {
        ChildJvm.Running child = ChildJvm.start(dir, List.of(ChildJvm.agent("include=fixture.workload.*,verbose")),
                List.of(ChildJvm.TEST_CLASSES), "fixture.workload.Linger", dir.resolve("ready").toString(),
                dir.resolve("stop").toString(), "1");
        try {
            Path ready = dir.resolve("ready");
            for (int i = 0; i < 6000 && !Files.exists(ready) && child.process.isAlive(); i++) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(ready), "child never got ready: " + Files.readString(child.err));
            assertEquals("", Files.readString(child.err), "rewrote classes before any recording");
            long pid = child.process.pid();
            // Twice: after the revert the transformer is removed, and the next recording must find
            // the same classes to instrument again.
            int first = -1;
            for (int recording = 1; recording <= 2; recording++) {
                String name = "late" + recording;
                long mark = Files.size(child.err);
                jcmd(pid, "JFR.start", "name=" + name, "settings=" + ChildJvm.SETTINGS);
                int instrumented = awaitRetransformed(child, "instrumented", mark);
                assertTrue(instrumented > 0, name);
                if (first < 0) {
                    first = instrumented;
                } else {
                    assertEquals(first, instrumented, "the second recording instruments what the first did");
                }
                Path late = dir.resolve(name + ".jfr");
                long traced = 0;
                // Dump until the running program has produced traced calls under the new recording.
                for (int i = 0; i < 600 && traced == 0; i++) {
                    Thread.sleep(100);
                    jcmd(pid, "JFR.dump", "name=" + name, "filename=" + late);
                    traced = jdk.jfr.consumer.RecordingFile.readAllEvents(late).stream()
                            .filter(e -> e.getEventType().getName().startsWith("minitrace.Method")
                                    && !e.getEventType().getName().equals("minitrace.MethodDefinition"))
                            .count();
                }
                assertTrue(traced > 0, "no trace after JFR.start of " + name);
                jcmd(pid, "JFR.stop", "name=" + name);
                assertTrue(awaitRetransformed(child, "reverted", mark) > 0, name);
            }
        } finally {
            Files.writeString(dir.resolve("stop"), "stop");
            ChildJvm.Result r = child.await();
            assertEquals(0, r.exitCode(), r.stderr());
        }
    }

    /** Waits for the agent's verbose line about the loaded classes after byte {@code from} of its stderr; returns how many it retransformed. */
    private static int awaitRetransformed(ChildJvm.Running child, String what, long from) throws Exception {
        for (int i = 0; i < 1200; i++) {
            String err = Files.readString(child.err);
            Matcher m = RETRANSFORMED.matcher(err.substring((int) Math.min(from, err.length())));
            while (m.find()) {
                if (m.group(1).equals(what)) {
                    return Integer.parseInt(m.group(2));
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + what + "' line: " + Files.readString(child.err));
    }

    private static void jcmd(long pid, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.jcmd(), Long.toString(pid)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "jcmd hung");
        assertEquals(0, p.exitValue(), "jcmd " + cmd + ": " + out);
    }
}
