package dev.minitrace.converter;

import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import jdk.jfr.Recording;

/**
 * Makes real recordings in-process: worker threads commit minitrace events with known method ids,
 * classes, hashes, bytecode indexes and sequences, in two phases separated by a System.gc() that
 * every worker waits for. The expected trace of each worker is returned as text lines
 * ({@code TYPE subject bci}) for exact comparison.
 */
public final class TestRecordings {
    /** A recording and what each worker (by thread name) committed, in order. */
    public record Traced(Path file, Map<String, List<String>> expected) {
    }

    private TestRecordings() {
    }

    /** Records {@code threads} workers doing {@code rounds} rounds per phase into {@code file}. */
    public static Traced record(Path file, int threads, int rounds) throws Exception {
        return record(file, threads, rounds, false);
    }

    /** As {@link #record(Path, int, int)}; with {@code rotate}, the recording has more than one chunk. */
    public static Traced record(Path file, int threads, int rounds, boolean rotate) throws Exception {
        return record(file, threads, rounds, rotate, null);
    }

    /**
     * As {@link #record(Path, int, int, boolean)}; {@code background}, when not null, runs on thread
     * "background" from the start of the recording until it returns, before the recording stops.
     */
    public static Traced record(Path file, int threads, int rounds, boolean rotate, Runnable background) throws Exception {
        Map<String, List<String>> expected = new TreeMap<>();
        CyclicBarrier phase = new CyclicBarrier(threads + 1);
        try (Recording rec = new Recording()) {
            rec.enable(MethodEntryEvent.class);
            rec.enable(MethodExitEvent.class);
            rec.enable(LockAcquireEvent.class);
            rec.enable(LockReleaseEvent.class);
            rec.enable(ObjectAllocEvent.class);
            rec.enable(MethodDefinitionEvent.class);
            rec.enable("jdk.GarbageCollection");
            rec.enable("jdk.GCPhasePause");
            rec.start();
            define(1, "demo.Outer", "run", "()V");
            define(2, "demo.Inner", "<init>", "(I)V");
            define(3, "demo.Inner", "work", "([I)I");
            Thread bg = background == null ? null : new Thread(background, "background");
            if (bg != null) {
                bg.start();
            }
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String name = "worker-" + t;
                List<String> trace = new ArrayList<>();
                expected.put(name, trace);
                int salt = t;
                Thread w = new Thread(() -> {
                    long[] seq = {0};
                    try {
                        for (int p = 0; p < 2; p++) {
                            for (int r = 0; r < rounds; r++) {
                                round(seq, trace, salt * 1000 + p * 100 + r);
                            }
                            phase.await();
                            phase.await();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, name);
                workers.add(w);
                w.start();
            }
            phase.await();
            System.gc();
            if (rotate) {
                // starting and stopping another recording rotates the chunk: the file gets several chunks
                try (Recording other = new Recording()) {
                    other.start();
                    other.stop();
                }
                System.gc(); // a GC in a later chunk too
            }
            phase.await();
            phase.await();
            phase.await();
            for (Thread w : workers) {
                w.join();
            }
            if (bg != null) {
                bg.join();
            }
            rec.stop();
            rec.dump(file);
        }
        return new Traced(file, expected);
    }

    /**
     * The trace a worker of {@link #record} commits, computed without recording: what a child JVM's
     * worker {@code name} ({@code worker-<t>}) wrote with {@code rounds} rounds per phase.
     */
    public static List<String> expectedTrace(String name, int rounds) {
        int t = Integer.parseInt(name.substring(name.indexOf('-') + 1));
        List<String> trace = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            for (int r = 0; r < rounds; r++) {
                int hash = t * 1000 + p * 100 + r;
                trace.add("METHOD_ENTRY 1 0");
                trace.add("OBJECT_ALLOC [I@" + Integer.toHexString(hash) + " 4");
                trace.add("METHOD_ENTRY 2 0");
                trace.add("METHOD_EXIT 2 9");
                trace.add("LOCK_ACQUIRE java.lang.Object@" + Integer.toHexString(hash + 7) + " 12");
                trace.add("METHOD_ENTRY 3 0");
                trace.add("METHOD_EXIT 3 0");
                trace.add("LOCK_RELEASE java.lang.Object@" + Integer.toHexString(hash + 7) + " 20");
                trace.add("METHOD_EXIT 1 31");
            }
        }
        return trace;
    }

    private static void define(int id, String cls, String name, String desc) {
        MethodDefinitionEvent d = new MethodDefinitionEvent();
        d.methodId = id;
        d.className = cls;
        d.methodName = name;
        d.descriptor = desc;
        d.commit();
    }

    /** One round: run() { new int[]; Inner.<init>; synchronized { work() }; } with exits by return and by exception. */
    private static void round(long[] seq, List<String> trace, int hash) {
        entry(seq, trace, 1);
        alloc(seq, trace, int[].class, hash, 4);
        entry(seq, trace, 2);
        exit(seq, trace, 2, 9, false);
        lock(seq, trace, true, Object.class, hash + 7, 12);
        entry(seq, trace, 3);
        exit(seq, trace, 3, 0, true);
        lock(seq, trace, false, Object.class, hash + 7, 20);
        exit(seq, trace, 1, 31, false);
    }

    static void entry(long[] seq, List<String> trace, int id) {
        MethodEntryEvent e = new MethodEntryEvent();
        e.methodId = id;
        e.sequence = ++seq[0];
        e.commit();
        trace.add("METHOD_ENTRY " + id + " 0");
    }

    static void exit(long[] seq, List<String> trace, int id, int bci, boolean exceptional) {
        MethodExitEvent e = new MethodExitEvent();
        e.methodId = id;
        e.bytecodeIndex = bci;
        e.exceptional = exceptional;
        e.sequence = ++seq[0];
        e.commit();
        trace.add("METHOD_EXIT " + id + " " + bci);
    }

    static void alloc(long[] seq, List<String> trace, Class<?> c, int hash, int bci) {
        ObjectAllocEvent e = new ObjectAllocEvent();
        e.objectClass = c;
        e.identityHash = hash;
        e.bytecodeIndex = bci;
        e.sequence = ++seq[0];
        e.commit();
        trace.add("OBJECT_ALLOC " + c.getName() + "@" + Integer.toHexString(hash) + " " + bci);
    }

    static void lock(long[] seq, List<String> trace, boolean acquire, Class<?> c, int hash, int bci) {
        if (acquire) {
            LockAcquireEvent e = new LockAcquireEvent();
            e.monitorClass = c;
            e.identityHash = hash;
            e.bytecodeIndex = bci;
            e.sequence = ++seq[0];
            e.commit();
        } else {
            LockReleaseEvent e = new LockReleaseEvent();
            e.monitorClass = c;
            e.identityHash = hash;
            e.bytecodeIndex = bci;
            e.sequence = ++seq[0];
            e.commit();
        }
        trace.add((acquire ? "LOCK_ACQUIRE " : "LOCK_RELEASE ") + c.getName() + "@" + Integer.toHexString(hash) + " " + bci);
    }
}
