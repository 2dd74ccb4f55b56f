package dev.minitrace.converter;

import dev.minitrace.converter.jfr.JfrChunk;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.TraceBufferEncoder;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.events.ClassDefinitionEvent;
import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Makes real in-process recordings in which method entries and exits are packed into
 * {@code minitrace.MethodBuffer} events, without the agent: each worker thread packs its records
 * with {@link TraceBufferEncoder} (written from {@code docs/trace-buffer.md}) and commits a buffer
 * event when its buffer is full (7 records for the first worker, 30 more for each next one, so that
 * the records strings are both short and longer than 128 chars), while it commits its lock and allocation events
 * directly with sequences in between (skip records in the buffers). Between the two phases and at
 * the end, the main thread commits every worker's partly filled buffer on its behalf (the event's
 * thread is then main, its {@code tracedThread} the worker), and between the phases the chunk is
 * rotated. Stamps follow a fixed pattern and a synthetic tick clock that starts at JFR's real tick
 * count (read from a probe recording), so the expected time of every record is known exactly.
 */
public final class MethodBufferRecordings {
    /** Method records per buffer event of the first worker (not a multiple of the 6 records of a round). */
    static final int RECORDS_PER_EVENT = 7;

    /**
     * A recording and what it must convert to: per worker, the trace as lines {@code TYPE subject bci}
     * ({@link MtlogContent}'s thread layout); the method events as an engine must deliver them
     * ({@code type thread sequence timeNanos methodId bci}); the number of buffer events and of
     * method records committed.
     */
    public record Traced(Path file, Map<String, List<String>> expected, List<String> methodEvents, long bufferEvents,
            long methodRecords) {
    }

    /** The agent's class ids in object-record mode (the second takes two varint chars). */
    static final int INT_ARRAY_ID = 1;
    static final int OBJECT_ID = 4097;
    /** Added to the lock hashes: above {@code Integer.MAX_VALUE} as unsigned, so the hash varint needs all 32 bits. */
    static final int LOCK_HASH_BASE = 0x9E370000;

    private MethodBufferRecordings() {
    }

    /** One traced thread's buffer state; touched by the worker, and by main while the worker waits at a barrier. */
    private static final class Tracer {
        final String name;
        final List<String> trace = new ArrayList<>();
        /** Per method record: type, sequence, baseTicks, recordTicks, methodId, bci. */
        final List<long[]> records = new ArrayList<>();
        Thread thread;
        long sequence;
        long clock;
        long lastStamp;
        long ticksPerSecond;
        TraceBufferEncoder buffer;
        long firstSequence;
        long baseTicks;
        int pendingSkip;
        int events;
        /** Object records written into buffers (object-record mode). */
        int objectRecords;
        /** True: locks and allocations go into the buffer as object records, not as their own events. */
        boolean buffered;
        int capacity;

        Tracer(String name) {
            this.name = name;
        }

        /** Starts the next buffered record: opens a buffer or writes the pending skip, advances clock and sequence. */
        private long next(boolean stamped) {
            if (buffer == null) {
                buffer = new TraceBufferEncoder();
                firstSequence = sequence + 1;
                baseTicks = lastStamp; // the thread's last timestamp before the first record
            } else if (pendingSkip > 0) {
                buffer.skip(pendingSkip);
                pendingSkip = 0;
            }
            clock += 1_000 + name.length() * 7L;
            sequence++;
            if (stamped) {
                lastStamp = clock;
            }
            return stamped ? clock - baseTicks : -1;
        }

        /** A buffered object record (kind 0 acquire, 1 release, 2 allocation) with the trace line it must give. */
        void object(int kind, int classId, int hash, int bci, boolean stamped, String line) {
            long since = next(stamped);
            switch (kind) {
                case 0 -> buffer.acquire(classId, hash, bci, since);
                case 1 -> buffer.release(classId, hash, bci, since);
                default -> buffer.alloc(classId, hash, bci, since);
            }
            trace.add(line);
            objectRecords++;
            if (buffer.count() == capacity) {
                flush();
            }
        }

