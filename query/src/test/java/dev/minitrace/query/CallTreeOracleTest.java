package dev.minitrace.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.query.export.ParquetExport;
import dev.minitrace.query.export.RecordingFacts;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --call-tree} as it runs, held to the question as first written (each line's path built as
 * text, {@code call-tree-by-path.sql}) on random traces of two recordings: deep recursion of the
 * asked method inside itself, overloads that share a name, calls begun before the trace, calls
 * never ended and calls ended by a caller's exit (a lost exit), several threads.
 */
class CallTreeOracleTest {
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final int METHODS = 12;

    @TempDir
    static Path dir;
    static Path out;

    @BeforeAll
    static void export() throws Exception {
        out = dir.resolve("tables");
        for (int recording = 0; recording < 2; recording++) {
            try (ParquetExport e = new ParquetExport(out, RecordingFacts.ofMtlog(Path.of("r" + recording + ".mtlog"), T0, "h" + recording))) {
                SplittableRandom random = new SplittableRandom(42 + recording);
                for (long thread = 1; thread <= 3; thread++) {
                    write(e, thread, random, recording);
                }
                MtlogInfo info = new MtlogInfo();
                for (long t = 1; t <= 3; t++) {
                    info.putThread(t, t, "t" + t);
                }
                for (int m = 1; m <= METHODS; m++) {
                    // ids differ between the recordings; methods 11 and 12 are overloads of 1 and 2
                    int name = m > 10 ? m - 10 : m;
                    info.putMethod(m + 100L * recording, "com.acme.C" + name % 3, "m" + name, "(" + "I".repeat(m) + ")V");
                }
                e.finish(info);
            }
        }
    }

    /** A thread's random calls: the records of a walk that enters and leaves methods, 4,000 steps. */
    private static void write(ParquetExport e, long thread, SplittableRandom random, int recording) throws Exception {
        List<Long> open = new ArrayList<>();
        int n = 0;
        byte[] type = new byte[8192];
        long[] time = new long[8192];
        long[] value = new long[8192];
        int[] aux = new int[8192];
        // exits of calls begun before the trace come first
        for (int i = 0; i < 2; i++) {
            type[n] = (byte) MtlogFormat.METHOD_EXIT;
            time[n] = T0 + n * 1000L;
            value[n] = 1 + 100L * recording;
            aux[n++] = 3;
        }
        for (int step = 0; step < 4000; step++) {
            boolean enter = open.isEmpty() || open.size() < 40 && random.nextInt(100) < 55;
            long method;
            if (enter) {
                // method 1 often, so that it recurses inside itself at many depths
                method = (random.nextInt(3) == 0 ? 1 : 1 + random.nextInt(METHODS)) + 100L * recording;
                open.add(method);
            } else {
                method = open.remove(open.size() - 1);
                if (random.nextInt(25) == 0) {
                    // a lost exit: the next exit matches an open call further down, which ends this one without an exit
                    continue;
                }
            }
            type[n] = (byte) (enter ? MtlogFormat.METHOD_ENTRY : MtlogFormat.METHOD_EXIT);
            time[n] = T0 + n * 1000L + random.nextInt(500);
            value[n] = method;
            aux[n++] = enter ? 0 : 7;
        }
        // what is still open never ends
        e.records(thread, type, time, value, aux, 0, n);
    }

    private static String oracle() throws Exception {
        try (InputStream in = CallTreeOracleTest.class.getResourceAsStream("call-tree-by-path.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theTraceHasCallsEndedByACallersExit() throws Exception {
        List<String> ended = Rows.of(out, "SELECT count(*) FROM calls c JOIN calls p ON p.recording = c.recording AND p.thread = c.thread"
                + " AND p.call_seq = c.parent_seq WHERE c.exit_seq IS NULL AND p.exit_seq IS NOT NULL");
        assertTrue(Long.parseLong(ended.get(0)) > 10, ended + " calls without an exit inside a caller that has one");
    }

    @Test
    void theTreeIsTheOneOfPathsBuiltAsText() throws Exception {
        for (String method : List.of("C1::m1", "com.acme.C2::m2", "C0::m3", "C1::m4")) {
            List<String> expected = Rows.of(out, oracle().replace("${method}", TraceDatabase.literal(method)));
            assertTrue(expected.size() > 20, method + ": a tree worth comparing, " + expected.size() + " lines");
            assertSame(method, expected, Rows.of(out, NamedQuery.CALL_TREE.sql(Map.of("method", method, "depth", Integer.MAX_VALUE))));
            // so many levels: the lines of the whole tree that are no deeper, with the same times
            for (int depth : new int[] {0, 1, 3}) {
                List<String> cut = expected.stream().filter(l -> indent(l) <= depth).toList();
                assertSame(method + " to depth " + depth, cut, Rows.of(out, NamedQuery.CALL_TREE.sql(Map.of("method", method, "depth", depth))));
            }
        }
    }

    private static int indent(String line) {
        int spaces = 0;
        while (line.charAt(spaces) == ' ') {
            spaces++;
        }
        return spaces / 2;
    }

    private static void assertSame(String what, List<String> expected, List<String> actual) {
        int first = 0;
        while (first < Math.min(expected.size(), actual.size()) && expected.get(first).equals(actual.get(first))) {
            first++;
        }
        int at = first;
        assertEquals(expected.size() + " lines", actual.size() + " lines", () -> what + ", first difference at line " + at);
        assertEquals(expected.size(), first, () -> what + ", line " + at + ": " + expected.get(at) + " != " + actual.get(at));
    }
}
