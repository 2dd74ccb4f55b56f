package dev.minitrace.converter.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BufferReorder}: buffer events that reach the file ahead of an earlier one of their thread
 * wait, packed, and follow it, in memory and through the scratch file alike; what a chunk does not
 * put in order is delivered at its end; late events, corrupt ones and unresolved threads pass at once.
 * The oracle is the decoder fed the same events in sequence order.
 */
class BufferReorderTest {
    private static final long TPS = 1_000_000_000L;

    @TempDir
    Path dir;

    /** One buffer event of thread {@code key}. */
    private record Ev(long key, long first, String records, int count, long base) {
    }

    /**
     * {@code n} events per thread for threads 1 and 2, with consecutive sequence ranges (some with
     * skips, some with object records), as an agent writes them.
     */
    private static List<Ev> events(int n, Random rnd) {
        List<Ev> all = new ArrayList<>();
        for (long key = 1; key <= 2; key++) {
            long seq = 1;
            for (int i = 0; i < n; i++) {
                TraceBufferEncoder e = new TraceBufferEncoder();
                int records = 1 + rnd.nextInt(6);
                long span = 0;
                for (int r = 0; r < records; r++) {
                    if (rnd.nextInt(4) == 0) {
                        e.alloc(7 + rnd.nextInt(3), rnd.nextInt(1 << 30), r, r * 3L);
                    } else {
                        e.entry(100 + rnd.nextInt(50), r * 3L);
                    }
                    span++;
                    if (rnd.nextInt(5) == 0) {
                        long skip = 1 + rnd.nextInt(3);
                        e.skip(skip);
                        span += skip;
                    }
                }
                all.add(new Ev(key, seq, e.records(), e.count(), 1_000_000L * key + 1000L * i));
                seq += span;
            }
        }
        return all;
    }

    /** What the decoder delivers for {@code events} taken in sequence order, thread by thread. */
    private static CapturingSink inSequenceOrder(List<Ev> events) {
        List<Ev> sorted = new ArrayList<>(events);
        sorted.sort((a, b) -> a.key != b.key ? Long.compare(a.key, b.key) : Long.compare(a.first, b.first));
        CapturingSink sink = new CapturingSink();
        MethodBufferDecoder d = new MethodBufferDecoder();
        for (Ev e : sorted) {
            d.decode(e.records, e.key, e.first, e.count, e.base, TPS, sink);
        }
        return sink;
    }

    private static void offer(BufferReorder r, Ev e, MethodBufferDecoder d, CapturingSink sink) throws IOException {
        char[] c = e.records.toCharArray();
        r.buffer(e.key, c, c.length, e.first, e.count, e.base, TPS, d, sink);
    }

    /** The events of thread {@code key} in the lines of {@code all}, which name the thread by key. */
    private static List<String> ofThread(List<String> all, long key) {
        List<String> out = new ArrayList<>();
        for (String line : all) {
            if (line.split(" ")[1].equals(Long.toString(key))) {
                out.add(line);
            }
        }
        return out;
    }

    /**
     * The shape real recordings have: a run of thread 1's events reaches the file after the
     * thread's later ones, the other thread's events in order around them, and local shuffles.
     */
    private static List<Ev> fileOrder(List<Ev> events, Random rnd) {
        List<Ev> t1 = new ArrayList<>(events.subList(0, events.size() / 2));
        List<Ev> t2 = new ArrayList<>(events.subList(events.size() / 2, events.size()));
        List<Ev> run = new ArrayList<>(t1.subList(20, 90));
        t1.removeAll(run);
        t1.addAll(t1.size() - 10, run); // the displaced run comes near the end
        for (int i = 0; i + 4 <= t2.size(); i += 4) {
            Collections.shuffle(t2.subList(i, i + 4), rnd);
        }
        List<Ev> out = new ArrayList<>();
        int a = 0;
        int b = 0;
        while (a < t1.size() || b < t2.size()) {
            if (b >= t2.size() || a < t1.size() && rnd.nextBoolean()) {
                out.add(t1.get(a++));
            } else {
                out.add(t2.get(b++));
            }
        }
        return out;
    }

