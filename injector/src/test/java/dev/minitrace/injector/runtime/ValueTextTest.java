package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Bounded, never-throwing rendering of captured values. */
class ValueTextTest {
    @Test
    void primitivesNullAndStrings() {
        assertEquals("null", ValueText.of(null));
        assertEquals("42", ValueText.of(42));
        assertEquals("x", ValueText.of('x'));
        assertEquals("text", ValueText.of("text"));
    }

    @Test
    void arraysAreBoundedAndNestedArraysNamed() {
        assertEquals("[1, 2]", ValueText.of(new int[] {1, 2}));
        assertEquals("[true, false]", ValueText.of(new boolean[] {true, false}));
        assertEquals("[a, null]", ValueText.of(new String[] {"a", null}));
        assertEquals("[int[2], null]", ValueText.of(new int[][] {{1, 2}, null}));
        assertEquals("[" + "0, ".repeat(16) + "... (100 elements)]", ValueText.of(new long[100]));
    }

    @Test
    void longTextIsCut() {
        String s = ValueText.of("y".repeat(5000));
        assertEquals("y".repeat(ValueText.MAX_CHARS) + "... (5000 chars)", s);
    }

    @Test
    void aThrowingOrRecursingToStringNeverEscapes() {
        Object throwing = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("no");
            }
        };
        assertTrue(ValueText.of(throwing).endsWith(".toString() threw java.lang.IllegalStateException>"), ValueText.of(throwing));
        Object recursing = new Object() {
            @Override
            public String toString() {
                return "r" + this;
            }
        };
        assertTrue(ValueText.of(recursing).endsWith(".toString() threw java.lang.StackOverflowError>"));
        Object nullText = new Object() {
            @Override
            public String toString() {
                return null;
            }
        };
        assertEquals("null", ValueText.of(nullText));
        RuntimeException badMessage = new RuntimeException() {
            @Override
            public String getMessage() {
                throw new IllegalStateException();
            }
        };
        assertTrue(ValueText.thrown(badMessage).contains("<getMessage() threw java.lang.IllegalStateException>"));
        assertEquals("java.lang.IllegalStateException: why", ValueText.thrown(new IllegalStateException("why")));
    }
}
