package dev.minitrace.jfc;

import dev.minitrace.events.LockAcquireEvent;
import dev.minitrace.events.LockReleaseEvent;
import dev.minitrace.events.MethodDefinitionEvent;
import dev.minitrace.events.MethodEntryEvent;
import dev.minitrace.events.MethodBufferEvent;
import dev.minitrace.events.MethodExitEvent;
import dev.minitrace.events.ObjectAllocEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import jdk.jfr.Configuration;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Makes a real recording with one profile while the test JVM does the things noisy JDK events
 * would report (file and socket I/O, exceptions, a thread, a GC) and commits one of each
 * MiniTrace event by hand, then reads the dump back with {@link RecordingFile}.
 */
final class ProfileRecording {
    /** Event type name → number of events of that type in the dump. */
    final Map<String, Integer> counts = new TreeMap<>();
    /** Names of the event types JFR reported as enabled while the recording ran. */
    final Set<String> enabledWhileRunning = new TreeSet<>();
    /** The events of the dump, for per-event checks (stack traces). */
    final List<RecordedEvent> events = new ArrayList<>();

    private ProfileRecording() {
    }

    /** The profile at {@code jfc-profiles/<name>}; tests run with the module folder as working directory. */
    static Path profile(String name) {
        Path p = Path.of(name);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("profile not found: " + p.toAbsolutePath());
        }
        return p;
    }

    static Configuration configuration(String name) throws IOException, ParseException {
        return Configuration.create(profile(name));
    }

    /** Records the workload with the profile {@code name} and returns what the dump holds. */
    static ProfileRecording record(String name, Path dump) throws Exception {
        ProfileRecording result = new ProfileRecording();
        try (Recording recording = new Recording(configuration(name))) {
            recording.start();
            commitOneOfEachMiniTraceEvent();
            noisyWorkload(dump.getParent());
            for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
                if (type.isEnabled()) {
                    result.enabledWhileRunning.add(type.getName());
                }
            }
            recording.stop();
            recording.dump(dump);
        }
        for (RecordedEvent e : RecordingFile.readAllEvents(dump)) {
            result.events.add(e);
            result.counts.merge(e.getEventType().getName(), 1, Integer::sum);
        }
        return result;
    }

    private static void commitOneOfEachMiniTraceEvent() {
        MethodDefinitionEvent def = new MethodDefinitionEvent();
        def.methodId = 1;
        def.className = "dev.minitrace.jfc.ProfileRecording";
        def.methodName = "record";
        def.descriptor = "()V";
        def.commit();
        MethodEntryEvent entry = new MethodEntryEvent();
        entry.methodId = 1;
        entry.sequence = 1;
        entry.commit();
        Object lock = new Object();
        LockAcquireEvent acquire = new LockAcquireEvent();
        acquire.monitorClass = Object.class;
        acquire.identityHash = System.identityHashCode(lock);
        acquire.sequence = 2;
        acquire.commit();
        LockReleaseEvent release = new LockReleaseEvent();
        release.monitorClass = Object.class;
        release.identityHash = System.identityHashCode(lock);
        release.sequence = 3;
        release.commit();
        int[] array = new int[3];
        ObjectAllocEvent alloc = new ObjectAllocEvent();
        alloc.objectClass = int[].class;
        alloc.identityHash = System.identityHashCode(array);
        alloc.sequence = 4;
        alloc.commit();
        dev.minitrace.events.ArrayLengthEvent length = new dev.minitrace.events.ArrayLengthEvent();
        length.length = array.length;
        length.sequence = 5;
        length.commit();
        MethodExitEvent exit = new MethodExitEvent();
        exit.methodId = 1;
        exit.sequence = 6;
        exit.commit();
        MethodBufferEvent buffer = new MethodBufferEvent();
        buffer.tracedThread = Thread.currentThread();
        buffer.firstSequence = 7;
        buffer.recordCount = 1;
        buffer.records = "\u0000\u0001"; // an entry of method 1 (docs/trace-buffer.md)
        buffer.commit();
    }

    /** What the JDK's file, socket, exception and thread events would report if they were on. */
    private static void noisyWorkload(Path dir) throws Exception {
        Path file = Files.createTempFile(dir, "io", ".txt");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(new byte[64 * 1024]);
        }
        try (InputStream in = new java.io.FileInputStream(file.toFile())) {
            in.readAllBytes();
        }
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            client.getOutputStream().write(new byte[1024]);
            accepted.getInputStream().readNBytes(1024);
        }
        int caught = 0;
        for (int i = 0; i < 20; i++) {
            try {
                if (i % 2 == 0) {
                    throw new IllegalStateException("expected " + i);
                }
                throw new AssertionError("expected " + i);
            } catch (IllegalStateException | AssertionError e) {
                caught++;
            }
        }
        if (caught != 20) {
            throw new AssertionError("caught " + caught);
        }
        Thread worker = new Thread(() -> { }, "profile-test-worker");
        worker.start();
        worker.join();
        System.gc();
    }
}
