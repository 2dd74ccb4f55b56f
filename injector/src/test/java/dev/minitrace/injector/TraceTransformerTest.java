package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TraceTransformerTest {
    private final ClassLoader app = ClassLoader.getSystemClassLoader();
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    @Test
    void onlyApplicationClassesOutsideProtectedPackagesAreEligible() {
        assertTrue(TraceTransformer.eligible(app, "com/acme/Foo", platform));
        assertTrue(TraceTransformer.eligible(app, "fixture/workload/Worker", platform));
        assertTrue(TraceTransformer.eligible(app, "dev/minitrace/demo/DemoMain", platform), "the demo is an application");
        assertFalse(TraceTransformer.eligible(null, "com/acme/Foo", platform), "bootstrap loader");
        assertFalse(TraceTransformer.eligible(platform, "com/acme/Foo", platform), "platform loader");
        assertFalse(TraceTransformer.eligible(app, null, platform), "hidden class");
        for (String never : new String[] {"dev/minitrace/injector/Agent", "dev/minitrace/shaded/asm/ClassReader",
            "dev/minitrace/events/MethodEntryEvent", "dev/minitrace/injector/runtime/Trace",
            "java/lang/Foo", "jdk/jfr/Event", "jdk/internal/misc/Unsafe", "sun/misc/Unsafe", "com/acme/Foo$$Lambda$14"}) {
            assertFalse(TraceTransformer.eligible(app, never, platform), never);
        }
        // the copy of the jrt: file system that a loader of its own takes from another JDK's lib/jrt-fs.jar
        assertTrue(TraceTransformer.eligible(app, "jdk/internal/jrtfs/JrtPath", platform));
        assertTrue(TraceTransformer.eligible(app, "jdk/internal/jimage/ImageReader", platform));
    }

    private static byte[] bytes(Class<?> c) throws Exception {
        try (var in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void returnsNullForWhatItDoesNotTouchAndBytesForWhatItDoes() throws Exception {
        TraceTransformer t = new TraceTransformer(AgentOptions.parse("include=fixture.workload.Item"));
        byte[] item = bytes(Class.forName("fixture.workload.Item"));
        byte[] worker = bytes(Class.forName("fixture.workload.Worker"));
        assertNotNull(t.transform(app, "fixture/workload/Item", null, null, item));
        assertNull(t.transform(app, "fixture/workload/Worker", null, null, worker), "filtered out");
        assertNull(t.transform(null, "fixture/workload/Item", null, null, item), "bootstrap");
        assertNull(t.transform(app, "fixture/workload/Item", Object.class, null, item), "redefinition");
    }

    @Test
    void aBrokenClassIsReportedOnceAndLeftAlone() {
        TraceTransformer t = new TraceTransformer(AgentOptions.defaults());
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            byte[] garbage = {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0, 0, 61, 0};
            assertNull(t.transform(app, "com/acme/Broken", null, null, garbage));
            assertNull(t.transform(app, "com/acme/Broken", null, null, garbage));
        } finally {
            System.setErr(original);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.startsWith("minitrace: not instrumenting com.acme.Broken: "), out);
    }

    @Test
    void classesOfALoaderThatCannotSeeTheHooksAreLeftAloneAndReportedOnce() throws Exception {
        ClassLoader isolated = new ClassLoader(null) {
        };
        ClassLoader child = new ClassLoader(app) {
        };
        assertTrue(TraceTransformer.seesAgent(app, app));
        assertTrue(TraceTransformer.seesAgent(child, app));
        assertFalse(TraceTransformer.seesAgent(isolated, app));
        TraceTransformer t = new TraceTransformer(AgentOptions.defaults());
        byte[] item = bytes(Class.forName("fixture.workload.Item"));
        assertNotNull(t.transform(child, "fixture/workload/Item", null, null, item));
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertNull(t.transform(isolated, "fixture/workload/Item", null, null, item));
            assertNull(t.transform(isolated, "fixture/workload/Worker", null, null, item));
        } finally {
            System.setErr(original);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.contains("cannot see the hooks"), out);
    }
}