    @Test
    void eventsAheadWaitAndFollowTheRunBeforeThemInMemoryAndThroughTheFile() throws IOException {
        Random rnd = new Random(42);
        List<Ev> events = events(200, rnd);
        List<Ev> file = fileOrder(events, rnd);
        CapturingSink expected = inSequenceOrder(events);
        for (long memory : new long[] {0, 300, 1 << 20}) {
            CapturingSink sink = new CapturingSink();
            MethodBufferDecoder d = new MethodBufferDecoder();
            // file blocks of 64 bytes: events are read back from the staged block and from the file
            try (BufferReorder r = new BufferReorder(new BufferReorder.Room(dir, "t" + memory, memory), 64)) {
                for (Ev e : file) {
                    offer(r, e, d, sink);
                }
                assertTrue(r.heldRecords() > 0, "the displaced run's followers waited");
                assertEquals(memory == 1 << 20, r.fileBytes() == 0, "memory " + memory + ": " + r.fileBytes() + " bytes through the file");
                // every gap was filled within the chunk: all records came out, in order, before its end
                for (long key = 1; key <= 2; key++) {
                    assertEquals(ofThread(expected.methodEvents, key), ofThread(sink.methodEvents, key), "memory " + memory);
                    assertEquals(ofThread(expected.objectEvents, key), ofThread(sink.objectEvents, key), "memory " + memory);
                }
                int delivered = sink.methodEvents.size() + sink.objectEvents.size();
                r.endOfChunk(d, sink);
                assertEquals(delivered, sink.methodEvents.size() + sink.objectEvents.size(), "nothing was left for the chunk's end");
            }
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(0, left.count(), "the scratch file is removed");
            }
        }
    }

    @Test
    void aGapTheChunkDoesNotFillIsDeliveredAtItsEndAndTheLateEventPassesInTheNext() throws IOException {
        List<Ev> events = events(6, new Random(7)).subList(0, 6);
        CapturingSink sink = new CapturingSink();
        MethodBufferDecoder d = new MethodBufferDecoder();
        try (BufferReorder r = new BufferReorder(new BufferReorder.Room(dir, "gap", 1 << 20))) {
            offer(r, events.get(0), d, sink);
            offer(r, events.get(1), d, sink);
            offer(r, events.get(3), d, sink);
            offer(r, events.get(4), d, sink);
            List<String> twoFirst = List.copyOf(sink.methodEvents);
            assertEquals(ofThread(inSequenceOrder(events.subList(0, 2)).methodEvents, 1), twoFirst, "3 and 4 wait for 2");
            r.endOfChunk(d, sink);
            List<String> withoutGap = new ArrayList<>(twoFirst);
            withoutGap.addAll(inSequenceOrder(events.subList(3, 5)).methodEvents);
            assertEquals(withoutGap, sink.methodEvents, "the chunk's end delivers what waits, in order");
            offer(r, events.get(2), d, sink); // late: at once
            offer(r, events.get(5), d, sink); // follows event 4, delivered at the chunk's end: at once
            assertEquals(events.get(3).count + events.get(4).count, r.heldRecords(), "only 3 and 4 waited");
            List<String> all = new ArrayList<>(withoutGap);
            all.addAll(inSequenceOrder(events.subList(2, 3)).methodEvents);
            all.addAll(inSequenceOrder(events.subList(5, 6)).methodEvents);
            assertEquals(all, sink.methodEvents);
        }
    }

    @Test
    void aThreadsQueueTakesNewEventsAfterAPartialDrainInOrder() throws IOException {
        List<Ev> events = events(21, new Random(11)).subList(0, 21);
        List<Ev> file = new ArrayList<>();
        file.add(events.get(0));
        file.addAll(events.subList(2, 10)); // wait for 1
        file.addAll(events.subList(11, 19)); // wait for 10: the queue's first 16 places are full
        file.add(events.get(1)); // 2..9 follow, 11..18 still wait
        file.add(events.get(20)); // waits, in the room 2..9 left
        file.add(events.get(10)); // 11..18 follow
        file.add(events.get(19)); // and then 20
        CapturingSink sink = new CapturingSink();
        MethodBufferDecoder d = new MethodBufferDecoder();
        try (BufferReorder r = new BufferReorder(new BufferReorder.Room(dir, "partial", 1 << 20))) {
            for (Ev e : file) {
                offer(r, e, d, sink);
            }
            assertEquals(ofThread(inSequenceOrder(events).methodEvents, 1), ofThread(sink.methodEvents, 1));
            assertEquals(ofThread(inSequenceOrder(events).objectEvents, 1), ofThread(sink.objectEvents, 1));
        }
    }

    @Test
    void corruptEventsAndUnresolvedThreadsPassAtOnce() throws IOException {
        List<Ev> events = events(4, new Random(3)).subList(0, 4);
        CapturingSink sink = new CapturingSink();
        MethodBufferDecoder d = new MethodBufferDecoder();
        try (BufferReorder r = new BufferReorder(new BufferReorder.Room(dir, "small", 0))) {
            offer(r, events.get(0), d, sink);
            char[] bad = "\u0004\u00e9\u0001".toCharArray();
            r.buffer(1, bad, bad.length, 1_000_000, 1, 0, TPS, d, sink); // ahead, but not one byte a char: said at once
            assertEquals(1, sink.corrupt.size(), sink.corrupt.toString());
            char[] other = events.get(2).records.toCharArray();
            r.buffer(-1, other, other.length, events.get(2).first, events.get(2).count, 0, TPS, d, sink); // no thread: at once
            assertEquals(0, r.heldRecords());
            offer(r, events.get(1), d, sink);
            assertEquals(inSequenceOrder(events.subList(0, 2)).methodEvents, ofThread(sink.methodEvents, 1),
                    "the thread goes on where its last good event ended");
        }
    }
}
