package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The call tree of one thread's records: nesting, empty calls on one line, exits by exception, paging. */
class CallTreeTest {
    private static final int ENTRY = MtlogFormat.METHOD_ENTRY;
    private static final int EXIT = MtlogFormat.METHOD_EXIT;

    private static List<String> tree(boolean exitsKnown, boolean times, long from, long to, long[][] records) {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        CallTree t = new CallTree(out, id -> "m" + id, id -> "o" + id, exitsKnown, times, from, to);
        for (long[] r : records) {
            t.record((int) r[0], r[1], (int) r[2], r[3], null);
        }
        t.end();
        out.flush();
        return s.toString().lines().toList();
    }

    private static final long[][] RECORDS = {
        {EXIT, 9, 7, 0},                       // a call begun before the recording
        {ENTRY, 1, 0, 1_000_000},
        {MtlogFormat.LOCK_ACQUIRE, 5, 3, 1_000_000},
        {ENTRY, 2, 0, 2_000_000},
        {EXIT, 2, 4, 2_000_000},               // empty call: one line
        {ENTRY, 3, 0, 2_500_000},
        {EXIT, 3, 0, 3_000_000},               // empty call that threw
        {ENTRY, 4, 0, 3_000_000},
        {MtlogFormat.OBJECT_ALLOC, 6, 9, 3_000_000},
        {EXIT, 4, 0, 3_250_000},               // threw after allocating
        {MtlogFormat.LOCK_RELEASE, 5, 11, 4_000_000},
        {EXIT, 1, 12, 4_000_000},
        {ENTRY, 8, 0, 5_000_000},              // still running at the end
    };

    @Test
    void nestsMarksAndTimes() {
        assertEquals(List.of(
                "        1       0.000  } m9 (entered before the recording)",
                "        2       1.000  m1 {",
                "        3       1.000    lock o5",
                "        4       2.000    m2",
                "        6       2.500    m3 !threw",
                "        8       3.000    m4 {",
                "        9       3.000      new o6",
                "       10       3.250    } m4 !threw",
                "       11       4.000    unlock o5",
                "       12       4.000  } m1",
                "       13       5.000  m8 { (still running at the end)"), tree(true, true, 1, Long.MAX_VALUE, RECORDS));
    }

    @Test
    void withoutKnownExitsOrTimesNothingIsMarked() {
        assertEquals(List.of(
                "        4    m2",
                "        6    m3",
                "        8    m4 {",
                "        9      new o6",
                "       10    } m4"), tree(false, false, 4, 10, RECORDS));
    }

    @Test
    void aGcPointTakesNoPositionAndKeepsTheCallItFallsIntoOpen() {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        CallTree t = new CallTree(out, id -> "m" + id, id -> "o" + id, true, false, 1, Long.MAX_VALUE);
        t.record(ENTRY, 1, 0, 0, null);
        t.record(MtlogFormat.GC_TIMESTAMP, 0, 7, 0, "gc 7");
        t.record(EXIT, 1, 3, 0, null);
        t.record(ENTRY, 2, 0, 0, null);
        t.end();
        out.flush();
        assertEquals(List.of("        1  m1 {", "           ~~ gc 7", "        2  } m1", "        3  m2 { (still running at the end)"),
                s.toString().lines().toList());
    }

    @Test
    void arrayClassesReadAsJavaWritesThem() {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        CallTree t = new CallTree(out, id -> "m", id -> id == 1 ? "[J@1f" : id == 2 ? "[[Ljava.lang.String;@2e" : "a.B@3d",
                true, false, 1, Long.MAX_VALUE);
        for (int id = 1; id <= 3; id++) {
            t.record(MtlogFormat.OBJECT_ALLOC, id, 0, 0, null);
        }
        out.flush();
        assertEquals(List.of("        1  new long[]@1f", "        2  new java.lang.String[][]@2e", "        3  new a.B@3d"),
                s.toString().lines().toList());
    }

    @Test
    void methodNamesShowParameterTypesBySimpleName() {
        assertEquals("a.B.m(int, String[][], long, Order)", CallTree.methodName("a.B", "m", "(I[[Ljava/lang/String;JLx/y/Order;)V"));
        assertEquals("a.B.<init>()", CallTree.methodName("a.B", "<init>", "()V"));
        assertEquals("a.B.m(Q", CallTree.methodName("a.B", "m", "(Q").substring(0, 7));
    }
}
