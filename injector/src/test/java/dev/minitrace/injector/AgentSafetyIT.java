package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.minitrace.events.EventNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The agent never takes the application down: no recording, bad options, unrewritable classes, a real library. */
class AgentSafetyIT {

    @Test
    void withoutARecordingTheProgramRunsAsWithoutTheAgent(@TempDir Path dir) throws Exception {
        ChildJvm.Result plain = ChildJvm.run(dir, List.of(), "fixture.workload.Workload");
        ChildJvm.Result traced = ChildJvm.run(dir, List.of(ChildJvm.agent(null)), "fixture.workload.Workload");
        assertEquals(0, plain.exitCode(), plain.stderr());
        assertEquals(0, traced.exitCode(), traced.stderr());
        assertEquals(plain.stdout(), traced.stdout());
        assertEquals("", traced.stderr());
    }

    @Test
    void aRecordingThatDoesNotEnableTheEventsGetsNone(@TempDir Path dir) throws Exception {
        // Deferred (the default): such a recording does not make the agent rewrite anything, so
        // there is not even a definition. Eager: classes are rewritten as they load and their
        // definitions, enabled by default, are recorded; still no trace.
        assertEquals(0, definitionsWithDefaultRecording(dir, "deferred", List.of()));
        assertTrue(definitionsWithDefaultRecording(dir, "eager", List.of("-Dminitrace.rewrite=eager")) > 0,
                "definitions are enabled by default");
    }

    private static int definitionsWithDefaultRecording(Path dir, String name, List<String> jvmArgs) throws Exception {
        Path jfr = dir.resolve(name + ".jfr");
        List<String> args = new java.util.ArrayList<>(jvmArgs);
        args.addAll(List.of(ChildJvm.agent(null), "-XX:StartFlightRecording:filename=" + jfr));
        ChildJvm.Result r = ChildJvm.run(dir, args, "fixture.workload.Workload");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("total 51"), r.stdout());
        int traced = 0;
        int definitions = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            String type = e.getEventType().getName();
            if (type.equals(EventNames.METHOD_DEFINITION)) {
                definitions++;
            } else if (type.startsWith("minitrace.")) {
                traced++;
            }
        }
        assertEquals(0, traced, name + ": method/lock/alloc events with the default settings");
        return definitions;
    }

    @ParameterizedTest
    @ValueSource(strings = {"bogus=1", "include=", "include=com..acme", "events=method+cpu", "exclude=Foo::",
        "include=a.B,verbose,junk", "events=method,events=lock", "capture=a.B,redact=value:(", "redact=password",
        "capture=a.B,redact=a.B::m#0", "redact=type:a b"})
    void aMalformedOptionStopsStartUpWithOneLine(String options, @TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(options)), "fixture.workload.Workload");
        assertNotEquals(0, r.exitCode());
        assertEquals("", r.stdout(), "main must not run");
        List<String> lines = r.stderrLines();
        assertEquals(1, lines.size(), "exactly one line: " + r.stderr());
        assertTrue(lines.get(0).startsWith("minitrace: bad agent option"), lines.get(0));
        assertTrue(lines.get(0).contains("expected"), lines.get(0));
    }

    /** A class whose one method grows past 64 KiB when allocations are instrumented. */
    static byte[] hugeClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "huge/Huge", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "main", "([Ljava/lang/String;)V", null, null);
        mv.visitCode();
        for (int i = 0; i < 14000; i++) {
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
            mv.visitInsn(Opcodes.POP);
        }
        mv.visitFieldInsn(Opcodes.GETSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
        mv.visitLdcInsn("huge ok");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/io/PrintStream", "println", "(Ljava/lang/String;)V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "fixture/workload/Workload", "main", "([Ljava/lang/String;)V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void aClassThatCannotBeRewrittenIsNamedOnceAndRunsUnchanged(@TempDir Path dir) throws Exception {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve("huge"));
        Files.write(classes.resolve("huge/Huge.class"), hugeClass());
        Path jfr = dir.resolve("huge.jfr");
        ChildJvm.Result r = ChildJvm.start(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(jfr, null)),
                List.of(classes, ChildJvm.TEST_CLASSES), "huge.Huge").await();
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(withoutJfrLog(r.stdout()).startsWith("huge ok"), r.stdout());
        assertTrue(r.stdout().contains("total 51"), "the rest is still traced and runs: " + r.stdout());
        List<String> reports = r.stderrLines().stream().filter(l -> l.startsWith("minitrace:")).toList();
        assertEquals(1, reports.size(), r.stderr());
        assertTrue(reports.get(0).startsWith("minitrace: not instrumenting huge.Huge: MethodTooLargeException"), reports.get(0));
        boolean workloadTraced = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(EventNames.METHOD_DEFINITION)) {
                assertFalse(e.getString("className").equals("huge.Huge"), "no id for the class left unchanged");
                workloadTraced |= e.getString("className").equals("fixture.workload.Worker");
            }
        }
        assertTrue(workloadTraced);
    }

    /** Drops the lines JFR logs on stdout when a recording starts. */
    static String withoutJfrLog(String stdout) {
        StringBuilder sb = new StringBuilder();
        for (String line : stdout.split("\n", -1)) {
            if (!line.contains("[jfr,startup]")) {
                sb.append(line).append('\n');
            }
        }
        return sb.substring(0, sb.length() - 1);
    }

    @Test
    void jacksonDatabindRunsCorrectlyWhenTraced(@TempDir Path dir) throws Exception {
        List<Path> cp = new ArrayList<>(List.of(ChildJvm.TEST_CLASSES));
        for (Class<?> c : List.of(ObjectMapper.class, JsonFactory.class, com.fasterxml.jackson.annotation.JsonProperty.class)) {
            cp.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        ChildJvm.Result plain = ChildJvm.start(dir, List.of(), cp, "fixture.jackson.JacksonRoundTrip").await();
        Path jfr = dir.resolve("jackson.jfr");
        ChildJvm.Result traced = ChildJvm.start(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(jfr, null)), cp,
                "fixture.jackson.JacksonRoundTrip").await();
        assertEquals(0, plain.exitCode(), plain.stderr());
        assertEquals(0, traced.exitCode(), traced.stderr());
        assertEquals(plain.stdout(), withoutJfrLog(traced.stdout()));
        assertTrue(traced.stdout().contains("\"id\":\"a-1\""), traced.stdout());
        assertFalse(traced.stderr().contains("minitrace: not instrumenting"), traced.stderr());
        long jacksonEntries = 0;
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        var names = new java.util.HashMap<Integer, String>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_DEFINITION)) {
                names.put(e.getInt("methodId"), e.getString("className"));
            }
        }
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_ENTRY)
                    && names.getOrDefault(e.getInt("methodId"), "").startsWith("com.fasterxml.jackson.databind.")) {
                jacksonEntries++;
            }
        }
        assertTrue(jacksonEntries > 1000, "Jackson's own methods were traced: " + jacksonEntries);
        // Entries and exits balance per thread, through Jackson's exceptions and constructors too.
        for (var t : Recordings.byThread(events).entrySet()) {
            long depth = 0;
            for (RecordedEvent e : t.getValue()) {
                String type = e.getEventType().getName();
                depth += type.equals(EventNames.METHOD_ENTRY) ? 1 : type.equals(EventNames.METHOD_EXIT) ? -1 : 0;
                assertTrue(depth >= 0, "exit without entry on " + t.getKey());
            }
            assertEquals(0, depth, "unbalanced on " + t.getKey());
        }
        assertTrue(Recordings.assertIdsResolvePerChunk(jfr, dir) > 0);
    }
}
