package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The redaction rules: compiled once, applied to parameters at rewrite time and to values when rendered. */
class RedactionTest {
    @AfterEach
    void restoreDefaults() {
        ValueText.redact(Redaction.defaults());
    }

    @Test
    void defaultsHideSecretlyNamedParametersAndSecretTypes() {
        Redaction r = Redaction.defaults();
        assertArrayEquals(new boolean[] {false, true, true, true, false},
                r.redactedParameters("a.B", List.of(), "m", List.of(), 5, new String[] {"user", "userPassword", "apiKey", "TOKEN", "amount"}));
        assertNull(r.redactedParameters("a.B", List.of(), "m", List.of(), 2, new String[] {"user", "amount"}));
        assertNull(r.redactedParameters("a.B", List.of(), "m", List.of(), 2, null), "names unknown: no name rule applies");
        assertTrue(r.redactsType(char[].class));
        assertTrue(r.redactsType(SecretKeySpec.class), "javax.crypto.* and java.security.Key");
        assertFalse(r.redactsType(String.class));
        assertFalse(r.redactsType(byte[].class));
    }

    @Test
    void positionRulesNameOneParameterOfTheMethodsTheirFilterMatches() {
        Redaction r = Redaction.parse(List.of("nodefaults", "com.acme.Auth::login#2", "#3"));
        assertArrayEquals(new boolean[] {false, true, true},
                r.redactedParameters("com.acme.Auth", List.of(), "login", List.of(), 3, null));
        assertArrayEquals(new boolean[] {false, false, true},
                r.redactedParameters("com.acme.Auth", List.of(), "logout", List.of(), 3, null));
        assertNull(r.redactedParameters("com.acme.Auth", List.of(), "login", List.of(), 1, null), "no second parameter");
    }

    @Test
    void typeRulesCoverSubclassesInterfacesAndNestedClasses() {
        Redaction r = Redaction.parse(List.of("nodefaults", "type:java.lang.CharSequence", "type:java.util.AbstractMap"));
        assertTrue(r.redactsType(StringBuilder.class), "an interface of the class");
        assertTrue(r.redactsType(java.util.HashMap.class), "a superclass");
        assertFalse(r.redactsType(Integer.class));
        Redaction nested = Redaction.parse(List.of("nodefaults", "type:java.util.Map"));
        assertTrue(nested.redactsType(java.util.Map.Entry.class), "java.util.Map$Entry is nested in java.util.Map");
        Redaction pkg = Redaction.parse(List.of("nodefaults", "type:java.util.concurrent.*"));
        assertTrue(pkg.redactsType(java.util.concurrent.atomic.AtomicLong.class), "subpackages too");
        assertFalse(pkg.redactsType(java.util.ArrayList.class));
    }

    @Test
    void valueRulesHideTheWholeTextBeforeItIsCut() {
        ValueText.redact(Redaction.parse(List.of("value:\\d{4\\,}-\\d{4}")));
        assertEquals("<redacted>", ValueText.of("call 5555-0199"));
        assertEquals("call 555-0199", ValueText.of("call 555-0199"));
        // The match lies beyond the cut: it must still hide the value, not leave its first part.
        assertEquals("<redacted>", ValueText.of("x".repeat(ValueText.MAX_CHARS - 3) + "1234-5678"));
        assertEquals("[a, <redacted>]", ValueText.of(new String[] {"a", "1234-5678"}));
        assertEquals("<redacted>", ValueText.checked("12345678-1234"));
        assertEquals("java.lang.IllegalStateException: <redacted>", ValueText.thrown(new IllegalStateException("bad 1234-5678")));
    }

    @Test
    void aRedactedTypeIsNeverRendered() {
        ValueText.redact(Redaction.parse(List.of("type:" + Exploding.class.getName())));
        assertEquals("<redacted>", ValueText.of(new Exploding()));
        assertEquals("[<redacted>, null]", ValueText.of(new Object[] {new Exploding(), null}));
        assertEquals("<redacted>", ValueText.of(new char[] {'p', 'w'}));
        assertEquals("<redacted>", ValueText.of(Redaction.REDACTED));
    }

    /** A value whose toString must not run. */
    static final class Exploding {
        @Override
        public String toString() {
            throw new AssertionError("rendered a redacted value");
        }
    }

    @Test
    void badRulesAreNamed() {
        assertEquals("redact rule 'name:' is empty; expected a pattern after ':'",
                assertThrows(IllegalArgumentException.class, () -> Redaction.parse(List.of("name:"))).getMessage());
        assertEquals("redact rule 'a.B::m#0': expected a parameter position 1..255 after '#'",
                assertThrows(IllegalArgumentException.class, () -> Redaction.parse(List.of("a.B::m#0"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Redaction.parse(List.of("value:(")))
                .getMessage().startsWith("redact rule 'value:(': expected a Java regular expression after 'value:' (Unclosed group"));
        assertEquals("redact rule 'password': expected [pkg.Class::method]#N, name:GLOB, type:CLASS, value:REGEX or nodefaults",
                assertThrows(IllegalArgumentException.class, () -> Redaction.parse(List.of("password"))).getMessage());
        assertEquals("redact rule 'type:a b': 'a b' is not a class name; expected e.g. char[], javax.crypto.* or com.acme.Card",
                assertThrows(IllegalArgumentException.class, () -> Redaction.parse(List.of("type:a b"))).getMessage());
    }
}
