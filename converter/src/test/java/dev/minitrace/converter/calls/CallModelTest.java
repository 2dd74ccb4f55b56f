package dev.minitrace.converter.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The call model's rules for what a trace lacks (docs/query.md), event by event. */
class CallModelTest {
    private static final long A = 1;
    private static final long B = 2;
    private static final long C = 3;
    private static final long EARLY = 4;
    private static final long MONITOR = 7L << 32 | 0x51;

    /** Writes down what the model tells, one line per callback. */
    private static final class Log implements CallModel.Listener<RuntimeException> {
        final List<String> lines = new ArrayList<>();
        CallModel<RuntimeException> model;

        @Override
        public void enter(int frame, long seq, long method, long time) {
            lines.add("enter " + method + " frame " + frame + " depth " + model.depth(frame) + " seq " + seq);
        }

        @Override
        public void exit(int frame, int end, long seq, int bci, long time, long duration, long self) {
            lines.add("exit " + model.method(frame) + " " + END[end] + " frame " + frame + " duration " + show(duration) + " self "
                    + show(self));
        }

        @Override
        public void exitWithoutEntry(long method, int end, long seq, int bci, long time, int depth) {
            lines.add("no entry " + method + " " + END[end] + " depth " + depth + " inside " + show(model.runningCall()));
        }

        @Override
        public void acquire(int hold, boolean reentered) {
            lines.add("acquire " + hold + (reentered ? " re-entered" : "") + " in call " + show(model.holdCall(hold)));
        }

        @Override
        public void release(int hold, boolean released, long seq, int bci, long time, boolean reentered) {
            lines.add((released ? "release " : "held at the end ") + hold + (reentered ? " re-entered" : "") + " acquired at "
                    + model.holdSeq(hold));
        }

        @Override
        public void releaseWithoutAcquire(long object, long seq, int bci, long time) {
            lines.add("no acquire, seq " + seq);
        }

        private static String show(long v) {
            return v == CallModel.NONE ? "none" : Long.toString(v);
        }
    }

    private static final String[] END = {"returned", "threw", "exit lost", "open"};

    private static Log run(long[][] records) {
        Log log = new Log();
        log.model = new CallModel<>(log);
        for (long[] r : records) {
            log.model.record((int) r[0], r[1], (int) r[2], r[3]);
        }
        log.model.finish();
        return log;
    }

    @Test
    void aCompleteTraceHasDurationsAndSelfTimes() {
        Log log = run(new long[][] {
            {MtlogFormat.METHOD_ENTRY, A, 0, 100},
            {MtlogFormat.METHOD_ENTRY, B, 0, 110},
            {MtlogFormat.METHOD_EXIT, B, 0, 130},
            {MtlogFormat.METHOD_EXIT, A, 9, 200}});
        assertEquals(List.of("enter 1 frame 0 depth 0 seq 1", "enter 2 frame 1 depth 1 seq 2",
                "exit 2 threw frame 1 duration 20 self 20", "exit 1 returned frame 0 duration 100 self 80"), log.lines);
    }

    @Test
    void whatATraceLacks() {
        Log log = run(new long[][] {
            {MtlogFormat.METHOD_EXIT, EARLY, 5, 50}, // began before the trace, nothing open
            {MtlogFormat.METHOD_ENTRY, A, 0, 100},
            {MtlogFormat.LOCK_ACQUIRE, MONITOR, 3, 100},
            {MtlogFormat.LOCK_ACQUIRE, MONITOR, 4, 100},
            {MtlogFormat.METHOD_ENTRY, B, 0, 110},
            {MtlogFormat.METHOD_ENTRY, C, 0, 120},
            {MtlogFormat.LOCK_RELEASE, MONITOR, 8, 125}, // a release ends no call
            {MtlogFormat.METHOD_EXIT, EARLY, 0, 126}, // an exit without entry inside C
            {MtlogFormat.METHOD_EXIT, A, 9, 200}, // the exits of C and B were lost
            {MtlogFormat.LOCK_RELEASE, 99, 9, 210},
            {MtlogFormat.METHOD_ENTRY, B, 0, 220}});
        assertEquals(List.of(
                "no entry 4 returned depth -1 inside none",
                "enter 1 frame 0 depth -1 seq 2",
                "acquire 0 in call 2",
                "acquire 1 re-entered in call 2",
                "enter 2 frame 1 depth 0 seq 5",
                "enter 3 frame 2 depth 1 seq 6",
                "release 1 re-entered acquired at 4",
                "no entry 4 threw depth 2 inside 6",
                "exit 3 exit lost frame 2 duration none self none",
                "exit 2 exit lost frame 1 duration none self none",
                "exit 1 returned frame 0 duration 100 self none",
                "no acquire, seq 10",
                "enter 2 frame 0 depth -1 seq 11",
                "exit 2 open frame 0 duration none self none",
                "held at the end 0 acquired at 3"), log.lines);
    }
}
