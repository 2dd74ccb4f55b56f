package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mt print --tree} on what {@code bin/mt demo} writes: the recording's tree of a worker has
 * times, balanced calls and the demo's 40 rejected orders as exits by exception; the log's tree
 * is the same tree without times; paging and thread selection cut it as asked.
 */
class PrintTreeIT {
    @TempDir
    static Path dir;

    private static final String WORKER = "demo-worker-0";

    @BeforeAll
    static void demo() throws Exception {
        ChildProcess.Outcome o = ChildProcess.bin(dir, "mt", "demo");
        assertEquals(0, o.status(), o::toString);
    }

    private static List<String> print(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("print", "--tree"));
        cmd.addAll(List.of(args));
        ChildProcess.Outcome o = ChildProcess.cli(dir, cmd.toArray(new String[0]));
        assertEquals(0, o.status(), o::toString);
        assertEquals("", o.err());
        return o.out().lines().toList();
    }

    @Test
    void theRecordingsTreeHasTimesBalancedCallsAndTheRejectedOrders() throws Exception {
        List<String> lines = print(dir.resolve("minitrace-demo.jfr").toString(), "--threads", WORKER);
        assertTrue(lines.get(0).contains("ms: time since the recording started") && lines.get(0).contains("1 ms tick"), lines.get(0));
        assertEquals("== thread", lines.get(1).substring(0, 9));
        assertTrue(lines.get(1).endsWith(" \"" + WORKER + "\""), "only the thread asked for: " + lines.get(1));
        assertEquals(List.of("#", "ms", "call tree"), List.of(lines.get(2).trim().split("\\s+", 3)));
        assertEquals("dev.minitrace.demo.OrderWorker.run() {", text(lines.get(3), true));

        Deque<String> open = new ArrayDeque<>();
        double lastTime = 0;
        long lastPosition = 0;
        int rejected = 0;
        for (String line : lines.subList(3, lines.size())) {
            String[] cols = line.trim().split("\\s+", 3);
            long position = Long.parseLong(cols[0]);
            double time = Double.parseDouble(cols[1]);
            assertTrue(position > lastPosition && time >= lastTime, "positions rise, times never fall: " + line);
            lastPosition = position;
            lastTime = time;
            String text = text(line, true);
            int indent = indent(line, true);
            // a closing line stands where its call's opening line stood
            assertEquals(text.startsWith("} ") ? open.size() - 1 : open.size(), indent, "indented by the calls open: " + line);
            if (text.endsWith(" {")) {
                open.push(text.substring(0, text.length() - 2));
            } else if (text.startsWith("} ")) {
                indentCheck(open, line, text);
            }
            rejected += text.equals("} dev.minitrace.demo.Warehouse.take(Order) !threw") ? 1 : 0;
        }
        assertEquals(0, open.size(), "every call closed: " + open);
        assertEquals(40, rejected, "every 50th of 2000 orders is rejected by an exception out of Warehouse.take");
    }

    private static void indentCheck(Deque<String> open, String line, String text) {
        String closed = text.substring(2).replace(" !threw", "");
        assertEquals(open.pop(), closed, "closes the innermost open call: " + line);
    }

    /**
     * The log's tree is the recording's without the time column, except where the log has GC
     * points (a recording's tree shows none): a point inside an empty call keeps that call open
     * ({@code m {}, the point, {@code } m}) where the recording's tree has one line.
     */
    @Test
    void theLogsTreeIsTheSameTreeWithoutTimes() throws Exception {
        for (int w = 0; w < 4; w++) {
            String worker = "demo-worker-" + w;
            List<String> fromJfr = print(dir.resolve("minitrace-demo.jfr").toString(), "--threads", worker);
            List<String> fromLog = print(dir.resolve("minitrace-demo.mtlog").toString(), "--threads", worker);
            assertTrue(fromLog.get(0).contains("an .mtlog holds no per-record times"), fromLog.get(0));
            assertEquals(fromJfr.get(1), fromLog.get(1), "the same thread");
            List<String> expected = new ArrayList<>();
            for (String line : fromJfr.subList(3, fromJfr.size())) {
                expected.add(withoutTime(line));
            }
            assertEquals(expected, withoutGcPoints(fromLog.subList(3, fromLog.size())), worker);
        }
    }

    private static List<String> withoutGcPoints(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.trim().startsWith("~~ ")) {
                continue;
            }
            if (line.endsWith(" {") && i + 2 < lines.size() && lines.get(i + 1).trim().startsWith("~~ ")) {
                String call = line.substring(line.indexOf("  ", 9)).trim();
                String close = lines.get(i + 2).substring(11).trim();
                String name = call.substring(0, call.length() - 2);
                if (close.equals("} " + name) || close.equals("} " + name + " !threw")) {
                    out.add(line.substring(0, line.length() - 2) + close.substring(2 + name.length()));
                    i += 2;
                    continue;
                }
            }
            out.add(line);
        }
        return out;
    }

    @Test
    void pagesAndThreadsCutTheTree() throws Exception {
        Path log = dir.resolve("minitrace-demo.mtlog");
        List<String> all = print(log.toString(), "--threads", "demo-worker-*");
        assertEquals(4, all.stream().filter(l -> l.startsWith("== thread ")).count(), "the four workers, no other thread");
        List<String> page = print(log.toString(), "--threads", WORKER, "--from", "100", "--to", "199");
        List<String> whole = print(log.toString(), "--threads", WORKER);
        List<String> expected = new ArrayList<>(whole.subList(0, 3));
        List<String> body = whole.subList(3, whole.size());
        for (int i = 0; i < body.size(); i++) {
            // a GC point has no position of its own: it goes with the record after it
            int j = i;
            while (j < body.size() && body.get(j).trim().startsWith("~~ ")) {
                j++;
            }
            long position = j < body.size() ? Long.parseLong(body.get(j).trim().split("\\s+", 2)[0]) : Long.MAX_VALUE;
            if (position >= 100 && position <= 199) {
                expected.add(body.get(i));
            }
        }
        assertTrue(expected.size() > 50, "a page of the tree: " + expected.size());
        assertEquals(expected, page);
    }

    /** The call-tree column of a line. */
    private static String text(String line, boolean times) {
        return line.substring(column(times)).trim();
    }

    private static int indent(String line, boolean times) {
        String tree = line.substring(column(times));
        int spaces = 0;
        while (tree.charAt(spaces) == ' ') {
            spaces++;
        }
        return spaces / 2;
    }

    /** Where the tree starts: after "%9d" (and " %11.3f") and two spaces. */
    private static int column(boolean times) {
        return times ? 9 + 12 + 2 : 9 + 2;
    }

    private static String withoutTime(String line) {
        return line.substring(0, 9) + line.substring(9 + 12);
    }
}
