package dev.minitrace.converter.jfr.fast;

import dev.minitrace.events.ClassDefinitionEvent;
import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;

/** Makes real recordings in this JVM: minitrace events with known values from several threads. */
final class TestRecordings {
    private TestRecordings() {
    }

    static Recording newRecording() {
        Recording r = new Recording();
        r.enable(MethodEntryEvent.class);
        r.enable(MethodExitEvent.class);
        r.enable(LockAcquireEvent.class);
        r.enable(LockReleaseEvent.class);
        r.enable(ObjectAllocEvent.class);
        r.enable(MethodDefinitionEvent.class);
        r.enable(MethodBufferEvent.class);
        r.enable(ClassDefinitionEvent.class);
        r.enable("jdk.GarbageCollection");
        r.enable("jdk.GCPhasePause");
        r.enable("jdk.ThreadStart");
        r.enable("jdk.ThreadEnd");
        r.enable("jdk.DataLoss");
        // Noise the reader must skip by size: events with stack traces and many pools.
        r.enable("jdk.ThreadSleep").withoutThreshold().withStackTrace();
        r.enable("jdk.JavaMonitorWait").withoutThreshold().withStackTrace();
        return r;
    }

    /** Commits {@code perThread} events of every minitrace type from each of {@code threads} threads. */
    static void commitFromThreads(int threads, int perThread, int salt) throws InterruptedException {
        List<Thread> list = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread thread = new Thread(() -> commitEvents(id, perThread, salt), "mt-test-" + salt + "-" + t);
            list.add(thread);
            thread.start();
        }
        for (Thread thread : list) {
            thread.join();
        }
    }

    /** On JDK 21+, commits from a virtual thread too (reflection: the code is compiled for 17). */
    static boolean commitFromVirtualThread(int perThread, int salt) throws InterruptedException {
        Method start;
        try {
            start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            return false;
        }
        Thread t;
        try {
            t = (Thread) start.invoke(null, (Runnable) () -> commitEvents(99, perThread, salt));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        t.join();
        return true;
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+
    static void commitEvents(int threadIndex, int count, int salt) {
        long sequence = 1;
        Object monitor = new Object();
        for (int i = 0; i < count; i++) {
            int methodId = salt * 100_000 + threadIndex * 10_000 + (i % 500);
            MethodEntryEvent entry = new MethodEntryEvent();
            entry.methodId = methodId;
            entry.sequence = sequence++;
            entry.commit();

            LockAcquireEvent acquire = new LockAcquireEvent();
            acquire.monitorClass = (i & 1) == 0 ? Object.class : String[].class;
            acquire.identityHash = System.identityHashCode(monitor) ^ i;
            acquire.bytecodeIndex = i % 300;
            acquire.sequence = sequence++;
            acquire.commit();

            ObjectAllocEvent alloc = new ObjectAllocEvent();
            alloc.objectClass = (i % 3) == 0 ? TestRecordings.class : int[].class;
            alloc.identityHash = -i * 7919; // negative values too
            alloc.bytecodeIndex = 65_000 + (i % 500);
            alloc.sequence = sequence++;
            alloc.commit();

            LockReleaseEvent release = new LockReleaseEvent();
            release.monitorClass = acquire.monitorClass;
            release.identityHash = acquire.identityHash;
            release.bytecodeIndex = (i % 300) + 1;
            release.sequence = sequence++;
            release.commit();

            MethodExitEvent exit = new MethodExitEvent();
            exit.methodId = methodId;
            exit.exceptional = i % 7 == 0;
            exit.bytecodeIndex = exit.exceptional ? 0 : i % 1000;
            exit.sequence = sequence++;
            exit.commit();

            if (i % 97 == 0) {
                MethodDefinitionEvent def = new MethodDefinitionEvent();
                def.methodId = methodId;
                // Lengths 16..128 go through JFR's string pool; others are written inline.
                def.className = (i % 2 == 0) ? "com.example.deeply.nested.pkg.Klass" + i : "p.K" + i;
                def.methodName = (i % 3 == 0) ? "m\u00e9thode" + i : "\u043c\u0435\u0442\u043e\u0434" + i;
                def.descriptor = "(IJLjava/lang/String;)V";
                def.modifiers = i & 0xFFF;
                def.commit();

                // object records (and a method record) packed in a buffer, their class by id
                ClassDefinitionEvent cls = new ClassDefinitionEvent();
                cls.classId = 1000 + i;
                cls.className = (i % 2 == 0) ? "[Ljava.lang.String;" : "p.K" + i;
                cls.commit();
                MethodBufferEvent buffer = new MethodBufferEvent();
                buffer.tracedThread = Thread.currentThread();
                buffer.tracedThreadId = Thread.currentThread().getId();
                buffer.tracedThreadName = Thread.currentThread().getName();
                buffer.firstSequence = sequence;
                buffer.recordCount = 3;
                buffer.ticksPerSecond = 1_000_000_000L;
                buffer.records = new dev.minitrace.converter.jfr.TraceBufferEncoder().alloc(1000 + i, -i, 4, 3)
                        .acquire(1000 + i, i, 7, -1).entry(methodId, 9).records();
                buffer.commit();
                sequence += 3;
            }
        }
    }

    /** One recording with a chunk rotation in the middle (a second recording starts and stops). */
    static Path multiChunk(Path dir, String name, int threads, int perThread) throws Exception {
        Path file = dir.resolve(name);
        try (Recording outer = newRecording()) {
            outer.start();
            commitFromThreads(threads, perThread, 1);
            System.gc();
            try (Recording inner = newRecording()) {
                inner.start(); // starting a recording rotates the chunk
                commitFromThreads(threads, perThread, 2);
                inner.stop(); // and so does stopping one
            }
            commitFromThreads(threads, perThread, 3);
            commitFromVirtualThread(perThread, 4);
            System.gc();
            outer.stop();
            outer.dump(file);
        }
        return file;
    }

    /** A one-chunk recording of {@code threads} threads. */
    static Path singleChunk(Path dir, String name, int threads, int perThread) throws Exception {
        Path file = dir.resolve(name);
        try (Recording r = newRecording()) {
            r.start();
            commitFromThreads(threads, perThread, 5);
            r.stop();
            r.dump(file);
        }
        return file;
    }

    /** Writes the concatenation of {@code parts}: JFR files are sequences of chunks. */
    static Path concatenate(Path target, Path... parts) throws IOException {
        try (OutputStream out = Files.newOutputStream(target)) {
            for (Path p : parts) {
                Files.copy(p, out);
            }
        }
        return target;
    }
}
