package dev.minitrace.views.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TraceCounts} and {@link TraceDiff} on records written by hand: what each record counts
 * for, that two traces with different ids for the same names match, and the rows' order.
 */
class TraceDiffTest {
    /** The records of one thread, added in order. */
    private static final class Records {
        final List<long[]> rows = new ArrayList<>();

        Records add(int type, long value, int aux) {
            rows.add(new long[] {type, value, aux});
            return this;
        }

        void into(TraceCounts c, long thread) {
            int n = rows.size();
            byte[] type = new byte[n];
            long[] time = new long[n];
            long[] value = new long[n];
            int[] aux = new int[n];
            for (int i = 0; i < n; i++) {
                type[i] = (byte) rows.get(i)[0];
                value[i] = rows.get(i)[1];
                aux[i] = (int) rows.get(i)[2];
            }
            c.records(thread, type, time, value, aux, 0, n);
        }
    }

    private static final int ENTRY = MtlogFormat.METHOD_ENTRY;
    private static final int EXIT = MtlogFormat.METHOD_EXIT;

    /** A trace whose method ids start at {@code firstId}: run() calls work() {@code works} times; work allocates a String and locks an Object. */
    private static TraceCounts trace(long firstId, int works, boolean workThrows) {
        long run = firstId;
        long work = firstId + 1;
        int stringClass = (int) firstId + 10;
        int objectClass = (int) firstId + 11;
        int errorClass = (int) firstId + 12;
        Records r = new Records().add(ENTRY, run, 0);
        for (int i = 0; i < works; i++) {
            r.add(ENTRY, work, 0)
                    .add(MtlogFormat.OBJECT_ALLOC, MtlogFormat.objectId(stringClass, i), 7)
                    .add(MtlogFormat.LOCK_ACQUIRE, MtlogFormat.objectId(objectClass, 1), 9)
                    .add(MtlogFormat.LOCK_RELEASE, MtlogFormat.objectId(objectClass, 1), 12);
            if (workThrows) {
                r.add(MtlogFormat.EXCEPTION_THROW, work, 20).add(MtlogFormat.EXCEPTION_OBJECT, MtlogFormat.objectId(errorClass, i), 0)
                        .add(EXIT, work, 0);
            } else {
                r.add(EXIT, work, 14);
            }
        }
        r.add(EXIT, run, 30);
        TraceCounts c = new TraceCounts(4);
        r.into(c, 5);
        MtlogInfo info = new MtlogInfo();
        info.putMethod(run, "a.App", "run", "()V");
        info.putMethod(work, "a.App", "work", "(I)V");
        info.putClass(stringClass, "java.lang.String");
        info.putClass(objectClass, "java.lang.Object");
        info.putClass(errorClass, "java.lang.IllegalStateException");
        c.finish(info);
        return c;
    }

    private static List<String> rows(TraceDiff d, boolean all) {
        List<String> out = new ArrayList<>();
        for (int r : d.rows(all)) {
            StringBuilder b = new StringBuilder(String.join(" ", d.key(r)));
            for (int k = 0; k < d.by().metrics().size(); k++) {
                b.append(' ').append(d.base(r, k)).append('>').append(d.next(r, k));
            }
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void methodsMatchByNameWhateverTheirIds() {
        TraceDiff d = TraceDiff.of(DiffBy.METHOD, trace(100, 2, false), trace(7, 3, true), (c, m) -> true);
        assertEquals(List.of("a.App work (I)V 2>3 0>3 2>3 2>3"), rows(d, false));
        assertEquals(List.of("a.App work (I)V 2>3 0>3 2>3 2>3", "a.App run ()V 1>1 0>0 0>0 0>0"), rows(d, true));
    }

    @Test
    void sitesMonitorsThrowsAndPaths() {
        TraceCounts base = trace(100, 2, false);
        TraceCounts next = trace(7, 3, true);
        assertEquals(List.of("java.lang.String a.App::work(I)V 2>3"), rows(TraceDiff.of(DiffBy.ALLOC, base, next, (c, m) -> true), false));
        assertEquals(List.of("java.lang.Object 2>3"), rows(TraceDiff.of(DiffBy.LOCK, base, next, (c, m) -> true), false));
        assertEquals(List.of("java.lang.IllegalStateException a.App::work(I)V 0>3"),
                rows(TraceDiff.of(DiffBy.EXCEPTION, base, next, (c, m) -> true), false));
        assertEquals(List.of("a.App::run()V;a.App::work(I)V 2>3", "a.App::run()V 1>1"),
                rows(TraceDiff.of(DiffBy.PATH, base, next, (c, m) -> true), true));
    }

    @Test
    void theFilterDropsTheRowsOfMethodsItDoesNotSelect() {
        TraceDiff d = TraceDiff.of(DiffBy.METHOD, trace(100, 2, false), trace(7, 3, true), (c, m) -> !m.equals("work"));
        assertEquals(List.of(), rows(d, false));
        assertEquals(List.of(), rows(TraceDiff.of(DiffBy.LOCK, trace(1, 1, false), trace(1, 2, false), (c, m) -> !"work".equals(m)), true),
                "the monitor was taken only in work");
    }

    @Test
    void anExitWithoutItsEntryAndLostExitsDoNotDerailTheStack() {
        TraceCounts c = new TraceCounts(3);
        new Records().add(EXIT, 9, 3) // began before the trace
                .add(ENTRY, 1, 0).add(ENTRY, 2, 0) // 2's exit is lost
                .add(EXIT, 1, 5).add(MtlogFormat.OBJECT_ALLOC, MtlogFormat.objectId(3, 1), 4).into(c, 1);
        MtlogInfo info = new MtlogInfo();
        c.finish(info);
        assertEquals(1, c.unmatchedExits);
        TraceDiff d = TraceDiff.of(DiffBy.ALLOC, empty(), c, (x, y) -> true);
        assertEquals(List.of("class#3 - 0>1"), rows(d, false), "after 1's exit no method is open");
    }

    private static TraceCounts empty() {
        TraceCounts c = new TraceCounts(0);
        c.finish(new MtlogInfo());
        return c;
    }

    @Test
    void failBoundsAreOnTheChangeAbsoluteOrRelative() {
        FailBound more = FailBound.parse("calls>+5%");
        assertFalse(more.crossed(100, 105));
        assertTrue(more.crossed(100, 106));
        assertTrue(more.crossed(0, 1), "from nothing, any growth crosses a relative bound");
        assertFalse(more.crossed(0, 0));
        FailBound any = FailBound.parse(" allocs > +0 ");
        assertFalse(any.crossed(7, 7));
        assertTrue(any.crossed(7, 8));
        assertFalse(any.crossed(7, 6));
        FailBound fewer = FailBound.parse("locks<=-2");
        assertTrue(fewer.crossed(5, 3));
        assertFalse(fewer.crossed(5, 4));
        assertEquals("calls", FailBound.parse("calls>=10").metric());
        for (String bad : List.of("calls", "calls>", "calls=>5", "calls>5x", ">5", "calls>+5%%")) {
            assertThrows(IllegalArgumentException.class, () -> FailBound.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> FailBound.parse("calls>0").check(DiffBy.LOCK));
        FailBound.parse("throws>0").check(DiffBy.EXCEPTION);
        assertEquals(Arrays.asList("class", "site", "throws_base", "throws_new", "throws_delta"), DiffOutput.header(DiffBy.EXCEPTION));
    }
}
