package dev.minitrace.views.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Records that share a stamp are spread over the tick in their order; every time is later than the one before. */
class TickGroupTest {
    private final List<long[]> out = new ArrayList<>();
    private final TickGroup.Sink sink = (type, value, aux, time) -> out.add(new long[] {value, time});

    @Test
    void recordsOfOneStampAreSpreadEvenlyOverTheTickInTheirOrder() throws Exception {
        TickGroup g = new TickGroup();
        for (int i = 0; i < 4; i++) {
            g.add(1, i, 0, 10_000_000L, sink);
        }
        g.add(1, 4, 0, 30_000_000L, sink); // the next stamp is 20 ms later: the group spans one tick
        assertEquals(4, out.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(i, out.get(i)[0]);
            assertEquals(10_000_000L + i * 250_000L, out.get(i)[1]);
        }
        g.flush(40_000_000L, sink);
        assertEquals(30_000_000L, out.get(4)[1], "a record alone in its stamp keeps its time");
    }

    @Test
    void aGroupNeverReachesTheThreadsNextStamp() throws Exception {
        TickGroup g = new TickGroup();
        g.add(1, 0, 0, 1_000L, sink);
        g.add(1, 1, 0, 1_000L, sink);
        g.add(1, 2, 0, 1_400L, sink); // stamp=every: the next record 400 ns later
        assertEquals(List.of(1_000L, 1_200L), List.of(out.get(0)[1], out.get(1)[1]));
    }

    @Test
    void moreRecordsThanNanosecondsStillGetStrictlyIncreasingTimes() throws Exception {
        TickGroup g = new TickGroup();
        for (int i = 0; i < 10; i++) {
            g.add(1, i, 0, 100L, sink);
        }
        g.add(1, 10, 0, 103L, sink);
        g.add(1, 11, 0, 50L, sink); // a time before the group's: taken as the group's stamp
        g.flush(200L, sink);
        for (int i = 1; i < out.size(); i++) {
            assertTrue(out.get(i)[1] > out.get(i - 1)[1], () -> "strictly increasing: " + out.stream().map(r -> r[1]).toList());
        }
        assertEquals(12, out.size());
        assertEquals(100L, out.get(0)[1]);
    }
}
