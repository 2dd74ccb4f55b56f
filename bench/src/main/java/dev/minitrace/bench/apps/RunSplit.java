package dev.minitrace.bench.apps;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a child JVM's time goes ({@code bench/run apps --split}): the wall time after its workload
 * printed its result (the JVM's exit: JFR's dump into {@code filename=}), and the CPU time by kind
 * of thread, polled from {@code /proc} while it runs: the application's own threads, the JIT compilers, JFR's
 * recorder and periodic threads, the JFR shutdown hook (which copies the disk repository into
 * {@code filename=} at exit), GC and VM threads, the agent's threads. A thread's last value before it
 * ended counts (the poll period is the error), so this splits a run's time, it does not replace
 * the CPU total that GNU time gives. Linux only; elsewhere {@link #poll} finds nothing.
 */
final class RunSplit {
    /** The kinds, in report order. */
    static final List<String> GROUPS = List.of("app", "jit", "jfr", "jfr-exit", "gc+vm", "agent");

    private final long clockTicksPerSecond;
    /** Per thread id: its group and its latest user + system ticks. */
    private final Map<Long, String> groupOf = new LinkedHashMap<>();
    private final Map<Long, Long> ticksOf = new LinkedHashMap<>();

    /** Seconds from the start to the workload's result line, and to the exit; negative until known. */
    private double resultSeconds = -1;
    private double exitSeconds = -1;

    /** {@code clockTicksPerSecond}: the unit of {@code /proc}'s times (USER_HZ, 100 on Linux). */
    RunSplit(long clockTicksPerSecond) {
        this.clockTicksPerSecond = clockTicksPerSecond;
    }

    /** The workload printed its result {@code seconds} after the start (the first call counts). */
    void resultAt(double seconds) {
        if (resultSeconds < 0) {
            resultSeconds = seconds;
        }
    }

    /** The child exited {@code seconds} after the start. */
    void exitAt(double seconds) {
        exitSeconds = seconds;
    }

    /**
     * Wall seconds between the workload's result and the JVM's exit (JFR's dump into
     * {@code filename=} among them), or -1 when either is unknown.
     */
    double exitPhaseSeconds() {
        return resultSeconds < 0 || exitSeconds < 0 ? -1 : exitSeconds - resultSeconds;
    }

    /** The group of a thread by its name as {@code /proc} gives it (15 characters at most). */
    static String group(String comm) {
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") || comm.startsWith("Sweeper")) {
            return "jit";
        }
        if (comm.startsWith("JFR Shutdown")) {
            return "jfr-exit";
        }
        if (comm.startsWith("JFR ")) {
            return "jfr";
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("VM ") || comm.startsWith("ZGC")
                || comm.startsWith("Monitor Deflati") || comm.startsWith("Service Thread")) {
            return "gc+vm";
        }
        if (comm.startsWith("minitrace-")) {
            return "agent";
        }
        return "app";
    }

    /** Reads every thread of process {@code pid} once; false when the process is gone. */
    boolean poll(long pid) {
        return pollTasks(Path.of("/proc", Long.toString(pid), "task"));
    }

    /** Reads every thread folder of {@code tasks} (a process's {@code /proc/PID/task}) once; false when it is gone. */
    boolean pollTasks(Path tasks) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path task : ds) {
                read(task);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private void read(Path task) {
        String stat;
        try {
            stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
            return; // the thread ended between the listing and the read
        }
        // pid (comm) state ...: the name may hold spaces and parentheses; the fields follow the last ')'
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return;
        }
        long tid = Long.parseLong(stat.substring(0, open).trim());
        String[] f = stat.substring(close + 2).split(" ");
        // f[0] is field 3 (state): utime and stime are fields 14 and 15
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        groupOf.putIfAbsent(tid, group(stat.substring(open + 1, close)));
        ticksOf.put(tid, ticks);
    }

    /** CPU seconds per group, every group of {@link #GROUPS} present. */
    Map<String, Double> seconds() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String g : GROUPS) {
            out.put(g, 0.0);
        }
        for (Map.Entry<Long, Long> e : ticksOf.entrySet()) {
            out.merge(groupOf.get(e.getKey()), e.getValue() / (double) clockTicksPerSecond, Double::sum);
        }
        return out;
    }

    /**
     * The JVM of a started child: {@code p} itself, or its child when {@code p} is GNU time (which
     * runs the JVM as its child); -1 while GNU time has not started it yet.
     */
    static long jvmOf(ProcessHandle p) {
        if (!p.info().command().map(c -> c.endsWith("/time")).orElse(false)) {
            return p.pid();
        }
        return p.children().findFirst().map(ProcessHandle::pid).orElse(-1L);
    }
}