        void method(int kind, int methodId, int bci, boolean stamped) {
            long since = next(stamped);
            switch (kind) {
                case 0 -> buffer.entry(methodId, since);
                case 1 -> buffer.exit(methodId, bci, since);
                default -> buffer.thrown(methodId, since);
            }
            int type = kind == 0 ? MtlogFormat.METHOD_ENTRY : MtlogFormat.METHOD_EXIT;
            int b = kind == 1 ? bci : 0;
            trace.add(MtlogFormat.typeName(type) + " " + methodId + " " + b);
            records.add(new long[] {type, sequence, baseTicks, lastStamp, methodId, b});
            if (buffer.count() == capacity) {
                flush();
            }
        }

        /** The next sequence number for a lock or allocation event committed directly. */
        long objectEvent(String line) {
            if (buffer != null) {
                pendingSkip++;
            }
            trace.add(line);
            return ++sequence;
        }

        /** Commits the buffer (from whichever thread calls this) and starts a new one at the next record. */
        void flush() {
            if (buffer == null) {
                return;
            }
            commit(thread, firstSequence, baseTicks, ticksPerSecond, buffer);
            events++;
            buffer = null;
            pendingSkip = 0; // the next buffer's firstSequence covers what was skipped since
        }
    }

    /** Records {@code threads} workers doing {@code rounds} rounds in each of two phases into {@code file}. */
    public static Traced record(Path file, int threads, int rounds) throws Exception {
        return record(file, threads, rounds, false);
    }

