package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.RecordingSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hand-over to the sink's thread must not change what the sink sees, nor hide its failures. */
class HandOffSinkTest {
    /** Logs every call as text, and on which thread it ran. */
    private static class Log implements RecordingSink {
        final List<String> calls = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        int gcsAsked;

        void log(String s) {
            calls.add(s);
            threads.add(Thread.currentThread());
        }

        @Override public void chunkBegin(JfrChunk chunk) { log("begin " + chunk.index()); }
        @Override public void thread(long k, long j, String n, boolean v) { log("thread " + k + " " + j + " " + n + " " + v); }
        @Override public void classDefinition(long k, String n) { log("class " + k + " " + n); }
        @Override public void methodDefinition(int id, String c, String m, String d, int r) { log("method " + id + " " + c + m + d + " " + r); }
        @Override public void methodEvent(int t, long k, long s, long time, int id, int bci) { log("m " + t + " " + k + " " + s + " " + time + " " + id + " " + bci); }
        @Override public void objectEvent(int t, long k, long s, long time, long c, int h, int bci) { log("o " + t + " " + k + " " + s + " " + time + " " + c + " " + h + " " + bci); }
        @Override public void tracedMethod(long k, String c, String m, String d) { log("traced " + k + " " + c + m + d); }
        @Override public void methodTrace(long k, long s, long d, long m) { log("trace " + k + " " + s + " " + d + " " + m); }
        @Override public void garbageCollection(long id, String n, String c, long s, long d) { log("gc " + id + " " + n + " " + c + " " + s + " " + d); }
        @Override public void gcPause(long id, String n, long s, long d) { log("pause " + id + " " + n + " " + s + " " + d); }
        @Override public void corruptMethodBuffer(long k, int n, String r) { log("corrupt " + k + " " + n + " " + r); }
        @Override public void dataLoss(long b) { log("loss " + b); }
        @Override public void chunkEnd(JfrChunk chunk, long done) { log("end " + chunk.index() + " " + done); }
        @Override public void chunkGcsRead() { log("gcsRead"); }

        @Override
        public boolean gcsFirst(JfrChunk chunk) {
            gcsAsked = calls.size();
            return chunk.index() % 2 == 0;
        }
    }

    private static JfrChunk chunk(int index) {
        return new JfrChunk(index, index * 1000L, 1000, 5_000_000_000L + index, 100, 1_000_000_000L, 1_000_000_000L);
    }

    /** Drives a sink with a fixed, varied call sequence and returns whether gcsFirst said yes per chunk. */
    private static List<Boolean> drive(RecordingSink s) {
        List<Boolean> answers = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            s.chunkBegin(chunk(c));
            answers.add(s.gcsFirst(chunk(c)));
            s.chunkGcsRead();
            s.thread(c, 100 + c, "t" + c, c == 1);
            s.classDefinition(7, "C" + c);
            s.methodDefinition(c, "A", "m", "()V", c);
            s.tracedMethod(9, "B", "n", "()I");
            for (int i = 0; i < 20_000; i++) { // more than two batches a chunk
                if (i % 1000 == 0) { // a MethodBuffer event's columns, part of them
                    int[] types = {1, 2, 3, 4, 5, 1};
                    int[] ids = {i, i + 1, i + 2, i + 3, i + 4, i + 5};
                    int[] hashes = {0, 0, -7, 8, 9, 0};
                    int[] bcis = {0, 3, 4, 5, 6, 0};
                    long[] seqs = {i, i + 1L, i + 2L, i + 3L, i + 4L, i + 5L};
                    long[] ticks = {0, 10, 20, 30, 40, 50};
                    s.records(c, 1_000_000L * i, 1e9 / 3e8, types, ids, hashes, bcis, seqs, ticks, 1, 6);
                }
                switch (i % 3) {
                    case 0 -> s.methodEvent(1 + i % 2, c, i, 1000L * i, i, i % 40);
                    case 1 -> s.objectEvent(3 + i % 3, c, i, 1000L * i + 1, (1L << 62) | i, -i, i % 7);
                    default -> s.methodTrace(c, i, 5, 9);
                }
                if (i % 4999 == 0) {
                    s.gcPause(i, "GC Pause", i, 2);
                    s.garbageCollection(i, "G1New", "cause", i, 3);
                }
            }
            s.corruptMethodBuffer(c, 4, "bad");
            s.dataLoss(c * 10);
            s.chunkEnd(chunk(c), (c + 1) * 1000L);
        }
        return answers;
    }

    @Test
    void theSinkSeesTheSameCallsInTheSameOrderOnOneOtherThread() {
        Log direct = new Log();
        List<Boolean> directAnswers = drive(direct);
        Log behind = new Log();
        List<Boolean> answers;
        try (HandOffSink h = new HandOffSink(behind)) {
            answers = drive(h);
            h.finish();
        }
        assertEquals(directAnswers, answers);
        assertEquals(direct.calls.size(), behind.calls.size());
        assertEquals(direct.calls, behind.calls);
        assertFalse(behind.threads.contains(Thread.currentThread()), "the calls ran on the sink's thread");
        assertEquals(1, behind.threads.stream().distinct().count());
        assertEquals(direct.gcsAsked, behind.gcsAsked, "gcsFirst saw every call made before it");
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aChunkTheSizeDecidesIsAnsweredWhileTheSinksThreadIsStillBusy() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Log slow = new Log() {
            @Override
            public void chunkEnd(JfrChunk chunk, long done) {
                super.chunkEnd(chunk, done);
                try {
                    release.await(); // the sink's thread is busy with the last chunk's records
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public boolean gcsFirstBySize(JfrChunk chunk) {
                return chunk.size() >= 1000;
            }
        };
        try (HandOffSink h = new HandOffSink(slow)) {
            h.chunkBegin(chunk(0));
            h.methodEvent(1, 1, 1, 10, 5, 0);
            h.chunkEnd(chunk(0), 1000);
            h.chunkBegin(chunk(1));
            // answered at once: waiting for the sink's thread to take the first chunk would hang here
            assertTrue(h.gcsFirst(chunk(1)));
            release.countDown();
            h.chunkEnd(chunk(1), 2000);
            h.finish();
        }
        assertEquals(List.of("begin 0", "m 1 1 1 10 5 0", "end 0 1000", "begin 1", "end 1 2000"), slow.calls);
        assertEquals(0, slow.gcsAsked, "gcsFirst was not asked of the sink");
    }

    @Test
    void aFailureOfTheSinkIsThrownOnTheCallingThread() {
        UncheckedIOException boom = new UncheckedIOException(new IOException("No space left on device"));
        Log failing = new Log() {
            @Override
            public void chunkEnd(JfrChunk chunk, long done) {
                throw boom;
            }
        };
        HandOffSink h = new HandOffSink(failing);
        UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> {
            drive(h);
            h.finish();
        });
        assertSame(boom, thrown);
        int seen = failing.calls.size();
        assertTrue(seen > 0 && seen < 3 * 20_000, "the calls after the failure were dropped: " + seen);
        h.close();
        h.close(); // twice is fine
    }
}
