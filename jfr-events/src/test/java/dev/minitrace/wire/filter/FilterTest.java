package dev.minitrace.wire.filter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FilterTest {
    private static boolean matches(String filter, String cls, String method) {
        return Filter.parse(filter).matches(cls, List.of(), method, List.of());
    }

    @Test
    void classFilterMatchesTheClassAndItsNestedClassesOnly() {
        assertTrue(matches("com.acme.Foo", "com.acme.Foo", "run"));
        assertTrue(matches("com.acme.Foo", "com.acme.Foo$Inner", "run"));
        assertTrue(matches("com.acme.Foo", "com.acme.Foo$1", "run"));
        assertFalse(matches("com.acme.Foo", "com.acme.FooBar", "run"));
        assertFalse(matches("com.acme.Foo", "com.acme.sub.Foo", "run"));
    }

    @Test
    void trailingDotStarMeansPackageAndSubpackages() {
        assertTrue(matches("com.acme.*", "com.acme.Foo", "x"));
        assertTrue(matches("com.acme.*", "com.acme.deep.er.Foo", "x"));
        assertFalse(matches("com.acme.*", "com.acmex.Foo", "x"));
        assertFalse(matches("com.acme.*", "org.acme.Foo", "x"));
        assertTrue(matches("com.*.api.*", "com.acme.api.Foo", "x"));
        assertTrue(matches("com.*.api.*", "com.acme.api.v1.Foo", "x"));
        assertFalse(matches("com.*.api.*", "com.acme.impl.Foo", "x"));
    }

    @Test
    void starWithinANameStaysWithinOneSegment() {
        assertTrue(matches("com.acme.*Service", "com.acme.OrderService", "x"));
        assertTrue(matches("com.acme.*Service", "com.acme.OrderService$Cache", "x"));
        assertFalse(matches("com.acme.*Service", "com.acme.sub.OrderService", "x"));
        assertFalse(matches("com.acme.*Service", "com.acme.ServiceImpl", "x"));
        assertTrue(matches("com.acme.Order*", "com.acme.OrderService", "x"));
    }

    @Test
    void methodFilters() {
        assertTrue(matches("com.foo.Bar::baz", "com.foo.Bar", "baz"));
        assertFalse(matches("com.foo.Bar::baz", "com.foo.Bar", "bazz"));
        assertFalse(matches("com.foo.Bar::baz", "com.foo.Other", "baz"));
        assertTrue(matches("::toString", "any.Thing", "toString"));
        assertFalse(matches("::toString", "any.Thing", "hashCode"));
        assertTrue(matches("::get*", "any.Thing", "getName"));
        assertTrue(matches("com.foo.Bar::<init>", "com.foo.Bar", "<init>"));
        assertTrue(matches("com.acme.*::run", "com.acme.x.Task", "run"));
    }

    @Test
    void annotationFiltersMatchAnnotatedClassesOrMethods() {
        Filter f = Filter.parse("@com.acme.Traced");
        assertTrue(f.matches("a.B", List.of("com.acme.Traced"), "m", List.of()));
        assertTrue(f.matches("a.B", List.of(), "m", List.of("other.Ann", "com.acme.Traced")));
        assertFalse(f.matches("a.B", List.of("com.acme.TracedNot"), "m", List.of()));
        assertTrue(f.mayMatchClass("any.Class"), "annotations are only known from the class bytes");
        assertTrue(Filter.parse("@com.acme.*").matches("a.B", List.of(), "m", List.of("com.acme.x.Timed")));
    }
}
