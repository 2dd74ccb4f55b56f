package dev.minitrace.injector.filter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.wire.filter.Filter;
import java.util.List;
import org.junit.jupiter.api.Test;

class MethodSelectorTest {
    private static MethodSelector selector(List<String> in, List<String> out) {
        return new MethodSelector(in.stream().map(Filter::parse).toList(), out.stream().map(Filter::parse).toList());
    }

    @Test
    void noIncludeMeansEverythingButTheExcludes() {
        MethodSelector s = selector(List.of(), List.of("::toString", "com.gen.*"));
        assertTrue(s.traces("a.B", List.of(), "run", List.of()));
        assertFalse(s.traces("a.B", List.of(), "toString", List.of()));
        assertFalse(s.traces("com.gen.X", List.of(), "run", List.of()));
        assertTrue(s.mayTraceClass("anything.At.All"));
        assertFalse(s.needsAnnotations());
    }

    @Test
    void includesSelectAndExcludesWin() {
        MethodSelector s = selector(List.of("com.acme.*", "com.foo.Bar::baz"), List.of("com.acme.internal.*", "::hashCode"));
        assertTrue(s.traces("com.acme.A", List.of(), "x", List.of()));
        assertFalse(s.traces("com.acme.internal.A", List.of(), "x", List.of()));
        assertFalse(s.traces("com.acme.A", List.of(), "hashCode", List.of()));
        assertTrue(s.traces("com.foo.Bar", List.of(), "baz", List.of()));
        assertFalse(s.traces("com.foo.Bar", List.of(), "qux", List.of()));
        assertFalse(s.traces("org.Other", List.of(), "x", List.of()));
        assertTrue(s.mayTraceClass("com.foo.Bar"));
        assertFalse(s.mayTraceClass("org.Other"));
    }

    @Test
    void annotationIncludesNeedAnnotations() {
        MethodSelector s = selector(List.of("@x.Traced"), List.of());
        assertTrue(s.needsAnnotations());
        assertTrue(s.mayTraceClass("org.Other"));
        assertTrue(s.traces("org.Other", List.of(), "m", List.of("x.Traced")));
        assertFalse(s.traces("org.Other", List.of(), "n", List.of()));
    }

    @Test
    void classKeyChangesOnlyWhenAFilterThatCanMatchTheClassChanges() {
        MethodSelector a = selector(List.of("com.acme.*"), List.of("::toString"));
        MethodSelector ab = selector(List.of("com.acme.*", "com.foo.Bar"), List.of("::toString"));
        MethodSelector none = selector(List.of(), List.of("::toString"));
        assertTrue(a.classKey("com.acme.X").equals(ab.classKey("com.acme.X")), "com.foo.Bar cannot match com.acme.X");
        assertFalse(a.classKey("com.foo.Bar").equals(ab.classKey("com.foo.Bar")));
        assertFalse(a.classKey("com.acme.X").equals(none.classKey("com.acme.X")), "everything vs. a list");
        assertTrue(a.classKey("org.Other").equals(ab.classKey("org.Other")), "matched by neither");
        MethodSelector ann = selector(List.of("@a.Traced"), List.of());
        MethodSelector ann2 = selector(List.of("@a.Traced", "x.Y"), List.of());
        assertTrue(ann.classKey("q.Z").equals(ann2.classKey("q.Z")));
        assertFalse(ann.classKey("q.Z").equals(selector(List.of("@b.Other"), List.of()).classKey("q.Z")), "annotations may match any class");
    }
}
