package dev.minitrace.bench.apps;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * JFR's allocation sampler ({@code jdk.ObjectAllocationSample} with stack traces) read from a
 * recording: its estimate of the bytes allocated (the samples' weights), per class and per
 * allocating frame. The allocating frame is the top frame, or its caller when the top frame is a
 * method through which the JVM copies or makes an array ({@code Object.clone},
 * {@code Array.newInstance}), since MiniTrace reports those at the call. Samples of the tracer
 * itself (threads {@code minitrace-*} and JFR's, frames of the agent's classes) are set apart:
 * a program without the tracer does not make them.
 */
final class SampledAllocations {
    static final String EVENT = "jdk.ObjectAllocationSample";

    long samples;
    double bytes;
    double tracerBytes;
    /** Sampled bytes by class, then by allocating method ({@link RecordedAllocations#method} form, "?" without a stack trace). */
    final Map<String, Map<String, Double>> bytesByClassAndSite = new HashMap<>();
    /** A line of the allocating method that allocated, and the top frame when it is not the allocating one. */
    final Map<String, String> where = new HashMap<>();

    private SampledAllocations() {
    }

    static SampledAllocations read(Path jfr) throws IOException {
        SampledAllocations s = new SampledAllocations();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().equals(EVENT)) {
                    s.add(e);
                }
            }
        }
        return s;
    }

    private void add(RecordedEvent e) {
        samples++;
        double weight = e.getLong("weight");
        RecordedThread thread = e.getThread("eventThread");
        String threadName = thread == null ? "" : thread.getJavaName() == null ? thread.getOSName() : thread.getJavaName();
        // a frame whose method the recording lost (a truncated recording) names nothing
        List<RecordedFrame> frames = e.getStackTrace() == null ? List.of()
                : e.getStackTrace().getFrames().stream().filter(f -> f.getMethod() != null && f.getMethod().getType() != null).toList();
        if (threadName != null && (threadName.startsWith("minitrace-") || threadName.startsWith("JFR ") && !threadName.startsWith("JFR Event Stream"))
                || frames.stream().anyMatch(f -> isAgent(f.getMethod().getType().getName()))) {
            tracerBytes += weight;
            return;
        }
        bytes += weight;
        String site = "?";
        boolean made = false;
        for (int i = 0; i < frames.size(); i++) {
            RecordedFrame f = frames.get(i);
            if (copiedAtCall(f.getMethod())) {
                made = true;
            } else if (!(made && throughMaker(f.getMethod().getType().getName()))) {
                site = RecordedAllocations.method(f.getMethod().getType().getName(), f.getMethod().getName(), f.getMethod().getDescriptor());
                where.put(site, "line " + f.getLineNumber() + ", " + f.getType() + (i > 0 ? ", via " + name(frames.get(i - 1).getMethod()) : ""));
                break;
            }
        }
        bytesByClassAndSite.computeIfAbsent(e.getClass("objectClass").getName(), k -> new HashMap<>()).merge(site, weight, Double::sum);
    }

    /** The agent jar's packages (the bench's own {@code dev.minitrace.bench} runs the workload: it is the program). */
    private static boolean isAgent(String type) {
        return type.startsWith("dev.minitrace.injector.") || type.startsWith("dev.minitrace.events.") || type.startsWith("dev.minitrace.wire.")
                || type.startsWith("dev.minitrace.shaded.");
    }

    /**
     * Methods that make the object their caller asks for (MiniTrace records it at the caller's call, or at the call of
     * {@code Constructor.newInstance} or the {@code invokedynamic} of a capturing lambda that led there).
     */
    private static boolean copiedAtCall(RecordedMethod m) {
        String type = m.getType().getName();
        String name = m.getName();
        return type.equals("java.lang.Object") && name.equals("clone")
                || type.equals("java.lang.reflect.Array") && (name.equals("newInstance") || name.equals("newArray") || name.equals("multiNewArray"))
                || (type.equals("jdk.internal.misc.Unsafe") || type.equals("sun.misc.Unsafe"))
                        && (name.equals("allocateInstance") || name.startsWith("allocateUninitializedArray"))
                || type.startsWith("jdk.internal.reflect.") && name.equals("newInstance0");
    }

    /** The frames between a maker ({@link #copiedAtCall}) and the call MiniTrace records: method handles and reflection. */
    private static boolean throughMaker(String type) {
        return type.startsWith("java.lang.invoke.") || type.startsWith("jdk.internal.reflect.") || type.equals("java.lang.reflect.Constructor");
    }

    private static String name(RecordedMethod m) {
        String type = m.getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + m.getName();
    }
}
