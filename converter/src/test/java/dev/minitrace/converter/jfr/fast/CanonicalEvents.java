package dev.minitrace.converter.jfr.fast;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Renders events as one text line each, the same way for the fast reader and for the oracle
 * {@link RecordingFile}, so that two lists can be compared line by line.
 */
final class CanonicalEvents {
    static final Set<String> TYPES = Set.of("minitrace.MethodEntry", "minitrace.MethodExit",
            "minitrace.LockAcquire", "minitrace.LockRelease", "minitrace.ObjectAlloc",
            "minitrace.MethodDefinition", "jdk.GarbageCollection", "jdk.GCPhasePause", "jdk.DataLoss",
            "jdk.MethodTrace", "jdk.ThreadStart", "jdk.ThreadEnd", "minitrace.MethodBuffer",
            "minitrace.ClassDefinition");

    private CanonicalEvents() {
    }

    static String thread(long javaId, String javaName, String osName, long osId, boolean virtual) {
        return javaId + "/" + javaName + "/" + osName + "/" + osId + (virtual ? "/virtual" : "");
    }

    // ---------- oracle: RecordingFile ----------

    static List<String> fromRecordingFile(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                if (TYPES.contains(type)) {
                    out.add(line(e, type));
                }
            }
        }
        return out;
    }

    private static long nanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    static String thread(RecordedThread t) {
        if (t == null) {
            return "none";
        }
        boolean virtual = false;
        try {
            Method m = RecordedThread.class.getMethod("isVirtual");
            virtual = (Boolean) m.invoke(t);
        } catch (ReflectiveOperationException e) {
            // JDK 17: no virtual threads.
        }
        // JDK 17 reports 0 for a non-Java thread where JDK 25 (and the fast reader) report -1.
        long javaId = t.getJavaThreadId() == 0 ? -1 : t.getJavaThreadId();
        return thread(javaId, t.getJavaName(), t.getOSName(), t.getOSThreadId(), virtual);
    }

    private static String className(RecordedClass c) {
        return c == null ? null : c.getName();
    }

    private static String line(RecordedEvent e, String type) {
        String head = type + "|" + thread(e.getThread()) + "|" + nanos(e.getStartTime());
        return switch (type) {
            case "minitrace.MethodEntry" -> head + "|" + e.getInt("methodId") + "|" + e.getLong("sequence");
            case "minitrace.MethodExit" -> head + "|" + e.getInt("methodId") + "|" + e.getInt("bytecodeIndex")
                    + "|" + e.getBoolean("exceptional") + "|" + e.getLong("sequence");
            case "minitrace.LockAcquire", "minitrace.LockRelease" -> head + "|" + className(e.getClass("monitorClass"))
                    + "|" + e.getInt("identityHash") + "|" + e.getInt("bytecodeIndex") + "|" + e.getLong("sequence");
            case "minitrace.ObjectAlloc" -> head + "|" + className(e.getClass("objectClass"))
                    + "|" + e.getInt("identityHash") + "|" + e.getInt("bytecodeIndex") + "|" + e.getLong("sequence");
            case "minitrace.MethodDefinition" -> head + "|" + e.getInt("methodId") + "|" + e.getString("className")
                    + "|" + e.getString("methodName") + "|" + e.getString("descriptor") + "|" + e.getInt("modifiers")
                    + "|" + (e.hasField("returnBci") ? e.getInt("returnBci") : 0); // the fast reader's slot of a missing field is 0
            case "jdk.GarbageCollection" -> head + "|" + e.getDuration().toNanos()
                    + "|" + e.getLong("gcId") + "|" + e.getString("name") + "|" + e.getString("cause")
                    + "|" + e.getDuration("sumOfPauses").toNanos() + "|" + e.getDuration("longestPause").toNanos();
            case "jdk.GCPhasePause" -> head + "|" + e.getDuration().toNanos() + "|" + e.getLong("gcId")
                    + "|" + e.getString("name");
            case "jdk.DataLoss" -> type + "|" + nanos(e.getStartTime()) + "|" + e.getLong("amount") + "|" + e.getLong("total");
            case "jdk.MethodTrace" -> {
                RecordedMethod m = e.getValue("method");
                yield head + "|" + e.getDuration().toNanos() + "|" + className(m.getType()) + "|" + m.getName()
                        + "|" + m.getDescriptor() + "|" + m.getModifiers();
            }
            case "jdk.ThreadStart" -> head + "|" + thread((RecordedThread) e.getValue("thread"))
                    + "|" + thread((RecordedThread) e.getValue("parentThread"));
            case "jdk.ThreadEnd" -> head + "|" + thread((RecordedThread) e.getValue("thread"));
            case "minitrace.MethodBuffer" -> head + "|" + thread((RecordedThread) e.getValue("tracedThread"))
                    + "|" + e.getLong("firstSequence") + "|" + e.getInt("recordCount") + "|" + nanos(e.getInstant("baseTime"))
                    + "|" + e.getLong("ticksPerSecond") + "|" + e.getString("records")
                    + "|" + (e.hasField("tracedThreadId") ? e.getLong("tracedThreadId") : 0)
                    + "|" + (e.hasField("tracedThreadName") && e.getString("tracedThreadName") != null
                            ? e.getString("tracedThreadName") : "");
            case "minitrace.ClassDefinition" -> head + "|" + e.getInt("classId") + "|" + e.getString("className");
            default -> throw new IllegalArgumentException(type);
        };
    }

    // ---------- the fast reader ----------

    /** A sink that renders every event like {@link #fromRecordingFile}. */
    static final class Sink implements JfrEventSink {
        final List<String> lines = new ArrayList<>();
        final List<Integer> eventsPerChunk = new ArrayList<>();
        private ChunkConstants c;
        private int chunkStartSize;

        @Override
        public void onChunkStart(ChunkHeader header, ChunkConstants constants) {
            c = constants;
            chunkStartSize = lines.size();
        }

        @Override
        public void onChunkEnd(ChunkHeader header) {
            eventsPerChunk.add(lines.size() - chunkStartSize);
        }

        private String thread(long ref) {
            if (ref == 0) {
                return "none";
            }
            if (!c.hasThread(ref)) {
                return "unknown-thread-" + ref;
            }
            return CanonicalEvents.thread(c.threadJavaId(ref), c.threadJavaName(ref), c.threadOsName(ref),
                    c.threadOsId(ref), c.threadVirtual(ref));
        }

        private String head(String type, long threadRef, long nanos) {
            return type + "|" + thread(threadRef) + "|" + nanos;
        }

        @Override
        public void onMethodEntry(long threadRef, long startNanos, int methodId, long sequence) {
            lines.add(head("minitrace.MethodEntry", threadRef, startNanos) + "|" + methodId + "|" + sequence);
        }

        @Override
        public void onMethodExit(long threadRef, long startNanos, int methodId, int bytecodeIndex,
                                 boolean exceptional, long sequence) {
            lines.add(head("minitrace.MethodExit", threadRef, startNanos) + "|" + methodId + "|" + bytecodeIndex
                    + "|" + exceptional + "|" + sequence);
        }

        @Override
        public void onLockAcquire(long threadRef, long startNanos, long classRef, int identityHash,
                                  int bytecodeIndex, long sequence) {
            lines.add(head("minitrace.LockAcquire", threadRef, startNanos) + "|" + c.className(classRef)
                    + "|" + identityHash + "|" + bytecodeIndex + "|" + sequence);
        }

        @Override
        public void onLockRelease(long threadRef, long startNanos, long classRef, int identityHash,
                                  int bytecodeIndex, long sequence) {
            lines.add(head("minitrace.LockRelease", threadRef, startNanos) + "|" + c.className(classRef)
                    + "|" + identityHash + "|" + bytecodeIndex + "|" + sequence);
        }

        @Override
        public void onObjectAlloc(long threadRef, long startNanos, long classRef, int identityHash,
                                  int bytecodeIndex, long sequence) {
            lines.add(head("minitrace.ObjectAlloc", threadRef, startNanos) + "|" + c.className(classRef)
                    + "|" + identityHash + "|" + bytecodeIndex + "|" + sequence);
        }

        @Override
        public void onMethodDefinition(long threadRef, long startNanos, int methodId, String className,
                                       String methodName, String descriptor, int modifiers, int returnBci) {
            lines.add(head("minitrace.MethodDefinition", threadRef, startNanos) + "|" + methodId + "|" + className
                    + "|" + methodName + "|" + descriptor + "|" + modifiers + "|" + returnBci);
        }

        @Override
        public void onClassDefinition(long threadRef, long startNanos, int classId, String className, int instanceSize,
                int elementSize, int objectAlignment) {
            lines.add(head("minitrace.ClassDefinition", threadRef, startNanos) + "|" + classId + "|" + className);
        }

        @Override
        public void onGarbageCollection(long threadRef, long startNanos, long durationNanos, long gcId, String name,
                                        String cause, long sumOfPausesNanos, long longestPauseNanos) {
            lines.add(head("jdk.GarbageCollection", threadRef, startNanos) + "|" + durationNanos + "|" + gcId + "|" + name
                    + "|" + cause + "|" + sumOfPausesNanos + "|" + longestPauseNanos);
        }

        @Override
        public void onGcPhasePause(long threadRef, long startNanos, long durationNanos, long gcId, String name) {
            lines.add(head("jdk.GCPhasePause", threadRef, startNanos) + "|" + durationNanos + "|" + gcId + "|" + name);
        }

        @Override
        public void onDataLoss(long startNanos, long amount, long total) {
            lines.add("jdk.DataLoss|" + startNanos + "|" + amount + "|" + total);
        }

        @Override
        public void onMethodTrace(long threadRef, long startNanos, long durationNanos, long methodRef) {
            lines.add(head("jdk.MethodTrace", threadRef, startNanos) + "|" + durationNanos + "|"
                    + c.methodClassName(methodRef) + "|" + c.methodName(methodRef) + "|"
                    + c.methodDescriptor(methodRef) + "|" + c.methodModifiers(methodRef));
        }

        @Override
        public void onThreadStart(long eventThreadRef, long startNanos, long threadRef, long parentThreadRef) {
            lines.add(head("jdk.ThreadStart", eventThreadRef, startNanos) + "|" + thread(threadRef)
                    + "|" + thread(parentThreadRef));
        }

        @Override
        public void onThreadEnd(long eventThreadRef, long startNanos, long threadRef) {
            lines.add(head("jdk.ThreadEnd", eventThreadRef, startNanos) + "|" + thread(threadRef));
        }

        @Override
        public void onMethodBuffer(long threadRef, long startNanos, long tracedThreadRef, long firstSequence,
                int recordCount, long baseTimeNanos, long ticksPerSecond, char[] records, int length, long tracedThreadId,
                char[] tracedThreadName, int nameLength) {
            lines.add(head("minitrace.MethodBuffer", threadRef, startNanos) + "|" + thread(tracedThreadRef) + "|"
                    + firstSequence + "|" + recordCount + "|" + baseTimeNanos + "|" + ticksPerSecond + "|"
                    + new String(records, 0, length) + "|" + tracedThreadId + "|" + new String(tracedThreadName, 0, nameLength));
        }
    }
}
