package dev.minitrace.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * A recording read back with {@link RecordingFile}: method ids resolved through the
 * {@code minitrace.MethodDefinition} events, the minitrace events of each thread in sequence order.
 */
final class Trace {
    /** Method id → "pkg.Class::name". */
    final Map<Integer, String> methods = new HashMap<>();
    /** Thread name → its minitrace events (those with a sequence), sorted by sequence. */
    final Map<String, List<RecordedEvent>> byThread = new HashMap<>();
    /** Event type → count, over the whole recording. */
    final Map<String, Integer> counts = new HashMap<>();
    /** Method ids used by entry/exit events that no definition resolves. */
    final List<Integer> unresolved = new ArrayList<>();

    private Trace() {
    }

    static Trace read(Path recording) throws IOException {
        Trace t = new Trace();
        List<RecordedEvent> withIds = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            t.counts.merge(type, 1, Integer::sum);
            if (type.equals("minitrace.MethodDefinition")) {
                t.methods.put(e.getInt("methodId"), e.getString("className") + "::" + e.getString("methodName"));
            } else if (type.startsWith("minitrace.")) {
                String thread = e.getThread() == null ? "?" : e.getThread().getJavaName();
                t.byThread.computeIfAbsent(thread, k -> new ArrayList<>()).add(e);
                if (e.hasField("methodId")) {
                    withIds.add(e);
                }
            }
        }
        for (List<RecordedEvent> events : t.byThread.values()) {
            events.sort(Comparator.comparingLong(e -> e.getLong("sequence")));
        }
        for (RecordedEvent e : withIds) {
            if (!t.methods.containsKey(e.getInt("methodId"))) {
                t.unresolved.add(e.getInt("methodId"));
            }
        }
        return t;
    }

    /** Number of events of {@code type} in {@code thread} for the method "pkg.Class::name". */
    int count(String thread, String type, String method) {
        int n = 0;
        for (RecordedEvent e : byThread.getOrDefault(thread, List.of())) {
            if (e.getEventType().getName().equals(type) && method.equals(methods.get(e.getInt("methodId")))) {
                n++;
            }
        }
        return n;
    }

    /** Number of events of {@code type} in {@code thread}. */
    int count(String thread, String type) {
        int n = 0;
        for (RecordedEvent e : byThread.getOrDefault(thread, List.of())) {
            if (e.getEventType().getName().equals(type)) {
                n++;
            }
        }
        return n;
    }

    /** Number of exceptional exits of "pkg.Class::name" in {@code thread}. */
    int exceptionalExits(String thread, String method) {
        int n = 0;
        for (RecordedEvent e : byThread.getOrDefault(thread, List.of())) {
            if (e.getEventType().getName().equals("minitrace.MethodExit") && e.getBoolean("exceptional")
                    && method.equals(methods.get(e.getInt("methodId")))) {
                n++;
            }
        }
        return n;
    }

    /** Number of events of {@code type} in {@code thread} whose class field {@code field} names {@code className}. */
    int countWithClass(String thread, String type, String field, String className) {
        int n = 0;
        for (RecordedEvent e : byThread.getOrDefault(thread, List.of())) {
            if (e.getEventType().getName().equals(type)) {
                RecordedClass c = e.getValue(field);
                if (c != null && c.getName().equals(className)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** True if the thread's sequence numbers are exactly 1, 2, ..., n. */
    boolean sequenceIsContiguous(String thread) {
        long expected = 1;
        for (RecordedEvent e : byThread.getOrDefault(thread, List.of())) {
            if (e.getLong("sequence") != expected++) {
                return false;
            }
        }
        return expected > 1;
    }
}
