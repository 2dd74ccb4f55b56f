package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JDK 25 agentless mode: jdk.MethodTrace (JEP 520) events become nested METHOD_ENTRY/METHOD_EXIT records. */
class MethodTraceIT {
    @TempDir
    Path dir;

    @Test
    void methodTraceBecomesEntriesAndExits() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 25, "jdk.MethodTrace needs JDK 25; running on " + Runtime.version());
        Path jfr = dir.resolve("mt.jfr");
        String traced = MethodTraceWorkload.Traced.class.getName();
        ChildJvm.Result r = ChildJvm.run(List.of("-XX:StartFlightRecording:filename=" + jfr + ",method-trace=" + traced,
                "-cp", ChildJvm.classpath(), MethodTraceWorkload.class.getName()));
        assertEquals(0, r.status(), r.output());
        for (boolean global : new boolean[] {false, true}) {
            Path out = dir.resolve("mt-" + global + ".mtlog");
            ConvertOptions o = new ConvertOptions(global, FragmentPolicy.MOVING, null, null, null, ConvertOptions.ALL_TYPES);
            ConversionReport report = BothEngines.convert(o, jfr, out);
            assertEquals(3 * 5 + 2, report.methodTraceEvents(), report.warnings().toString());
            MtlogContent c = MtlogContent.read(out);
            Map<Long, dev.minitrace.converter.mtlog.MtlogInfo.MethodInfo> methods = c.info.methods();
            List<String> main = names(c.withoutGc("main"), methods);
            List<String> once = List.of("+depth", "+depth", "+depth", "-depth", "-depth", "-depth", "+leaf", "-leaf", "+thrower", "-thrower");
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                expected.addAll(once);
            }
            assertEquals(expected, main);
            assertEquals(List.of("+depth", "+depth", "-depth", "-depth"), names(c.withoutGc("other"), methods));
            assertTrue(methods.values().stream().anyMatch(m -> m.className().equals(traced) && m.methodName().equals("depth")
                    && m.descriptor().equals("(I)I")), methods.toString());
            assertEquals(c.records, c.headerCount);
        }
    }

    private static List<String> names(List<String> lines, Map<Long, dev.minitrace.converter.mtlog.MtlogInfo.MethodInfo> methods) {
        List<String> r = new ArrayList<>();
        for (String s : lines) {
            String[] f = s.split(" ");
            long id = Long.parseLong(f[1]);
            assertTrue(id >= 1L << 32, "MethodTrace ids live above the agent's: " + id);
            r.add((f[0].equals("METHOD_ENTRY") ? "+" : "-") + methods.get(id).methodName());
        }
        return r;
    }
}
