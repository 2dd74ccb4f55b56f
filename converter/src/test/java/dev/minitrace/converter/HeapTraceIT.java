package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import dev.minitrace.converter.jfr.FastRecordingSource;
import dev.minitrace.converter.write.ElephantTracksFiles;
import dev.minitrace.converter.write.ElephantTracksWriter;
import fixture.heap.HeapWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The heap records end to end: {@link HeapWorkload} runs in a child JVM with the real agent
 * ({@code events=…+exception+field+death}) and the real {@code minitrace-heap.jfc}, packed and one
 * event per record, under each collector of the running JDK; both engines convert it alike, and the main thread's exception and reference store
 * records are exactly the program's: counts per kind and per field, each store's holder, old and
 * new target equal to the objects the program allocated, each exception the object thrown.
 */
class HeapTraceIT {
    private static final Path AGENT = Paths.get(System.getProperty("minitrace.agent.jar", "../injector/target/minitrace-agent.jar"));
    private static final Path HEAP_JFC = Paths.get("../jfc-profiles/minitrace-heap.jfc");

    @TempDir
    Path dir;

    /** One record of the main thread. */
    record Rec(int type, long value, int aux) {
    }

    @ParameterizedTest(name = "methods={0} {1}")
    @CsvSource({
        "buffer, -XX:+UseG1GC",
        "events, -XX:+UseG1GC",
        "buffer, -XX:+UseSerialGC",
        "buffer, -XX:+UseParallelGC",
        "buffer, -XX:+UseZGC",
        "buffer, -XX:+UseShenandoahGC",
    })
    void exceptionsAndStoresAreExactlyTheProgramsOnes(String methods, String gc) throws Exception {
        Assumptions.assumeTrue(Files.exists(AGENT), "no agent jar at " + AGENT + " (build the injector first)");
        Assumptions.assumeTrue(ChildJvm.supports(gc), "this JDK has no " + gc);
        Path jfr = dir.resolve("heap.jfr");
        ChildJvm.Result r = ChildJvm.run(List.of(gc,
                "-javaagent:" + AGENT.toAbsolutePath() + "=include=fixture.heap.*,events=method+lock+alloc+exception+field+death+receiver,methods=" + methods,
                "-XX:StartFlightRecording:filename=" + jfr + ",settings=" + HEAP_JFC.toAbsolutePath(),
                "-cp", ChildJvm.classpath(), HeapWorkload.class.getName()));
        assertEquals(0, r.status(), r.output());
        Path out = dir.resolve("heap.mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), jfr, out);
        assertFalse(report.lostData(), report.warnings().toString());
        assertTrue(report.warnings().isEmpty(), report.warnings().toString());

        MtlogInfo info;
        List<Rec> main = new ArrayList<>();
        try (MtlogReader reader = MtlogReader.open(out)) {
            info = reader.info();
            long mainId = info.threads().entrySet().stream().filter(e -> e.getValue().name().equals("main"))
                    .mapToLong(Map.Entry::getKey).findFirst().orElseThrow();
            reader.forEachRecord((int) mainId, (stream, type, value, aux) -> main.add(new Rec(type, value, aux)));
        }
        Map<Integer, Integer> byType = new TreeMap<>();
        for (Rec x : main) {
            byType.merge(x.type(), 1, Integer::sum);
        }
        assertEquals(3, byType.get(MtlogFormat.EXCEPTION_THROW), "throws " + byType);
        assertEquals(4, byType.get(MtlogFormat.EXCEPTION_HANDLED), "handled " + byType);
        assertEquals(7, byType.get(MtlogFormat.EXCEPTION_OBJECT), "exception objects " + byType);
        assertEquals(9, byType.get(MtlogFormat.FIELD_STORE), "field stores " + byType);
        assertEquals(4, byType.get(MtlogFormat.ARRAY_STORE), "array stores " + byType);
        for (int part : new int[] {MtlogFormat.STORE_HOLDER, MtlogFormat.STORE_OLD, MtlogFormat.STORE_NEW}) {
            assertEquals(13, byType.get(part), MtlogFormat.typeName(part) + " " + byType);
        }

        // A reader that knows only types 1-6 sees balanced entries and exits.
        assertEquals(byType.get(MtlogFormat.METHOD_ENTRY), byType.get(MtlogFormat.METHOD_EXIT), "entries and exits " + byType);

        // The program's allocations, by class, in order.
        Map<String, List<Long>> allocs = new TreeMap<>();
        for (Rec x : main) {
            if (x.type() == MtlogFormat.OBJECT_ALLOC) {
                allocs.computeIfAbsent(info.classes().get((long) MtlogFormat.classIdOf(x.value())), k -> new ArrayList<>()).add(x.value());
            }
        }
        List<Long> nodes = allocs.get("fixture.heap.HeapWorkload$Node");
        List<Long> arrays = allocs.get("[Ljava.lang.Object;");
        List<Long> thrown = allocs.get("java.lang.IllegalStateException");
        assertEquals(8, nodes.size(), allocs.toString());
        assertEquals(2, arrays.size(), allocs.toString());
        assertEquals(3, thrown.size(), allocs.toString());
        // Each array's allocation is followed by its length; the sizes follow the JVM's layout rules
        // (12-byte object header, 16-byte array header with compressed class pointers; 4-byte
        // references with compressed oops, which ZGC does not have), independent of the agent.
        List<Long> lengths = new ArrayList<>();
        for (int i = 0; i < main.size(); i++) {
            if (main.get(i).type() == MtlogFormat.ARRAY_LENGTH) {
                assertEquals(MtlogFormat.OBJECT_ALLOC, main.get(i - 1).type(), "a length follows its array's allocation");
                lengths.add(main.get(i).value());
            }
        }
        assertEquals(List.of(3L, 1L), lengths, "the program's two arrays");
        int ref = gc.contains("ZGC") ? 8 : 4;
        MtlogInfo.ClassSize nodeSize = info.classSizes().get((long) MtlogFormat.classIdOf(nodes.get(0)));
        MtlogInfo.ClassSize arraySize = info.classSizes().get((long) MtlogFormat.classIdOf(arrays.get(0)));
        assertEquals(align8(12 + ref), nodeSize.size(0), "Node: header and one reference " + nodeSize);
        assertEquals(align8(16 + 3L * ref), arraySize.size(3), "Object[3] " + arraySize);
        assertEquals(align8(16 + ref), arraySize.size(1), "Object[1] " + arraySize);
        long a = nodes.get(0);
        long b = nodes.get(1);
        long c = nodes.get(2);
        long outer = allocs.get("fixture.heap.HeapWorkload").get(0);
        long inner = allocs.get("fixture.heap.HeapWorkload$Inner").get(0);

        // Stores: field name -> "holder old new" (array stores: "[index] array old new"), in program order.
        Map<String, List<List<Long>>> stores = new TreeMap<>();
        List<Long> exceptions = new ArrayList<>();
        List<String> exceptionKinds = new ArrayList<>();
        for (int i = 0; i < main.size(); i++) {
            Rec x = main.get(i);
            if (x.type() == MtlogFormat.FIELD_STORE || x.type() == MtlogFormat.ARRAY_STORE) {
                assertEquals(MtlogFormat.STORE_HOLDER, main.get(i + 1).type());
                assertEquals(MtlogFormat.STORE_OLD, main.get(i + 2).type());
                assertEquals(MtlogFormat.STORE_NEW, main.get(i + 3).type());
                String key;
                if (x.type() == MtlogFormat.FIELD_STORE) {
                    MtlogInfo.FieldInfo f = info.fields().get(x.value());
                    key = f.className() + "." + f.fieldName() + (f.isStatic() ? " static" : "");
                } else {
                    key = "[" + x.value() + "]";
                }
                stores.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(List.of(main.get(i + 1).value(), main.get(i + 2).value(), main.get(i + 3).value()));
            } else if (x.type() == MtlogFormat.EXCEPTION_THROW || x.type() == MtlogFormat.EXCEPTION_HANDLED) {
                assertEquals(MtlogFormat.EXCEPTION_OBJECT, main.get(i + 1).type());
                exceptionKinds.add(x.type() == MtlogFormat.EXCEPTION_THROW ? "throw" : "handled");
                exceptions.add(main.get(i + 1).value());
                assertEquals("fixture.heap.HeapWorkload", info.methods().get(x.value()).className());
            }
        }
        assertEquals(List.of(List.of(a, 0L, b), List.of(a, b, c), List.of(b, 0L, a), List.of(a, c, 0L)),
                stores.get("fixture.heap.HeapWorkload$Node.next"), stores.toString());
        assertEquals(List.of(List.of(0L, 0L, a), List.of(0L, a, b)), stores.get("fixture.heap.HeapWorkload.root static"));
        assertEquals(List.of(List.of(0L, 0L, arrays.get(1))), stores.get("fixture.heap.HeapWorkload.kept static"));
        assertEquals(List.of(List.of(inner, 0L, outer)), stores.get("fixture.heap.HeapWorkload$Inner.this$0"));
        assertEquals(List.of(List.of(outer, 0L, 0L)), stores.get("fixture.heap.HeapWorkload.tag"));
        long arr = arrays.get(0);
        assertEquals(List.of(List.of(arr, 0L, a), List.of(arr, a, 0L), List.of(arrays.get(1), 0L, c)), stores.get("[0]"));
        assertEquals(List.of(List.of(arr, 0L, b)), stores.get("[1]"));
        assertEquals(7, stores.size(), stores.keySet().toString());

        assertEquals(List.of("throw", "handled", "throw", "handled", "throw", "handled", "handled"), exceptionKinds);

        // Receivers: outerTag() is the one instance method (constructors and static methods have none).
        List<Long> receivers = new ArrayList<>();
        for (int i = 0; i < main.size(); i++) {
            if (main.get(i).type() == MtlogFormat.METHOD_RECEIVER) {
                receivers.add(main.get(i).value());
                Rec entry = main.get(i - 1);
                assertEquals(MtlogFormat.METHOD_ENTRY, entry.type(), "a receiver follows its method's entry");
                assertEquals("outerTag", info.methods().get(entry.value()).methodName());
            }
        }
        assertEquals(List.of(inner), receivers);

        // Deaths, from the agent's death thread: each of the five garbage nodes exactly once, attributed
        // to a GC of the recording; none of the nodes and arrays kept reachable.
        Map<Long, Integer> deaths = new TreeMap<>();
        List<Integer> deathGcs = new ArrayList<>();
        try (MtlogReader reader = MtlogReader.open(out)) {
            reader.forEachRecord((stream, type, value, aux) -> {
                if (type == MtlogFormat.OBJECT_DEATH) {
                    deaths.merge(value, 1, Integer::sum);
                    deathGcs.add(aux);
                }
            });
        }
        for (int i = 3; i < 8; i++) {
            assertEquals(1, deaths.get(nodes.get(i)), "garbage node " + i + " dies once: " + deaths);
        }
        for (long alive : List.of(a, b, c, arrays.get(0), arrays.get(1))) {
            assertEquals(null, deaths.get(alive), "a reachable object never dies");
        }
        for (int deathGc : deathGcs) {
            assertTrue(info.gcs().containsKey(deathGc & 0xFFFFFFFFL),
                    "a death names a GC of the recording: " + deathGc + " " + info.gcs().keySet());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(thrown.get(i), exceptions.get(2 * i), "throw " + i + " names the exception allocated");
            assertEquals(thrown.get(i), exceptions.get(2 * i + 1), "handler " + i + " gets the exception thrown");
        }
        assertEquals("java.lang.NullPointerException", info.classes().get((long) MtlogFormat.classIdOf(exceptions.get(6))),
                "the JVM's exception, handled in traced code");

        elephantTracksTraceIsThePrograms(jfr, ref);
    }

    private static long align8(long size) {
        return (size + 7) / 8 * 8;
    }

    /** The same recording as Elephant Tracks' files, read by the tests' own reader of the grammar. */
    private void elephantTracksTraceIsThePrograms(Path jfr, int ref) throws Exception {
        Path et = dir.resolve("et");
        ConversionReport report = new Converter(ConvertOptions.defaults(), new FastRecordingSource()).convert(jfr, et.resolve("trace"),
                (start, end) -> new ElephantTracksWriter(et), null);
        assertFalse(report.lostData(), report.warnings().toString());
        ElephantTracksFiles f = ElephantTracksFiles.read(et);
        Map<String, Integer> kinds = new TreeMap<>();
        for (String[] t : f.trace) {
            kinds.merge(t[0], 1, Integer::sum);
        }
        assertEquals(3, kinds.get("T"), kinds.toString());
        assertEquals(4, kinds.get("H"), kinds.toString());
        assertEquals(13, kinds.get("U"), kinds.toString());
        assertEquals(kinds.get("M"), kinds.get("E") + kinds.getOrDefault("X", 0), "every entry has an exit " + kinds);
        List<Long> nodes = new ArrayList<>();
        List<Long> arrays = new ArrayList<>();
        List<Long> thrown = new ArrayList<>();
        for (String[] t : f.trace) {
            if (t[0].equals("N") || t[0].equals("A")) {
                long id = Long.parseLong(t[1], 16);
                switch (t[3]) {
                    case "Lfixture/heap/HeapWorkload$Node;" -> nodes.add(id);
                    case "[Ljava/lang/Object;" -> arrays.add(id);
                    case "Ljava/lang/IllegalStateException;" -> thrown.add(id);
                    default -> {
                    }
                }
            }
        }
        assertEquals(8, nodes.size());
        assertEquals(2, arrays.size());
        assertEquals(3, thrown.size());
        for (long node : nodes) {
            assertEquals(align8(12 + ref), f.sizes.get(node), "N size of a Node");
            assertEquals(0L, f.lengths.get(node), "N length 0");
        }
        assertEquals(3L, f.lengths.get(arrays.get(0)), "A length of new Object[3]");
        assertEquals(1L, f.lengths.get(arrays.get(1)), "A length of new Object[1]");
        assertEquals(align8(16 + 3L * ref), f.sizes.get(arrays.get(0)), "A size of new Object[3]");
        assertEquals(align8(16 + ref), f.sizes.get(arrays.get(1)), "A size of new Object[1]");
        long a = nodes.get(0);
        long b = nodes.get(1);
        long c = nodes.get(2);
        Map<String, List<List<Long>>> stores = new TreeMap<>();
        List<Long> throwIds = new ArrayList<>();
        for (String[] t : f.trace) {
            if (t[0].equals("U")) {
                long old = Long.parseLong(t[1], 16);
                long holder = Long.parseLong(t[2], 16);
                long target = Long.parseLong(t[3], 16);
                long field = Long.parseLong(t[4], 16);
                String key = holder != 0 && f.allocated.get(holder).startsWith("[") ? "[" + (field - 1) + "]" : f.fields.get(field);
                stores.computeIfAbsent(key, k -> new ArrayList<>()).add(List.of(holder, old, target));
            } else if (t[0].equals("T")) {
                throwIds.add(Long.parseLong(t[3], 16));
            }
        }
        assertEquals(List.of(List.of(a, 0L, b), List.of(a, b, c), List.of(b, 0L, a), List.of(a, c, 0L)),
                stores.get("fixture/heap/HeapWorkload$Node.next"), stores.toString());
        assertEquals(List.of(List.of(0L, 0L, a), List.of(0L, a, b)), stores.get("fixture/heap/HeapWorkload.root static"));
        assertEquals(List.of(List.of(0L, 0L, arrays.get(1))), stores.get("fixture/heap/HeapWorkload.kept static"));
        assertEquals(List.of(List.of(arrays.get(0), 0L, a), List.of(arrays.get(0), a, 0L), List.of(arrays.get(1), 0L, c)),
                stores.get("[0]"));
        assertEquals(List.of(List.of(arrays.get(0), 0L, b)), stores.get("[1]"));
        assertEquals(1, stores.get("fixture/heap/HeapWorkload$Inner.this$0").size());
        assertEquals(1, stores.get("fixture/heap/HeapWorkload.tag").size());
        assertEquals(thrown, throwIds, "each T names the exception allocated");
        // D: each garbage node once, after its allocation line; never a kept one
        Map<Long, Integer> allocLine = new TreeMap<>();
        Map<Long, Integer> deathLine = new TreeMap<>();
        for (int i = 0; i < f.trace.size(); i++) {
            String[] t = f.trace.get(i);
            if (t[0].equals("N") || t[0].equals("A")) {
                allocLine.put(Long.parseLong(t[1], 16), i);
            } else if (t[0].equals("D")) {
                assertEquals(null, deathLine.put(Long.parseLong(t[1], 16), i), "one D per object");
            }
        }
        for (int i = 3; i < 8; i++) {
            long id = nodes.get(i);
            assertTrue(deathLine.containsKey(id) && deathLine.get(id) > allocLine.get(id), "garbage node " + i + " has a D after its N");
        }
        for (long alive : List.of(a, b, c, arrays.get(0), arrays.get(1))) {
            assertFalse(deathLine.containsKey(alive), "no D for a reachable object");
        }
        assertTrue(f.methods.containsValue("fixture/heap/HeapWorkload.main"), "the analyzer finds main among the N lines");
        // M: the receiver of outerTag() is the Inner object, every other entry has none
        long innerId = -1;
        for (String[] t : f.trace) {
            if (t[0].equals("N") && t[3].equals("Lfixture/heap/HeapWorkload$Inner;")) {
                innerId = Long.parseLong(t[1], 16);
            }
        }
        for (String[] t : f.trace) {
            if (t[0].equals("M")) {
                boolean outerTag = f.methods.get(Long.parseLong(t[1], 16)).endsWith(".outerTag");
                assertEquals(outerTag ? innerId : 0L, Long.parseLong(t[2], 16), String.join(" ", t));
            }
        }
    }
}
