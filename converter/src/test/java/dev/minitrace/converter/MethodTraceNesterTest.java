package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.util.LongRows;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** jdk.MethodTrace intervals become properly nested entries and exits, also with equal timestamps and in any arrival order. */
class MethodTraceNesterTest {
    private static List<String> nest(long[][] intervals) {
        LongRows rows = new LongRows(MethodTraceNester.WIDTH, 1);
        for (long[] interval : intervals) {
            int i = rows.add();
            rows.set(i, MethodTraceNester.START, interval[0]);
            rows.set(i, MethodTraceNester.DURATION, interval[1]);
            rows.set(i, MethodTraceNester.METHOD, interval[2]);
        }
        EventBuffer out = new EventBuffer();
        MethodTraceNester.nest(rows, out);
        List<String> r = new ArrayList<>();
        for (int i = 0; i < out.size; i++) {
            r.add((out.type[i] == 1 ? "+" : "-") + out.value[i] + "@" + out.time[i]);
        }
        return r;
    }

    @Test
    void exitOrderArrivalBecomesNesting() {
        // events arrive at exit: inner ones first; outer 1 [0,100] holds 2 [10,20] and 3 [20,50] which holds 4 [30,40]
        long[][] arrival = {{10, 10, 2}, {30, 10, 4}, {20, 30, 3}, {0, 100, 1}};
        assertEquals(List.of("+1@0", "+2@10", "-2@20", "+3@20", "+4@30", "-4@40", "-3@50", "-1@100"), nest(arrival));
    }

    @Test
    void equalStartsPutTheEnclosingMethodFirstAndZeroLengthCallsStayInside() {
        long[][] arrival = {{5, 0, 3}, {5, 5, 2}, {5, 10, 1}};
        assertEquals(List.of("+1@5", "+2@5", "+3@5", "-3@5", "-2@10", "-1@15"), nest(arrival));
    }

    @Test
    void recursionOfOneMethodNests() {
        long[][] arrival = {{2, 1, 7}, {1, 3, 7}, {0, 5, 7}, {6, 1, 7}};
        assertEquals(List.of("+7@0", "+7@1", "+7@2", "-7@3", "-7@4", "-7@5", "+7@6", "-7@7"), nest(arrival));
    }
}
