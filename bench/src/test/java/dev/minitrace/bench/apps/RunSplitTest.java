package dev.minitrace.bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSplitTest {
    /** A /proc/PID/task/TID/stat line of thread {@code tid} named {@code comm} with {@code utime} and {@code stime} ticks. */
    private static void task(Path tasks, long tid, String comm, long utime, long stime) throws Exception {
        Path dir = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        // fields 3-13 (state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt), then utime and stime
        Files.writeString(dir.resolve("stat"), tid + " (" + comm + ") S 1 1 1 0 -1 4194368 10 0 0 0 " + utime + " " + stime
                + " 0 0 20 0 40 0 100 0 0 0\n");
    }

    @Test
    void cpuIsSummedByKindOfThreadWithEachThreadsLatestValue(@TempDir Path dir) throws Exception {
        Path tasks = Files.createDirectories(dir.resolve("task"));
        task(tasks, 101, "java", 50, 10);
        task(tasks, 102, "h2-worker-0", 300, 20);
        task(tasks, 103, "C2 CompilerThre", 200, 0);
        task(tasks, 104, "C1 CompilerThre", 30, 0);
        task(tasks, 105, "JFR Recorder Th", 15, 5);
        task(tasks, 106, "GC Thread#0", 7, 1);
        task(tasks, 107, "minitrace-ticke", 3, 1);
        task(tasks, 108, "odd) (name", 2, 0); // a name with parentheses and a space: fields follow the last ')'
        RunSplit split = new RunSplit(100);
        assertTrue(split.pollTasks(tasks));
        // later: the worker went on, the shutdown hook started, a thread ended (its last value counts)
        Files.delete(tasks.resolve("104/stat"));
        Files.delete(tasks.resolve("104"));
        task(tasks, 102, "h2-worker-0", 400, 30);
        task(tasks, 109, "JFR Shutdown Ho", 80, 120);
        assertTrue(split.pollTasks(tasks));

        Map<String, Double> s = split.seconds();
        assertEquals(RunSplit.GROUPS, s.keySet().stream().toList());
        assertEquals((60 + 430 + 2) / 100.0, s.get("app"), 1e-9);
        assertEquals(2.30, s.get("jit"), 1e-9);
        assertEquals(0.20, s.get("jfr"), 1e-9);
        assertEquals(2.00, s.get("jfr-exit"), 1e-9);
        assertEquals(0.08, s.get("gc+vm"), 1e-9);
        assertEquals(0.04, s.get("agent"), 1e-9);
    }

    @Test
    void aGoneProcessIsReportedAndTheExitPhaseNeedsBothEnds(@TempDir Path dir) {
        RunSplit split = new RunSplit(100);
        assertFalse(split.pollTasks(dir.resolve("gone")));
        assertEquals(-1, split.exitPhaseSeconds());
        split.resultAt(10.5);
        split.resultAt(11.0); // the first result line counts
        assertEquals(-1, split.exitPhaseSeconds());
        split.exitAt(14.0);
        assertEquals(3.5, split.exitPhaseSeconds(), 1e-9);
    }
}
