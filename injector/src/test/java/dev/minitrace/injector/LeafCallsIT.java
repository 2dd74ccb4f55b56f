package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leaf calls end to end ({@code fixture.leaf.Leaves}): a method in which nothing can be recorded
 * between its entry and its exit is written as one record, and the thread's trace is exactly what
 * an entry and an exit record each would give: the same records in the same order as the form
 * with one JFR event per record, leaves that throw included, and a method that reads a class not
 * yet initialised is no leaf (its static initializer's calls lie inside it).
 */
class LeafCallsIT {
    private static final String INCLUDE = "include=fixture.leaf.*";

    /** main's trace, the method and object records. */
    private static final List<String> MAIN = List.of(
            "+Leaves.<clinit>", "-Leaves.<clinit>", // a leaf too: it stores a constant into its own static field
            "+Leaves.main",
            "+Leaves.<init>", "new int[]", "len 3", "-Leaves.<init>", "new fixture.leaf.Leaves",
            "+Leaves.x", "-Leaves.x", "+Leaves.calls", "-Leaves.calls", "+Leaves.at", "-Leaves.at",
            "+Leaves.sign", "-Leaves.sign", "+Leaves.divide", "-Leaves.divide", "+Leaves.size", "-Leaves.size",
            "+Leaves.at", "-!Leaves.at", "+Leaves.divide", "-!Leaves.divide", "+Leaves.size", "-!Leaves.size",
            "+Leaves.sizeOrSum", "-!Leaves.sizeOrSum",
            "+Leaves.late", "+Late.<clinit>", "+Late.compute", "-Late.compute", "-Late.<clinit>", "-Leaves.late",
            "+Leaves.sizeOrSum", "-Leaves.sizeOrSum",
            "-Leaves.main");

    private static String recording(Path file) {
        return "-XX:StartFlightRecording:filename=" + file + ",settings=" + BufferedTraceIT.SETTINGS;
    }

    /** main's trace from a child run of {@code main} with one JFR event per record. */
    private static List<String> perEvent(Path dir, String agentOptions, String main, String... args) throws Exception {
        Path jfr = dir.resolve("events.jfr");
        ChildJvm.Result e = ChildJvm.run(dir, List.of(ChildJvm.agent(agentOptions), ChildJvm.recording(jfr, null)), main, args);
        assertEquals(0, e.exitCode(), e.stderr());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<Integer, String> names = Recordings.methodNames(events);
        List<String> tokens = new ArrayList<>();
        for (RecordedEvent x : Recordings.byThread(events).get("main")) {
            tokens.add(Recordings.token(x, names));
        }
        return tokens;
    }

    private static List<BufferedRecords.Item> main(Path jfr) throws Exception {
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<String, List<BufferedRecords.Item>> threads = BufferedRecords.byThread(events, Recordings.methodNames(events));
        return threads.get("main");
    }

    @Test
    void leavesAreOneRecordAndTheTraceIsTheSameAsWithOneEventPerRecord(@TempDir Path dir) throws Exception {
        Path buffered = dir.resolve("buffered.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(INCLUDE), recording(buffered)), "fixture.leaf.Leaves");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("total 28"), r.stdout());
        List<BufferedRecords.Item> items = main(buffered);
        assertEquals(MAIN, BufferedRecords.tokens(items));
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i + 1, items.get(i).sequence(), "a leaf record takes two sequence numbers: " + items.get(i));
        }
        TreeSet<String> leaves = new TreeSet<>();
        TreeSet<String> notLeaves = new TreeSet<>();
        for (BufferedRecords.Item i : items) {
            if (i.token().startsWith("-")) {
                (i.leaf() ? leaves : notLeaves).add(i.token().replace("!", "").substring(1));
            }
        }
        // sizeOrSum's normal return follows its entry directly (its loop records nothing): the two
        // records are folded into one leaf at the exit unless the ticker advanced in between
        // (Folds is the test of that); its exit by exception never is.
        leaves.remove("Leaves.sizeOrSum");
        assertEquals(new TreeSet<>(List.of("Late.compute", "Leaves.<clinit>", "Leaves.at", "Leaves.calls", "Leaves.divide", "Leaves.sign", "Leaves.size",
                "Leaves.x")), leaves, "written as leaf records");
        assertEquals(new TreeSet<>(List.of("Late.<clinit>", "Leaves.<init>", "Leaves.late", "Leaves.main", "Leaves.sizeOrSum")), notLeaves,
                "written as an entry and an exit");

        assertEquals(MAIN, perEvent(dir, INCLUDE, "fixture.leaf.Leaves"), "one JFR event per record");
    }

    @Test
    void anEntryFollowedDirectlyByItsExitBecomesOneLeafRecordAndTheTraceStaysTheSame(@TempDir Path dir) throws Exception {
        String include = "include=fixture.leaf.Folds";
        Path buffered = dir.resolve("folds.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(include), recording(buffered)), "fixture.leaf.Folds");
        assertEquals(0, r.exitCode(), r.stderr());
        List<BufferedRecords.Item> items = main(buffered);
        Map<String, int[]> exits = new java.util.TreeMap<>(); // method: leaf records, exits written alone
        for (BufferedRecords.Item i : items) {
            if (i.token().startsWith("-")) {
                exits.computeIfAbsent(i.token().substring(1), k -> new int[2])[i.leaf() ? 0 : 1]++;
            }
        }
        for (String folded : List.of("Folds.loop", "Folds.jdk")) {
            int calls = folded.equals("Folds.loop") ? 4000 : 2000; // loop: also from each outer
            int[] n = exits.get(folded);
            assertEquals(calls, n[0] + n[1], folded);
            // Only a tick of the 1 ms ticker or a collection between the entry and the exit keeps
            // them apart (the exit is stamped then): a few calls at most.
            assertTrue(n[0] >= calls * 9 / 10, folded + ": " + n[0] + " of " + calls + " calls are one leaf record");
        }
        for (String inner : List.of("Folds.outer", "Folds.allocates", "Folds.main")) {
            assertEquals(0, exits.get(inner)[0], inner + " records something between its entry and its exit");
        }
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i + 1, items.get(i).sequence(), "a folded record takes two sequence numbers: " + items.get(i));
        }

        assertEquals(perEvent(dir, include, "fixture.leaf.Folds"), BufferedRecords.tokens(items), "the buffered trace is the one of one JFR event per record");
    }

    @Test
    void methodIdsAbove4096AreWrittenAsWideIdsAndTheTraceStaysTheSame(@TempDir Path dir) throws Exception {
        // 450 copies of a class of 11 methods, each copy with ids of its own: the last copy's are
        // above 4096 (written as two chars of 7 bits, header bit 6), the first copy's below.
        String include = "include=fixture.leaf.Many";
        Path buffered = dir.resolve("wide.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(include), recording(buffered)), "fixture.leaf.WideIds", "450");
        assertEquals(0, r.exitCode(), r.stderr());
        List<BufferedRecords.Item> items = main(buffered); // checks that every id from 4096 to 16383 is wide, and no other
        TreeSet<Integer> ids = new TreeSet<>();
        for (BufferedRecords.Item i : items) {
            ids.add(i.methodId());
        }
        assertTrue(ids.first() < 4096 && ids.last() >= 4096 && ids.last() < 16384, ids.toString());
        assertTrue(items.stream().anyMatch(i -> i.leaf() && i.methodId() >= 4096), "leaves and folded calls with wide ids");

        List<String> fromEvents = perEvent(dir, include, "fixture.leaf.WideIds", "450");
        assertEquals(fromEvents, BufferedRecords.tokens(items), "the buffered trace is the one of one JFR event per record");
        assertEquals(2 * 17 * 2, fromEvents.size(), "two calls of run, 17 calls each, an entry and an exit each");
    }

    @Test
    void theJvmsExceptionsRecordNothingInsideALeafWithEveryAllocationTraced(@TempDir Path dir) throws Exception {
        // alloc-scope=all records the JDK's allocations too: the constructors the JVM runs for the
        // exceptions it throws allocate nothing, so the non-leaf twin's entry and exit are adjacent,
        // as a leaf's are by construction.
        Path jfr = dir.resolve("all.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(INCLUDE + ",alloc-scope=all"), recording(jfr)), "fixture.leaf.Leaves");
        assertEquals(0, r.exitCode(), r.stderr());
        List<String> tokens = BufferedRecords.tokens(main(jfr));
        int twin = tokens.indexOf("+Leaves.sizeOrSum");
        assertTrue(twin >= 0, tokens.toString());
        assertEquals("-!Leaves.sizeOrSum", tokens.get(twin + 1), "the NullPointerException recorded nothing: " + tokens);
        for (String leaf : List.of("Leaves.at", "Leaves.divide", "Leaves.size")) {
            int at = tokens.lastIndexOf("+" + leaf);
            assertEquals("-!" + leaf, tokens.get(at + 1), leaf);
        }
        List<String> methods = new ArrayList<>();
        for (String t : tokens) {
            if (t.startsWith("+") || t.startsWith("-")) {
                methods.add(t);
            }
        }
        List<String> expected = new ArrayList<>();
        for (String t : MAIN) {
            if (t.startsWith("+") || t.startsWith("-")) {
                expected.add(t);
            }
        }
        assertEquals(expected, methods, "the method records as without alloc-scope=all");
    }
}
