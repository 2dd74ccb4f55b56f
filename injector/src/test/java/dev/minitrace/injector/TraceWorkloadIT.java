package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import dev.minitrace.injector.asm.BytecodeOffsets;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The real agent traces {@code fixture.workload.Workload} in a child JVM with a real recording;
 * the recording must hold exactly the workload's trace, in exact per-thread order.
 */
class TraceWorkloadIT {
    @TempDir
    static Path dir;
    static ChildJvm.Result result;
    static List<RecordedEvent> events;
    static Map<Integer, String> names;
    static Map<String, List<RecordedEvent>> threads;
    static Path jfr;

    @BeforeAll
    static void traceWorkload() throws Exception {
        jfr = dir.resolve("workload.jfr");
        result = ChildJvm.run(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(jfr, null)), "fixture.workload.Workload");
        assertEquals(0, result.exitCode(), "workload failed: " + result.stderr());
        events = RecordingFile.readAllEvents(jfr);
        names = Recordings.methodNames(events);
        threads = Recordings.byThread(events);
    }

    /** The trace of {@code new Worker(id)}: its int[] has id + 1 elements. */
    static List<String> workerTrace(int id) {
        List<String> t = new ArrayList<>();
        t.add("+Worker.run");
        for (int r = 0; r < 2; r++) {
            t.add("+Worker.step");
            t.addAll(Collections.nCopies(4, "+Worker.depth"));
            t.addAll(Collections.nCopies(4, "-Worker.depth"));
            t.addAll(List.of("+Item.<init>", "-Item.<init>", "new fixture.workload.Item", "new int[]", "len " + (id + 1), "new long[][]", "len 2",
                    "acq java.lang.Object", "+Item.value", "-Item.value",
                    "+Worker.add", "acq java.lang.Class", "rel java.lang.Class", "-Worker.add",
                    "rel java.lang.Object",
                    "+Item.touch", "acq fixture.workload.Item", "rel fixture.workload.Item", "-Item.touch",
                    "+Worker.catcher", "+Worker.mid", "+Worker.thrower", "new java.lang.IllegalStateException",
                    "-!Worker.thrower", "-!Worker.mid", "+Worker.handled", "-Worker.handled", "-Worker.catcher",
                    "+Worker.ctorFails", "+Failing.<init>", "+Base.<init>", "new java.lang.IllegalArgumentException",
                    "-!Base.<init>", "-!Failing.<init>", "+Worker.handled", "-Worker.handled", "-Worker.ctorFails",
                    "-Worker.step"));
        }
        t.add("-Worker.run");
        return t;
    }

    static List<String> mainTrace() {
        List<String> t = new ArrayList<>(List.of("+Workload.<clinit>", "new java.lang.Object", "-Workload.<clinit>",
                "+Workload.main", "new java.lang.Thread[]", "len 3"));
        for (int i = 0; i < 3; i++) {
            t.addAll(List.of("+Worker.<init>", "-Worker.<init>", "new fixture.workload.Worker", "new java.lang.Thread"));
        }
        t.addAll(List.of("+Worker.total", "acq java.lang.Class", "rel java.lang.Class", "-Worker.total", "-Workload.main"));
        return t;
    }

    static List<String> tokens(String thread) {
        List<String> out = new ArrayList<>();
        for (RecordedEvent e : threads.getOrDefault(thread, List.of())) {
            out.add(Recordings.token(e, names));
        }
        return out;
    }

    @Test
    void programRanNormally() {
        assertTrue(result.stdout().contains("total 51"), result.stdout());
        assertFalse(result.stderr().contains("minitrace:"), result.stderr());
    }

    @Test
    void exactlyTheExpectedThreadsTraced() {
        assertEquals(List.of("main", "worker-0", "worker-1", "worker-2"), new ArrayList<>(new TreeMap<>(threads).keySet()));
    }

    @Test
    void eachThreadHasExactlyItsExpectedTraceInSequenceOrder() {
        assertEquals(mainTrace(), tokens("main"));
        for (int i = 0; i < 3; i++) {
            assertEquals(workerTrace(i), tokens("worker-" + i), "worker-" + i);
        }
    }

    @Test
    void sequencesRunFromOneWithoutGaps() {
        for (Map.Entry<String, List<RecordedEvent>> e : threads.entrySet()) {
            List<RecordedEvent> list = e.getValue();
            for (int i = 0; i < list.size(); i++) {
                assertEquals(i + 1, list.get(i).getLong("sequence"), "thread " + e.getKey() + " event " + i);
            }
        }
    }

    @Test
    void exactCountsPerMethod() {
        Map<String, Integer> entries = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_ENTRY)) {
                entries.merge(names.get(e.getInt("methodId")), 1, Integer::sum);
            }
        }
        Map<String, Integer> expected = new HashMap<>();
        expected.put("Workload.<clinit>", 1);
        expected.put("Workload.main", 1);
        expected.put("Worker.<init>", 3);
        expected.put("Worker.total", 1);
        expected.put("Worker.run", 3);
        expected.put("Worker.step", 6);
        expected.put("Worker.depth", 24);
        expected.put("Item.<init>", 6);
        expected.put("Item.value", 6);
        expected.put("Item.touch", 6);
        expected.put("Worker.add", 6);
        expected.put("Worker.catcher", 6);
        expected.put("Worker.mid", 6);
        expected.put("Worker.thrower", 6);
        expected.put("Worker.handled", 12);
        expected.put("Worker.ctorFails", 6);
        expected.put("Failing.<init>", 6);
        expected.put("Base.<init>", 6);
        assertEquals(expected, entries);
    }

    @Test
    void entriesPairWithExitsAndLocksWithReleasesOfTheSameMonitor() {
        for (Map.Entry<String, List<RecordedEvent>> t : threads.entrySet()) {
            Deque<Integer> frames = new ArrayDeque<>();
            Deque<String> monitors = new ArrayDeque<>();
            for (RecordedEvent e : t.getValue()) {
                switch (e.getEventType().getName()) {
                    case EventNames.METHOD_ENTRY -> frames.push(e.getInt("methodId"));
                    case EventNames.METHOD_EXIT -> {
                        assertFalse(frames.isEmpty(), "exit without entry in " + t.getKey());
                        assertEquals(frames.pop(), e.getInt("methodId"), "exit matches innermost entry in " + t.getKey());
                        if (e.getBoolean("exceptional")) {
                            assertEquals(0, e.getInt("bytecodeIndex"));
                        }
                    }
                    case EventNames.LOCK_ACQUIRE -> monitors.push(e.getClass("monitorClass").getName() + "@" + e.getInt("identityHash"));
                    case EventNames.LOCK_RELEASE -> assertEquals(monitors.pop(),
                            e.getClass("monitorClass").getName() + "@" + e.getInt("identityHash"), "release matches acquire");
                    default -> {
                        // allocations pair with nothing
                    }
                }
            }
            assertTrue(frames.isEmpty(), "unbalanced frames in " + t.getKey());
            assertTrue(monitors.isEmpty(), "unbalanced monitors in " + t.getKey());
        }
    }

    /** Original bytecode indexes of the instructions with the given opcode in a method of a fixture class. */
    static List<Integer> bcis(String className, String method, int opcode) throws Exception {
        byte[] bytes;
        try (InputStream in = TraceWorkloadIT.class.getClassLoader().getResourceAsStream(className.replace('.', '/') + ".class")) {
            bytes = in.readAllBytes();
        }
        ClassNode node = new ClassNode();
        new ClassReader(bytes).accept(node, 0);
        List<Integer> out = new ArrayList<>();
        for (MethodNode m : node.methods) {
            if (m.name.equals(method)) {
                int[] offsets = BytecodeOffsets.decode(bytes).of(m.name, m.desc);
                int i = 0;
                for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
                    if (n.getOpcode() >= 0) {
                        if (n.getOpcode() == opcode) {
                            out.add(offsets[i]);
                        }
                        i++;
                    }
                }
            }
        }
        return out;
    }

    @Test
    void allocationsAndLocksCarryTheBytecodeIndexOfTheirInstruction() throws Exception {
        int newItem = bcis("fixture.workload.Worker", "step", Opcodes.NEW).get(0);
        int newArray = bcis("fixture.workload.Worker", "step", Opcodes.NEWARRAY).get(0);
        int multi = bcis("fixture.workload.Worker", "step", Opcodes.MULTIANEWARRAY).get(0);
        int enter = bcis("fixture.workload.Worker", "step", Opcodes.MONITORENTER).get(0);
        List<Integer> exits = bcis("fixture.workload.Worker", "step", Opcodes.MONITOREXIT);
        Map<String, Integer> allocBci = new HashMap<>();
        int acquires = 0;
        int releases = 0;
        for (RecordedEvent e : threads.get("worker-1")) {
            String type = e.getEventType().getName();
            if (type.equals(EventNames.OBJECT_ALLOC)) {
                allocBci.put(Recordings.className(e, "objectClass"), e.getInt("bytecodeIndex"));
            } else if (type.equals(EventNames.LOCK_ACQUIRE) && e.getClass("monitorClass").getName().equals("java.lang.Object")) {
                assertEquals(enter, e.getInt("bytecodeIndex"));
                acquires++;
            } else if (type.equals(EventNames.LOCK_RELEASE) && e.getClass("monitorClass").getName().equals("java.lang.Object")) {
                assertEquals(exits.get(0), e.getInt("bytecodeIndex"), "normal-path monitorexit");
                releases++;
            } else if (type.startsWith("minitrace.Lock")) {
                assertEquals(0, e.getInt("bytecodeIndex"), "synchronized methods report bci 0");
            }
        }
        assertEquals(2, acquires);
        assertEquals(2, releases);
        assertEquals(newItem, allocBci.get("fixture.workload.Item"));
        assertEquals(newArray, allocBci.get("int[]"));
        assertEquals(multi, allocBci.get("long[][]"));
        int newIse = bcis("fixture.workload.Worker", "thrower", Opcodes.NEW).get(0);
        assertEquals(newIse, allocBci.get("java.lang.IllegalStateException"));
    }

    @Test
    void normalExitsCarryTheirReturnInstructionsIndex() throws Exception {
        int ret = bcis("fixture.workload.Item", "value", Opcodes.IRETURN).get(0);
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_EXIT) && "Item.value".equals(names.get(e.getInt("methodId")))) {
                assertEquals(ret, e.getInt("bytecodeIndex"));
                assertFalse(e.getBoolean("exceptional"));
            }
        }
    }

    @Test
    void idsResolveInEveryChunkAndAGcWasRecorded() throws Exception {
        assertTrue(Recordings.assertIdsResolvePerChunk(jfr, dir) > 0);
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.GarbageCollection")), "GC recorded");
    }
}