    /**
     * As {@link #record(Path, int, int)}; with {@code objectRecords} the same trace, but the locks and
     * allocations are object records in the buffers, and main (another thread) commits the
     * {@code minitrace.ClassDefinition} events after the workers' records of each phase, in the same
     * chunk (so after the records that use them), once per chunk. {@code methodEvents} and
     * {@code methodRecords} count method records only.
     */
    public static Traced record(Path file, int threads, int rounds, boolean objectRecords) throws Exception {
        long[] clock = probeTicks(file.resolveSibling(file.getFileName() + ".probe.jfr"));
        List<Tracer> tracers = new ArrayList<>();
        CyclicBarrier phase = new CyclicBarrier(threads + 1);
        try (Recording rec = new Recording()) {
            rec.enable(MethodBufferEvent.class);
            rec.enable(LockAcquireEvent.class);
            rec.enable(LockReleaseEvent.class);
            rec.enable(ObjectAllocEvent.class);
            rec.enable(MethodDefinitionEvent.class);
            rec.enable(ClassDefinitionEvent.class);
            rec.start();
            define(1, "demo.Outer", "run", "()V");
            define(70, "demo.Inner", "<init>", "(I)V");
            define(5000, "demo.Inner", "work", "([I)I");
            for (int t = 0; t < threads; t++) {
                Tracer tr = new Tracer("buffered-" + t);
                tr.buffered = objectRecords;
                tr.ticksPerSecond = clock[1];
                tr.capacity = RECORDS_PER_EVENT + 30 * t;
                tr.clock = clock[0] + t * (clock[1] / 3000); // a third of a millisecond apart
                tr.lastStamp = tr.clock;
                int salt = t;
                tr.thread = new Thread(() -> {
                    try {
                        for (int p = 0; p < 2; p++) {
                            for (int r = 0; r < rounds; r++) {
                                round(tr, salt * 1000 + p * 100 + r);
                            }
                            phase.await();
                            phase.await();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, tr.name);
                tracers.add(tr);
            }
            for (Tracer tr : tracers) {
                tr.thread.start();
            }
            for (int p = 0; p < 2; p++) {
                phase.await();
                // the workers wait: main commits their partly filled buffers, as JFR's periodic thread does
                for (Tracer tr : tracers) {
                    tr.flush();
                }
                if (objectRecords) { // after the records that use them, in the same chunk
                    defineClass(INT_ARRAY_ID, int[].class.getName());
                    defineClass(OBJECT_ID, Object.class.getName());
                }
                if (p == 0) {
                    try (Recording other = new Recording()) { // rotates the chunk
                        other.start();
                        other.stop();
                    }
                }
                phase.await();
            }
            for (Tracer tr : tracers) {
                tr.thread.join();
            }
            rec.stop();
            rec.dump(file);
        }
        JfrChunk first = JfrChunks.scan(file).chunks().get(0);
        Map<String, List<String>> expected = new TreeMap<>();
        List<String> events = new ArrayList<>();
        long bufferEvents = 0;
        long methodRecords = 0;
        for (Tracer tr : tracers) {
            expected.put(tr.name, tr.trace);
            bufferEvents += tr.events;
            methodRecords += tr.records.size();
            for (long[] r : tr.records) {
                events.add(r[0] + " " + tr.name + " " + r[1] + " " + expectedTime(first, r[2], r[3], tr.ticksPerSecond)
                        + " " + r[4] + " " + r[5]);
            }
        }
        return new Traced(file, expected, events, bufferEvents, methodRecords);
    }

    /**
     * A record's time by docs/trace-buffer.md: {@code time(baseTime) + (long) ((ticks - baseTime) * (1e9 /
     * ticksPerSecond))}, with {@code time} as JFR converts ticks for the whole file (first chunk's header).
     */
    static long expectedTime(JfrChunk first, long baseTicks, long ticks, long ticksPerSecond) {
        long base = first.startNanos() + (long) ((baseTicks - first.startTicks()) / ((double) first.ticksPerSecond() / 1e9));
        return base + (long) ((ticks - baseTicks) * (1e9 / ticksPerSecond));
    }

    /**
     * Two threads ("early", "late") that commit nothing themselves; main commits one buffer event
     * for each, with records whose stamps interleave in time (one unstamped). Returns the order
     * the global layout must give, as {@link MtlogContent#global} lines.
     */
    public static List<String> recordInterleaved(Path file) throws Exception {
        long[] clock = probeTicks(file.resolveSibling(file.getFileName() + ".probe.jfr"));
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Runnable idle = () -> {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread early = new Thread(idle, "early");
        Thread late = new Thread(idle, "late");
        early.start();
        late.start();
        try (Recording rec = new Recording()) {
            rec.enable(MethodBufferEvent.class);
            rec.enable(MethodDefinitionEvent.class);
            rec.start();
            define(1, "demo.Outer", "run", "()V");
            define(70, "demo.Inner", "<init>", "(I)V");
            define(5000, "demo.Inner", "work", "([I)I");
            long step = Math.max(1_000, clock[1] / 1_000_000); // at least a microsecond
            commit(early, 1, clock[0], clock[1],
                    new TraceBufferEncoder().entry(1, 0).entry(70, 2 * step).exit(70, 9, -1).exit(1, 131, 4 * step));
            commit(late, 1, clock[0], clock[1], new TraceBufferEncoder().entry(5000, step).thrown(5000, 3 * step));
            rec.stop();
            rec.dump(file);
        } finally {
            done.countDown();
            early.join();
            late.join();
        }
        return List.of("early: METHOD_ENTRY 1 0", "late: METHOD_ENTRY 5000 0", "early: METHOD_ENTRY 70 0",
                "early: METHOD_EXIT 70 ?", "late: METHOD_EXIT 5000 ?", "early: METHOD_EXIT 1 ?");
    }

    /** Commits one buffer event for {@code traced} from the calling thread. */
    public static void commit(Thread traced, long firstSequence, long baseTicks, long ticksPerSecond, TraceBufferEncoder records) {
        commit(traced, firstSequence, records.count(), baseTicks, ticksPerSecond, records.records());
    }

    /** Commits one buffer event with the given fields as they are (also wrong ones). */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+
    public static void commit(Thread traced, long firstSequence, int recordCount, long baseTicks, long ticksPerSecond,
            String records) {
        commit(traced, traced == null ? 0 : traced.getId(), traced == null ? null : traced.getName(), firstSequence,
                recordCount, baseTicks, ticksPerSecond, records);
    }

    /**
     * Commits one buffer event with the given fields as they are; {@code traced} null with a Java
     * thread id and name is what JDK 17 writes for a thread that has ended.
     */
    public static void commit(Thread traced, long tracedThreadId, String tracedThreadName, long firstSequence,
            int recordCount, long baseTicks, long ticksPerSecond, String records) {
        MethodBufferEvent e = new MethodBufferEvent();
        e.tracedThread = traced;
        e.tracedThreadId = tracedThreadId;
        e.tracedThreadName = tracedThreadName;
        e.firstSequence = firstSequence;
        e.recordCount = recordCount;
        e.baseTime = baseTicks;
        e.ticksPerSecond = ticksPerSecond;
        e.records = records;
        e.commit();
    }

    /** One round: run() { new int[]; Inner.<init>; synchronized { work() throws }; } */
    private static void round(Tracer tr, int hash) {
        tr.method(0, 1, 0, true);
        alloc(tr, hash, 4);
        tr.method(0, 70, 0, false);
        tr.method(1, 70, 9, false);
        lock(tr, true, hash + 7, 12);
        tr.method(0, 5000, 0, true);
        tr.method(2, 5000, 0, true);
        lock(tr, false, hash + 7, 20);
        tr.method(1, 1, 131, false);
    }

    private static void alloc(Tracer tr, int hash, int bci) {
        if (tr.buffered) {
            tr.object(2, INT_ARRAY_ID, hash, bci, false, "OBJECT_ALLOC [I@" + Integer.toHexString(hash) + " " + bci);
            return;
        }
        ObjectAllocEvent e = new ObjectAllocEvent();
        e.objectClass = int[].class;
        e.identityHash = hash;
        e.bytecodeIndex = bci;
        e.sequence = tr.objectEvent("OBJECT_ALLOC [I@" + Integer.toHexString(hash) + " " + bci);
        e.commit();
    }

    private static void lock(Tracer tr, boolean acquire, int h, int bci) {
        int hash = LOCK_HASH_BASE + h;
        String line = (acquire ? "LOCK_ACQUIRE " : "LOCK_RELEASE ") + "java.lang.Object@" + Integer.toHexString(hash) + " " + bci;
        if (tr.buffered) {
            tr.object(acquire ? 0 : 1, OBJECT_ID, hash, bci, acquire, line);
            return;
        }
        if (acquire) {
            LockAcquireEvent e = new LockAcquireEvent();
            e.monitorClass = Object.class;
            e.identityHash = hash;
            e.bytecodeIndex = bci;
            e.sequence = tr.objectEvent(line);
            e.commit();
        } else {
            LockReleaseEvent e = new LockReleaseEvent();
            e.monitorClass = Object.class;
            e.identityHash = hash;
            e.bytecodeIndex = bci;
            e.sequence = tr.objectEvent(line);
            e.commit();
        }
    }

    /** Commits a class definition (the agent's class id of buffered object records). */
    public static void defineClass(int id, String className) {
        ClassDefinitionEvent d = new ClassDefinitionEvent();
        d.classId = id;
        d.className = className;
        d.commit();
    }

    /** Commits a method definition. */
    public static void define(int id, String cls, String name, String desc) {
        MethodDefinitionEvent d = new MethodDefinitionEvent();
        d.methodId = id;
        d.className = cls;
        d.methodName = name;
        d.descriptor = desc;
        d.commit();
    }

    /** JFR's tick count now (a probe event's start) and its frequency, from a probe recording. */
    static long[] probeTicks(Path probe) throws Exception {
        try (Recording rec = new Recording()) {
            rec.enable(MethodDefinitionEvent.class);
            rec.start();
            define(0, "probe", "probe", "()V");
            rec.stop();
            rec.dump(probe);
        }
        try {
            long ticks = -1;
            for (RecordedEvent e : RecordingFile.readAllEvents(probe)) {
                ticks = e.getLong("startTime"); // raw ticks, as the converter reads them
            }
            return new long[] {ticks, JfrChunks.scan(probe).chunks().get(0).ticksPerSecond()};
        } finally {
            Files.deleteIfExists(probe);
        }
    }
}
