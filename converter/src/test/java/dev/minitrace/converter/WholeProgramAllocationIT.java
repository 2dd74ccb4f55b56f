package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.mtlog.MtlogReader;
import fixture.jdkalloc.JdkAllocWorkload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code alloc-scope=all} end to end: {@link JdkAllocWorkload} runs in a child JVM with the real
 * agent and a real recording; the allocations the JDK makes for it are exactly those its source
 * makes, each with the JDK method and bytecode index as its site, in both layouts; so are the
 * copies made by calls ({@code clone()}, {@code Array.newInstance}). The expected
 * sites come from the JDK's own disassembler ({@code javap -c}) on the running JDK's classes.
 */
class WholeProgramAllocationIT {
    private static final Path AGENT = Paths.get(System.getProperty("minitrace.agent.jar", "../injector/target/minitrace-agent.jar"));
    private static final Path JFC = Paths.get("../jfc-profiles/minitrace.jfc");
    private static final String WORKLOAD = JdkAllocWorkload.class.getName();

    @TempDir
    static Path dir;
    static Path jfr;

    @BeforeAll
    static void record() throws Exception {
        Assumptions.assumeTrue(Files.exists(AGENT), "no agent jar at " + AGENT + " (build the injector first)");
        jfr = record("whole.jfr", "include=fixture.jdkalloc.*,alloc-scope=all");
        assertFalse(Files.readString(dir.resolve("whole.jfr.out")).contains("minitrace: not instrumenting"));
    }

