package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.injector.BufferedRecords;
import dev.minitrace.wire.TraceBufferFormat;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link TraceBuffer} folds an exit into the entry before it without taking the flag the
 * periodic thread commits under: whatever the periodic thread commits in between, the events
 * decode (with the tests' reader written from docs/trace-buffer.md) to exactly the records made.
 */
class TraceBufferTest {
    /** A method id written wide, so that a fold keeps the wide-id bit; ids of this class's own, defined here. */
    private static int wide;
    /** A wide id whose only return instruction is at {@link #WIDE_RETURN_BCI}. */
    private static int wideReturn;
    private static final int WIDE_RETURN_BCI = 9;
    /** Five ids from this one; the fourth returns at {@link #NARROW_RETURN_BCI} only. */
    private static int narrow;
    private static final int NARROW_RETURN_BCI = 3;

    @BeforeAll
    static void methods() {
        narrow = MethodRegistry.reserve(5);
        int next = MethodRegistry.reserve(1);
        wide = next >= TraceBufferFormat.WIDE_ID_FROM ? next : MethodRegistry.reserve(TraceBufferFormat.WIDE_ID_FROM - next)
                + TraceBufferFormat.WIDE_ID_FROM - next - 1;
        wideReturn = MethodRegistry.reserve(1);
        assertEquals(TraceBufferFormat.WIDE_ID, TraceBufferFormat.idForm(wideReturn));
        for (int i = 0; i < 5; i++) {
            MethodRegistry.define(narrow + i, "t.T", "n" + i, "()V", 0, i == 3 ? NARROW_RETURN_BCI : -1);
        }
        MethodRegistry.define(wide, "t.T", "w", "()V", 0, -1);
        MethodRegistry.define(wideReturn, "t.T", "r", "()V", 0, WIDE_RETURN_BCI);
    }

    /** The return bytecode index of {@code id} as {@link #methods} defined it, or -1. */
    private static int returnBci(int id) {
        return id == wideReturn ? WIDE_RETURN_BCI : id == narrow + 3 ? NARROW_RETURN_BCI : -1;
    }

    @BeforeAll
    static void collectionCounters() {
        // The agent maps them through its Instrumentation; here the module is exported on the command line (pom.xml).
        Instrumentation exportsDone = (Instrumentation) Proxy.newProxyInstance(TraceBufferTest.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    if (method.getName().equals("redefineModule")) {
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        assertTrue(GcCounters.open(exportsDone), "the collection counters of this JVM");
    }

    @Test
    void anExitFoldedAfterItsEntryWasCommittedIsCommittedAsAnExitRecord(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        try (Recording r = bufferRecording()) {
            r.start();
            commitDefinitions();
            runOrFail("late-fold", () -> {
                TraceBuffer b = TraceBuffers.create(1);
                b.record(TraceBufferFormat.ENTRY, wide, 0, 1);
                b.flushPublished(); // a chunk boundary: the entry is committed, the owner does not know
                b.record(TraceBufferFormat.EXIT, wide, 9, 2); // folded into the committed entry
                b.record(TraceBufferFormat.ENTRY, narrow, 0, 3);
                b.record(TraceBufferFormat.EXIT, narrow, 4, 4); // folded into an entry not committed
                b.recordLeaf(TraceBufferFormat.EXIT_BY_EXCEPTION, narrow + 1, 0, 5); // a leaf without bytecode index, last
                b.flushPublished();
                TraceBuffers.retire(b);
            });
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> items = items(file, "late-fold");
        assertEquals(List.of("+" + wide, "-" + wide, "+" + narrow, "-" + narrow, "+" + (narrow + 1), "-!" + (narrow + 1)),
                items.stream().map(BufferedRecords.Item::token).toList());
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i + 1, items.get(i).sequence(), "gapless sequence: " + items);
        }
        assertEquals(9, items.get(1).bci());
        assertEquals(4, items.get(3).bci());
        assertTrue(items.get(3).leaf(), "the second call is one leaf record: " + items);
    }

    @Test
    void foldsRacingThePeriodicThreadLoseAndScrambleNothing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        int calls = 100_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<TraceBuffer> buffer = new AtomicReference<>();
        try (Recording r = bufferRecording()) {
            r.start();
            commitDefinitions();
            Thread flusher = new Thread(() -> {
                while (!done.get()) {
                    TraceBuffer b = buffer.get();
                    if (b != null) {
                        b.flushPublished();
                    }
                    Thread.onSpinWait();
                }
            });
            flusher.start();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            TraceTest.runIn("racing-folds", () -> {
                try {
                    TraceBuffer b = TraceBuffers.create(1);
                    buffer.set(b);
                    long sequence = 1;
                    for (int i = 0; i < calls; i++) {
                        int id = racingId(i);
                        b.record(TraceBufferFormat.ENTRY, id, 0, sequence++);
                        b.record(TraceBufferFormat.EXIT, id, racingBci(i, id), sequence++);
                    }
                    done.set(true);
                    TraceBuffers.retire(b);
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    done.set(true);
                }
            });
            flusher.join();
            if (failure.get() != null) {
                throw new AssertionError("the owner failed", failure.get());
            }
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> items = items(file, "racing-folds");
        assertEquals(2 * calls, items.size(), "every record, once");
        long leaves = 0;
        long defined = 0;
        for (int i = 0; i < calls; i++) {
            int id = racingId(i);
            BufferedRecords.Item entry = items.get(2 * i);
            BufferedRecords.Item exit = items.get(2 * i + 1);
            assertEquals("+" + id, entry.token(), "record " + entry.sequence());
            assertEquals("-" + id, exit.token(), "record " + exit.sequence());
            assertEquals(2L * i + 1, entry.sequence());
            assertEquals(2L * i + 2, exit.sequence());
            assertEquals(racingBci(i, id), exit.bci(), "record " + exit.sequence());
            assertEquals(racingBci(i, id) == returnBci(id), exit.defined(), "record " + exit.sequence());
            leaves += exit.leaf() ? 1 : 0;
            defined += exit.defined() ? 1 : 0;
        }
        assertTrue(leaves > calls / 2, leaves + " of " + calls + " calls folded");
        assertTrue(defined > calls / 10, defined + " of " + calls + " exits by the defined return");
    }

    private static int racingId(int i) {
        return i % 3 == 0 ? (i % 2 == 0 ? wide : wideReturn) : narrow + i % 5;
    }

    /** Mostly the method's defined return, else (and for a method without one) another index. */
    private static int racingBci(int i, int id) {
        return returnBci(id) >= 0 && i % 4 != 1 ? returnBci(id) : 10 + i % 90;
    }

    @Test
    void exitsByTheDefinedReturnLeaveTheIndexOutAndDecodeToIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        int n = narrow + 3;
        try (Recording r = bufferRecording()) {
            r.start();
            commitDefinitions();
            runOrFail("defined-exits", () -> {
                TraceBuffer b = TraceBuffers.create(-1);
                b.recordLeaf(TraceBufferFormat.EXIT_BY_EXCEPTION, narrow + 1, 0, -1); // the first record, the stamped one
                b.record(TraceBufferFormat.ENTRY, wideReturn, 0, 1);
                b.flushPublished(); // the entry committed: the fold below leads the next event as an exit record of kind 3
                b.record(TraceBufferFormat.EXIT, wideReturn, WIDE_RETURN_BCI, 2);
                b.record(TraceBufferFormat.ENTRY, n, 0, 3);
                b.record(TraceBufferFormat.EXIT, n, NARROW_RETURN_BCI, 4); // a fold of kind 3: no index appended
                b.record(TraceBufferFormat.ENTRY, n, 0, 5);
                b.record(TraceBufferFormat.EXIT, n, 40, 6); // the same method at another index: written
                b.record(TraceBufferFormat.ENTRY, wideReturn, 0, 7);
                b.record(TraceBufferFormat.ENTRY, narrow, 0, 8);
                b.record(TraceBufferFormat.EXIT, narrow, NARROW_RETURN_BCI, 9); // another method's return index: written
                b.record(TraceBufferFormat.EXIT, wideReturn, WIDE_RETURN_BCI, 11); // no fold (a skip before it), kind 3
                b.recordLeaf(TraceBufferFormat.EXIT, n, NARROW_RETURN_BCI, 12);
                b.recordLeaf(TraceBufferFormat.EXIT_BY_EXCEPTION, n, 0, 14);
                b.flushPublished();
                TraceBuffers.retire(b);
            });
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> items = items(file, "defined-exits");
        assertEquals(List.of(-1L, 0L), items.subList(0, 2).stream().map(BufferedRecords.Item::sequence).toList());
        items = items.subList(2, items.size());
        String w = Integer.toString(wideReturn);
        String m = Integer.toString(n);
        String o = Integer.toString(narrow);
        assertEquals(List.of("+" + w, "-" + w, "+" + m, "-" + m, "+" + m, "-" + m, "+" + w, "+" + o, "-" + o, "-" + w,
                "+" + m, "-" + m, "+" + m, "-!" + m), items.stream().map(BufferedRecords.Item::token).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 11L, 12L, 13L, 14L, 15L),
                items.stream().map(BufferedRecords.Item::sequence).toList());
        assertEquals(List.of(0, WIDE_RETURN_BCI, 0, NARROW_RETURN_BCI, 0, 40, 0, 0, NARROW_RETURN_BCI, WIDE_RETURN_BCI, 0,
                NARROW_RETURN_BCI, 0, 0), items.stream().map(BufferedRecords.Item::bci).toList());
        assertEquals(List.of(false, true, false, true, false, false, false, false, false, true, false, true, false, false),
                items.stream().map(BufferedRecords.Item::defined).toList(), "which exits left their index to the definition");
        assertTrue(!items.get(1).leaf() && items.get(3).leaf() && items.get(11).leaf() && !items.get(9).leaf(),
                "the fold after the commit became an exit record, the others leaf records; one exit is no leaf");
    }

    @Test
    void theFastPathsWriteWhatTheGeneralPathWrites(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        int n = narrow + 3;
        // {kind (0 entry, 1 exit, 2 leaf), id, bci, sequence}: folds (of kind 1 and 3), wide ids,
        // defined returns, a skip (11), then enough calls to fill the buffer several times.
        List<int[]> ops = new java.util.ArrayList<>(List.of(new int[] {0, n, 0, 1}, new int[] {1, n, NARROW_RETURN_BCI, 2},
                new int[] {0, wide, 0, 3}, new int[] {0, narrow, 0, 4}, new int[] {1, narrow, 7, 5}, new int[] {1, wide, 12, 6},
                new int[] {2, wideReturn, WIDE_RETURN_BCI, 7}, new int[] {2, narrow, 5, 9}, new int[] {0, narrow + 1, 0, 12},
                new int[] {1, narrow + 1, 4, 13}, new int[] {0, wideReturn, 0, 14}, new int[] {1, wideReturn, WIDE_RETURN_BCI, 15}));
        int seq = 16;
        for (int i = 0; i < 3000; i++) {
            int id = i % 3 == 0 ? wide : narrow + i % 5;
            ops.add(new int[] {0, id, 0, seq++});
            ops.add(i % 7 == 0 ? new int[] {2, n, NARROW_RETURN_BCI, seq++} : new int[] {1, id, i % 50, seq++});
            if (i % 7 == 0) {
                seq++;
                ops.add(new int[] {1, id, i % 50, seq++});
            }
        }
        int[] fastWrites = new int[1];
        try (Recording r = bufferRecording()) {
            r.start();
            commitDefinitions();
            for (boolean fast : new boolean[] {true, false}) {
                runOrFail(fast ? "fast-paths" : "general-path", () -> {
                    TraceBuffer b = TraceBuffers.create(1);
                    for (int[] op : ops) {
                        if (fast && (op[0] == 0 ? b.entry(op[1], op[3]) : op[0] == 1 ? b.exit(op[1], op[2], op[3]) : b.leaf(op[1], op[2], op[3]))) {
                            fastWrites[0]++;
                        } else if (op[0] == 2) {
                            b.recordLeaf(TraceBufferFormat.EXIT, op[1], op[2], op[3]);
                        } else {
                            b.record(op[0] == 0 ? TraceBufferFormat.ENTRY : TraceBufferFormat.EXIT, op[1], op[2], op[3]);
                        }
                    }
                    TraceBuffers.retire(b);
                });
            }
            r.stop();
            r.dump(file);
        }
        List<BufferedRecords.Item> fast = items(file, "fast-paths");
        List<BufferedRecords.Item> general = items(file, "general-path");
        assertTrue(fastWrites[0] > ops.size() * 9 / 10, "most records took the fast path: " + fastWrites[0] + " of " + ops.size());
        assertEquals(general.size(), fast.size());
        assertEquals(ops.stream().mapToInt(op -> op[0] == 2 ? 2 : 1).sum(), fast.size(), "every record made (a leaf decodes to two)");
        for (int i = 0; i < fast.size(); i++) {
            BufferedRecords.Item f = fast.get(i);
            BufferedRecords.Item g = general.get(i);
            assertEquals(List.of(g.token(), g.sequence(), g.bci(), g.defined(), g.leaf()), List.of(f.token(), f.sequence(), f.bci(), f.defined(), f.leaf()),
                    "record " + i);
        }
    }

    @Test
    void theObjectFastPathsWriteWhatTheGeneralPathWrites(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jfr");
        // Arrays to allocate (the general path takes class id and hash from the array itself).
        Object[] arrays = {new int[0], new int[70], new String[5000], new long[1 << 20], new Object[3]};
        java.util.Random random = new java.util.Random(36);
        // {kind (0 entry, 1 exit, 2 object, 3 array), id or object kind, bci, sequence, class id, hash or array index}
        List<long[]> ops = new java.util.ArrayList<>();
        long seq = 1;
        int[] hashes = {0, 1, 63, 64, 4095, 0x7FFFFFFF, -1, Integer.MIN_VALUE};
        for (int i = 0; i < 4000; i++) {
            int id = i % 3 == 0 ? wide : narrow + i % 5;
            ops.add(new long[] {0, id, 0, seq++, 0, 0});
            int objects = random.nextInt(4);
            for (int j = 0; j < objects; j++) {
                int kind = random.nextInt(3); // ACQUIRE, RELEASE, ALLOC
                int classId = random.nextInt(10) == 0 ? 5000 + random.nextInt(100_000) : random.nextInt(70);
                int hash = random.nextInt(4) == 0 ? hashes[random.nextInt(hashes.length)] : random.nextInt();
                ops.add(new long[] {2, kind, random.nextInt(3) == 0 ? 300 + random.nextInt(70_000) : random.nextInt(64), seq++, classId, hash});
            }
            if (random.nextInt(5) == 0) {
                ops.add(new long[] {3, 0, random.nextInt(200), seq, 0, random.nextInt(arrays.length)});
                seq += TraceBufferFormat.heapParts(TraceBufferFormat.ARRAY_ALLOC);
            }
            if (random.nextInt(17) == 0) {
                seq += 1 + random.nextInt(3); // numbers of other events: a skip, which only the general path writes
            }
            ops.add(new long[] {1, id, i % 50, seq++, 0, 0});
        }
        int[] fastWrites = new int[1];
        try (Recording r = bufferRecording()) {
            r.start();
            commitDefinitions();
            for (boolean fast : new boolean[] {true, false}) {
                runOrFail(fast ? "fast-objects" : "general-objects", () -> {
                    TraceBuffer b = TraceBuffers.create(1);
                    for (long[] op : ops) {
                        int id = (int) op[1];
                        int bci = (int) op[2];
                        long sequence = op[3];
                        boolean done = false;
                        if (op[0] == 0) {
                            done = fast && b.entry(id, sequence);
                            if (!done) {
                                b.record(TraceBufferFormat.ENTRY, id, 0, sequence);
                            }
                        } else if (op[0] == 1) {
                            done = fast && b.exit(id, bci, sequence);
                            if (!done) {
                                b.record(TraceBufferFormat.EXIT, id, bci, sequence);
                            }
                        } else if (op[0] == 2) {
                            done = fast && b.object(id, (int) op[4], (int) op[5], bci, sequence);
                            if (!done) {
                                b.recordObject(id, (int) op[4], (int) op[5], bci, sequence);
                            }
                        } else {
                            Object array = arrays[(int) op[5]];
                            done = fast && b.array(java.lang.reflect.Array.getLength(array), bci, ClassIds.of(array.getClass()),
                                    System.identityHashCode(array), sequence);
                            if (!done) {
                                b.recordHeap(TraceBufferFormat.ARRAY_ALLOC, java.lang.reflect.Array.getLength(array), bci, array, null, null,
                                        sequence, TraceBufferFormat.heapParts(TraceBufferFormat.ARRAY_ALLOC));
                            }
                        }
                        if (done && op[0] >= 2) {
                            fastWrites[0]++;
                        }
                    }
                    TraceBuffers.retire(b);
                });
            }
            r.stop();
            r.dump(file);
        }
        long objectOps = ops.stream().filter(op -> op[0] >= 2).count();
        assertTrue(fastWrites[0] > objectOps * 9 / 10, "most object records took the fast path: " + fastWrites[0] + " of " + objectOps);
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        String fast = unstamped(events, "fast-objects");
        String general = unstamped(events, "general-objects");
        assertTrue(general.length() > 40_000, "the records fill several buffers: " + general.length() + " chars");
        assertEquals(general, fast, "the same records, char for char but for the time stamps");
        long count = events.stream().filter(e -> e.getEventType().getName().equals(EventNames.METHOD_BUFFER))
                .filter(e -> "fast-objects".equals(e.getString("tracedThreadName")))
                .mapToLong(e -> e.getInt("recordCount")).sum();
        assertEquals(ops.stream().mapToInt(op -> op[0] == 3 ? 2 : 1).sum(), count, "every record made (an array's allocation counts two)");
    }

    /**
     * The records of {@code thread}'s buffer events in sequence order, each without its time
     * (stamped bit and delta): what the fast and the general path write alike, as the clock may
     * have moved between the two runs.
     */
    private static String unstamped(List<RecordedEvent> events, String thread) {
        StringBuilder out = new StringBuilder();
        events.stream().filter(e -> e.getEventType().getName().equals(EventNames.METHOD_BUFFER))
                .filter(e -> thread.equals(e.getString("tracedThreadName")))
                .sorted(java.util.Comparator.comparingLong(e -> e.getLong("firstSequence")))
                .forEach(e -> {
                    String s = e.getString("records");
                    int[] p = {0};
                    while (p[0] < s.length()) {
                        int h = s.charAt(p[0]++);
                        out.append((char) (h & ~TraceBufferFormat.STAMPED));
                        int fields;
                        if (h == TraceBufferFormat.SKIP_HEADER) {
                            fields = 1;
                        } else if ((h & TraceBufferFormat.HEAP) != 0) {
                            fields = 2 + 2 * TraceBufferFormat.heapObjects(TraceBufferFormat.heapKind(h));
                        } else if ((h & TraceBufferFormat.OBJECT) != 0) {
                            fields = 3;
                        } else {
                            if ((h & TraceBufferFormat.WIDE_ID) != 0) {
                                out.append(s, p[0], p[0] + TraceBufferFormat.WIDE_ID_CHARS);
                                p[0] += TraceBufferFormat.WIDE_ID_CHARS;
                                fields = 0;
                            } else {
                                fields = 1;
                            }
                            fields += (h & TraceBufferFormat.KIND_MASK) == TraceBufferFormat.EXIT ? 1 : 0;
                        }
                        for (int f = 0; f < fields; f++) {
                            int from = p[0];
                            while ((s.charAt(p[0]++) & TraceBufferFormat.VARINT_MORE) != 0) {
                                // the varint's chars
                            }
                            out.append(s, from, p[0]);
                        }
                        if ((h & TraceBufferFormat.STAMPED) != 0) {
                            while ((s.charAt(p[0]++) & TraceBufferFormat.VARINT_MORE) != 0) {
                                // the time delta, left out
                            }
                        }
                    }
                });
        return out.toString();
    }

    /** Runs {@code body} on a thread of that name; what it throws fails the test. */
    private static void runOrFail(String name, Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        TraceTest.runIn(name, () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        if (failure.get() != null) {
            throw new AssertionError(name + " failed", failure.get());
        }
    }

    private static Recording bufferRecording() {
        Recording r = new Recording();
        r.enable(EventNames.METHOD_BUFFER);
        r.enable(EventNames.METHOD_DEFINITION);
        return r;
    }

    /** The definitions of this class's ids with their return indexes, as the agent commits them, for the tests' reader. */
    private static void commitDefinitions() {
        for (int id : new int[] {wide, wideReturn, narrow, narrow + 1, narrow + 2, narrow + 3, narrow + 4}) {
            MethodDefinitionEvent e = new MethodDefinitionEvent();
            e.methodId = id;
            e.className = "t.T";
            e.methodName = "m" + id;
            e.descriptor = "()V";
            e.returnBci = MethodRegistry.returnBci(id);
            e.commit();
        }
    }

    /** The thread's decoded records; method names are their ids. */
    private static List<BufferedRecords.Item> items(Path file, String thread) throws Exception {
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Map<Integer, String> names = new java.util.HashMap<>();
        for (int id : new int[] {wide, wideReturn, narrow, narrow + 1, narrow + 2, narrow + 3, narrow + 4}) {
            names.put(id, Integer.toString(id));
        }
        return BufferedRecords.byThread(events, names).get(thread);
    }
}
