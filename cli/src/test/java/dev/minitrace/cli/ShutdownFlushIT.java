package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.recover.Finite;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * However the JVM ends short of SIGKILL or a crash, the records still in MiniTrace's per-thread
 * buffers reach the recording: the fixture's threads stay parked with their last records
 * unflushed while the JVM returns from main, calls System.exit, dies of an OutOfMemoryError or
 * gets SIGTERM, and the recording JFR writes on exit holds every record of both threads.
 * The flush is the hook JFR itself runs at the end of the last chunk, inside its own shutdown
 * hook, so it cannot race with the dump the way a second shutdown hook would.
 */
class ShutdownFlushIT {
    private static final int CALLS = 1001;
    /** Entries of the thread's lambda and of run, then four records per call of step. */
    private static final int RECORDS = 2 + 4 * CALLS;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"return", "exit", "oom", "sigterm"})
    void everyRecordReachesTheRecording(String mode) throws Exception {
        Path jfr = dir.resolve(mode + ".jfr");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-javaagent:" + ChildProcess.ROOT.resolve("injector/target/minitrace-agent.jar") + "=include=fixture.recover.*",
                "-XX:StartFlightRecording:name=minitrace,settings=" + ChildProcess.ROOT.resolve("jfc-profiles/minitrace.jfc")
                        + ",filename=" + jfr + ",dumponexit=true,maxsize=0",
                "-cp", ChildProcess.testClasses(), Finite.class.getName(), mode, Integer.toString(CALLS))
                .redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.append(line).append('\n');
                if (line.equals("done") && mode.equals("sigterm")) {
                    p.toHandle().destroy(); // SIGTERM: the shutdown hooks run (Process.destroy would close our end of the output)
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), output::toString);
        Trace t = Trace.read(jfr);
        for (String thread : List.of("finite-0", "finite-1")) {
            assertEquals(RECORDS, t.byThread.getOrDefault(thread, List.of()).size(), mode + ", " + thread + ": " + output);
            assertTrue(t.sequenceIsContiguous(thread), mode + ", " + thread);
        }
        ChildProcess.Outcome o = ChildProcess.cli(dir, "convert", jfr.toString(), dir.resolve(mode + ".mtlog").toString());
        assertEquals(ExitCodes.OK, o.status(), o::toString);
    }
}