    /** Runs the workload with the agent options, recording to {@code name}; its output is kept beside it. */
    private static Path record(String name, String agentOptions) throws Exception {
        Path file = dir.resolve(name);
        ChildJvm.Result r = ChildJvm.run(List.of("-javaagent:" + AGENT.toAbsolutePath() + "=" + agentOptions,
                "-XX:StartFlightRecording:filename=" + file + ",settings=" + JFC.toAbsolutePath(),
                "-cp", ChildJvm.classpath(), WORKLOAD));
        Files.writeString(dir.resolve(name + ".out"), r.output());
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("check " + 2 * (2 * JdkAllocWorkload.N + JdkAllocWorkload.BOXES / 2 + 7 + 5 + 3
                + 2 * JdkAllocWorkload.LAMBDAS + JdkAllocWorkload.CONCATS * JdkAllocWorkload.CONCAT_LENGTH + JdkAllocWorkload.REFLECTED)),
                r.output());
        return file;
    }

    /** Converts {@code recording} in the thread layout, checking that nothing was lost. */
    private static Path convert(Path recording) throws IOException {
        Path out = dir.resolve(recording.getFileName() + ".mtlog");
        ConversionReport report = BothEngines.convert(ConvertOptions.defaults(), recording, out);
        assertFalse(report.lostData(), report.warnings().toString());
        assertTrue(report.warnings().isEmpty(), report.warnings().toString());
        return out;
    }

    /**
     * {@code include=java.util.ArrayList}: the second {@code list} call's records are exactly the
     * entries and exits of {@code ArrayList}'s methods its source makes (add, its helper, grow at
     * each full array), with the first array allocated inside the traced {@code grow(int)}.
     */
    @Test
    void anIncludedJdkClassGivesExactlyItsKnownEntriesAndExits() throws Exception {
        Path mtlog = convert(record("arraylist.jfr", "include=fixture.jdkalloc.*;java.util.ArrayList"));
        List<String> expected = new ArrayList<>(List.of("METHOD_ENTRY java.util.ArrayList.<init>()V", "METHOD_EXIT java.util.ArrayList.<init>()V",
                "OBJECT_ALLOC java.util.ArrayList"));
        int length = 0;
        for (int size = 0; size < JdkAllocWorkload.N; size++) {
            expected.add("METHOD_ENTRY java.util.ArrayList.add(Ljava/lang/Object;)Z");
            expected.add("METHOD_ENTRY java.util.ArrayList.add(Ljava/lang/Object;[Ljava/lang/Object;I)V");
            if (size == length) {
                expected.add("METHOD_ENTRY java.util.ArrayList.grow()[Ljava/lang/Object;");
                expected.add("METHOD_ENTRY java.util.ArrayList.grow(I)[Ljava/lang/Object;");
                if (length == 0) {
                    length = 10;
                    expected.addAll(List.of("OBJECT_ALLOC [Ljava.lang.Object;", "ARRAY_LENGTH 10"));
                } else {
                    length += length >> 1; // Arrays.copyOf, not traced, records nothing
                }
                expected.add("METHOD_EXIT java.util.ArrayList.grow(I)[Ljava/lang/Object;");
                expected.add("METHOD_EXIT java.util.ArrayList.grow()[Ljava/lang/Object;");
            }
            expected.add("METHOD_EXIT java.util.ArrayList.add(Ljava/lang/Object;[Ljava/lang/Object;I)V");
            expected.add("METHOD_EXIT java.util.ArrayList.add(Ljava/lang/Object;)Z");
        }
        assertEquals(expected, secondCall(mainThread(mtlog, false), "list"));
    }

    /**
     * The agent never traces itself: with {@code include=java.*} and {@code alloc-scope=all}, the
     * second calls of the three workloads have only the methods their own code runs, though their
     * records (over 1,100, each of at least two chars: a header and an id) fill the thread's
     * 2,048-char buffer, so JFR's commit path ran JDK code inside a hook among them; and the
     * agent's and JFR's threads have no records at all.
     */
    @Test
    void withEveryJdkClassIncludedTheAgentAndJfrRecordNothing() throws Exception {
        Path mtlog = convert(record("java.jfr", "include=fixture.jdkalloc.*;java.*,alloc-scope=all"));
        List<String> main = mainThread(mtlog, false);
        List<String> records = new ArrayList<>();
        for (String name : List.of("list", "map", "boxes")) {
            records.addAll(secondCall(main, name));
        }
        java.util.Set<String> classes = new java.util.TreeSet<>();
        int adds = 0;
        int puts = 0;
        for (String r : records) {
            if (r.startsWith("METHOD_ENTRY ") || r.startsWith("ALLOC_SITE ")) {
                String m = r.substring(r.indexOf(' ') + 1);
                classes.add(m.substring(0, m.lastIndexOf('.', m.indexOf('('))));
                adds += r.equals("METHOD_ENTRY java.util.ArrayList.add(Ljava/lang/Object;)Z") ? 1 : 0;
                puts += r.equals("METHOD_ENTRY java.util.HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;") ? 1 : 0;
            }
        }
        assertEquals(JdkAllocWorkload.N, adds, records.toString());
        assertEquals(JdkAllocWorkload.N, puts, records.toString());
        assertTrue(records.size() > 1100, "enough records to commit the buffer: " + records.size());
        // the collections, their superclasses' constructors, the keys' hashCode, boxing
        assertTrue(java.util.Set.of("java.util.ArrayList", "java.util.AbstractList", "java.util.AbstractCollection", "java.util.Arrays",
                "java.lang.Math", "java.util.HashMap", "java.util.AbstractMap", "java.util.HashMap$Node", "java.lang.String",
                "java.lang.StringLatin1", "java.lang.Integer", "java.lang.Number").containsAll(classes),
                "only the workloads' own methods: " + classes);
        try (MtlogReader reader = MtlogReader.open(mtlog)) {
            java.util.Map<Long, Integer> perThread = new java.util.TreeMap<>();
            reader.forEachRecord((stream, type, value, aux) -> perThread.merge(stream & 0xFFFFFFFFL, 1, Integer::sum));
            for (Map.Entry<Long, MtlogInfo.ThreadInfo> t : reader.info().threads().entrySet()) {
                String name = t.getValue().name();
                if (name.startsWith("minitrace-") || name.startsWith("JFR ")) {
                    assertEquals(null, perThread.get(t.getKey()), name + " has records");
                }
            }
        }
    }

    /** One record of the main thread, rendered with its names. */
    private static List<String> mainThread(Path mtlog, boolean global) throws IOException {
        List<String> out = new ArrayList<>();
        try (MtlogReader reader = MtlogReader.open(mtlog)) {
            MtlogInfo info = reader.info();
            long main = info.threads().entrySet().stream().filter(e -> e.getValue().name().equals("main"))
                    .mapToLong(Map.Entry::getKey).findFirst().orElseThrow();
            MtlogReader.RecordVisitor visitor = (stream, type, value, aux) -> {
                if (global && (aux & 0xFFFFFFFFL) != main || type == MtlogFormat.GC_TIMESTAMP) {
                    return;
                }
                String bci = global ? "" : " " + aux;
                switch (type) {
                    case MtlogFormat.METHOD_ENTRY, MtlogFormat.METHOD_EXIT -> out.add(MtlogFormat.typeName(type) + " " + method(info, value));
                    case MtlogFormat.ALLOC_SITE -> out.add("ALLOC_SITE " + method(info, value) + bci);
                    case MtlogFormat.OBJECT_ALLOC -> out.add("OBJECT_ALLOC " + info.classes().get((long) MtlogFormat.classIdOf(value)));
                    case MtlogFormat.ARRAY_LENGTH -> out.add("ARRAY_LENGTH " + value);
                    default -> out.add(MtlogFormat.typeName(type));
                }
            };
            if (global) {
                reader.forEachRecord(visitor);
            } else {
                reader.forEachRecord((int) main, visitor);
            }
        }
        return out;
    }

    private static String method(MtlogInfo info, long id) {
        MtlogInfo.MethodInfo m = info.methods().get(id);
        return m.className() + "." + m.methodName() + m.descriptor();
    }

    /** The records of the second call of the workload's method {@code name}, between its entry and exit. */
    private static List<String> secondCall(List<String> records, String name) {
        String entry = "METHOD_ENTRY " + WORKLOAD + "." + name + "(";
        int seen = 0;
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).startsWith(entry) && ++seen == 2) {
                int depth = 0;
                for (int j = i; j < records.size(); j++) {
                    String r = records.get(j);
                    depth += r.startsWith("METHOD_ENTRY") ? 1 : r.startsWith("METHOD_EXIT") ? -1 : 0;
                    if (depth == 0) {
                        return records.subList(i + 1, j);
                    }
                }
            }
        }
        throw new AssertionError("no second call of " + name + " in " + records.size() + " records");
    }

    /** The expected records of the three workloads, with sites as {@code javap} gives them ("" in the global layout). */
    private static Map<String, List<String>> expected(boolean global) throws Exception {
        String grow = site("java.util.ArrayList", "grow", "(I)[Ljava/lang/Object;", "anewarray", global);
        String copyOf = site("java.util.Arrays", "copyOf", "([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;", "anewarray", global);
        List<String> list = new ArrayList<>(List.of("OBJECT_ALLOC java.util.ArrayList"));
        int capacity = 10; // ArrayList.DEFAULT_CAPACITY, then each growth by half
        list.addAll(List.of(grow, "OBJECT_ALLOC [Ljava.lang.Object;", "ARRAY_LENGTH " + capacity));
        while (capacity < JdkAllocWorkload.N) {
            capacity += capacity >> 1;
            list.addAll(List.of(copyOf, "OBJECT_ALLOC [Ljava.lang.Object;", "ARRAY_LENGTH " + capacity));
        }

        String resize = site("java.util.HashMap", "resize", "()[Ljava/util/HashMap$Node;", "anewarray", global);
        String newNode = site("java.util.HashMap", "newNode",
                "(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/HashMap$Node;)Ljava/util/HashMap$Node;", "new", global);
        List<String> map = new ArrayList<>(List.of("OBJECT_ALLOC java.util.HashMap"));
        int table = 16; // the first put makes the default table; a put past 3/4 of it doubles it
        map.addAll(List.of(resize, "OBJECT_ALLOC [Ljava.util.HashMap$Node;", "ARRAY_LENGTH " + table));
        for (int size = 1; size <= JdkAllocWorkload.N; size++) {
            map.addAll(List.of(newNode, "OBJECT_ALLOC java.util.HashMap$Node"));
            if (size > table * 3 / 4) {
                table *= 2;
                map.addAll(List.of(resize, "OBJECT_ALLOC [Ljava.util.HashMap$Node;", "ARRAY_LENGTH " + table));
            }
        }

        String valueOf = site("java.lang.Integer", "valueOf", "(I)Ljava/lang/Integer;", "new", global);
        List<String> boxes = new ArrayList<>();
        for (int i = 0; i < JdkAllocWorkload.BOXES; i++) {
            boxes.addAll(List.of(valueOf, "OBJECT_ALLOC java.lang.Integer"));
        }
        String newInstance = site("java.util.Arrays", "copyOf", "([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;",
                "invokestatic .*java/lang/reflect/Array.newInstance", global);
        String cloneList = site("java.util.ArrayList", "clone", "()Ljava/lang/Object;", "invokespecial .*java/lang/Object.clone", global);
        List<String> copies = List.of("OBJECT_ALLOC [I", "ARRAY_LENGTH 7",
                newInstance, "OBJECT_ALLOC [Ljava.lang.String;", "ARRAY_LENGTH 5",
                cloneList, "OBJECT_ALLOC java.util.ArrayList",
                copyOf, "OBJECT_ALLOC [Ljava.lang.Object;", "ARRAY_LENGTH 3");
        return Map.of("list", list, "map", map, "boxes", boxes, "copies", copies);
    }

    /**
     * The allocations of the workloads whose objects are made in {@code java.lang.invoke} or the
     * JVM, recorded after the call or {@code invokedynamic} that returns them: each capturing
     * lambda's evaluation one instance (its hidden class), the lambda that captures nothing none;
     * each {@code Constructor.newInstance} its object; each concatenation its {@code byte[]}
     * ({@code Unsafe.allocateUninitializedArray} in {@code StringConcatHelper}) and its String.
     * Method records left out; a lambda's hidden class named up to its {@code $$Lambda}.
     */
    private static Map<String, List<String>> expectedMadeElsewhere(boolean global) throws Exception {
        List<String> lambdas = new ArrayList<>();
        for (int i = 0; i < JdkAllocWorkload.LAMBDAS; i++) {
            lambdas.add("OBJECT_ALLOC " + WORKLOAD + "$$Lambda");
        }
        List<String> reflected = new ArrayList<>();
        for (int i = 0; i < JdkAllocWorkload.REFLECTED; i++) {
            reflected.add("OBJECT_ALLOC " + WORKLOAD + "$Made");
        }
        String allocate = "invokevirtual .*allocateUninitializedArray";
        String newArray = site("java.lang.StringConcatHelper", "newArray", descriptor("java.lang.StringConcatHelper", "newArray", allocate),
                allocate, global);
        List<String> concats = new ArrayList<>();
        for (int i = 0; i < JdkAllocWorkload.CONCATS; i++) {
            concats.addAll(List.of(newArray, "OBJECT_ALLOC [B", "ARRAY_LENGTH " + JdkAllocWorkload.CONCAT_LENGTH, "OBJECT_ALLOC java.lang.String"));
        }
        return Map.of("lambdas", lambdas, "reflected", reflected, "concats", concats);
    }

    /** The allocation records among {@code records}: the String's own site is left out (it moved between JDK 17 and 25). */
    private static List<String> allocations(List<String> records) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            String r = records.get(i);
            if (r.startsWith("ALLOC_SITE ") && i + 1 < records.size() && records.get(i + 1).equals("OBJECT_ALLOC java.lang.String")) {
                continue;
            }
            if (r.startsWith("ALLOC_SITE ") || r.startsWith("OBJECT_ALLOC ") || r.startsWith("ARRAY_LENGTH ")) {
                out.add(r.replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda"));
            }
        }
        return out;
    }

    /**
     * The descriptor of {@code className}'s method {@code name} whose code has an {@code opcode} (a regular expression), by
     * {@code javap}: it differs between JDKs, which have overloads too.
     */
    private static String descriptor(String className, String name, String opcode) throws Exception {
        List<String> lines = javap(className);
        Pattern instruction = Pattern.compile("^\\s+\\d+: " + opcode + "\\b.*");
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).trim().startsWith("descriptor: ") && lines.get(i - 1).contains(" " + name + "(")) {
                for (int j = i + 1; j < lines.size() && !lines.get(j).isBlank(); j++) {
                    if (instruction.matcher(lines.get(j)).matches()) {
                        return lines.get(i).trim().substring("descriptor: ".length());
                    }
                }
            }
        }
        throw new AssertionError("javap shows no method " + name + " with " + opcode + " in " + className);
    }

    private static List<String> javap(String className) throws Exception {
        Path javap = Paths.get(System.getProperty("java.home"), "bin", "javap");
        Process p = new ProcessBuilder(javap.toString(), "-c", "-p", "-s", className).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        p.waitFor();
        return lines;
    }

    /** {@code ALLOC_SITE class.method descriptor bci}, the bytecode index of the first {@code opcode} of the method by {@code javap -c}. */
    private static String site(String className, String name, String descriptor, String opcode, boolean global) throws Exception {
        String site = "ALLOC_SITE " + className + "." + name + descriptor;
        return global ? site : site + " " + javapOffset(className, name, descriptor, opcode);
    }

    private static int javapOffset(String className, String name, String descriptor, String opcode) throws Exception {
        List<String> lines = javap(className);
        Pattern instruction = Pattern.compile("^\\s+(\\d+): " + opcode + "\\b.*"); // opcode: a regular expression
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).trim().equals("descriptor: " + descriptor) && lines.get(i - 1).contains(" " + name + "(")) {
                for (int j = i + 1; j < lines.size() && !lines.get(j).isBlank(); j++) {
                    Matcher m = instruction.matcher(lines.get(j));
                    if (m.matches()) {
                        return Integer.parseInt(m.group(1));
                    }
                }
            }
        }
        throw new AssertionError("javap shows no " + opcode + " in " + className + "." + name + descriptor);
    }

    private void checkLayout(boolean global) throws Exception {
        Path out = dir.resolve(global ? "global.mtlog" : "thread.mtlog");
        ConvertOptions options = ConvertOptions.defaults();
        options = new ConvertOptions(global, options.fragments(), options.from(), options.to(), options.threads(), options.typeMask());
        ConversionReport report = BothEngines.convert(options, jfr, out);
        assertFalse(report.lostData(), report.warnings().toString());
        assertTrue(report.warnings().isEmpty(), report.warnings().toString());
        List<String> main = mainThread(out, global);
        Map<String, List<String>> expected = expected(global);
        for (String name : List.of("list", "map", "boxes", "copies")) {
            assertEquals(expected.get(name), secondCall(main, name), name + (global ? ", global layout" : ", thread layout"));
        }
        Map<String, List<String>> elsewhere = expectedMadeElsewhere(global);
        for (String name : List.of("lambdas", "reflected", "concats")) {
            assertEquals(elsewhere.get(name), allocations(secondCall(main, name)), name + (global ? ", global layout" : ", thread layout"));
        }
    }

    @Test
    void theJdksAllocationsAreExactlyTheSourcesInTheThreadLayout() throws Exception {
        checkLayout(false);
    }

    @Test
    void theJdksAllocationsAreExactlyTheSourcesInTheGlobalLayout() throws Exception {
        checkLayout(true);
    }
}
