package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.injector.runtime.EventKind;
import dev.minitrace.injector.runtime.Redaction;
import dev.minitrace.wire.AgentOptionsSyntax;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentOptionsTest {

    private static List<String> texts(List<?> filters) {
        return filters.stream().map(Object::toString).toList();
    }

    @Test
    void noOptionsMeansEverythingQuietly() {
        for (String empty : new String[] {null, "", "  "}) {
            AgentOptions o = AgentOptions.parse(empty);
            assertEquals(List.of(), o.includes());
            assertEquals(List.of(), o.excludes());
            assertTrue(o.events().contains(EventKind.METHOD) && o.events().contains(EventKind.LOCK) && o.events().contains(EventKind.ALLOC));
            assertFalse(o.verbose());
        }
    }

    @Test
    void fullSyntax() {
        AgentOptions o = AgentOptions.parse("include=com.acme.*;com.foo.Bar::baz,exclude=::toString;@a.Generated,events=method+lock,verbose");
        assertEquals(List.of("com.acme.*", "com.foo.Bar::baz"), texts(o.includes()));
        assertEquals(List.of("::toString", "@a.Generated"), texts(o.excludes()));
        assertTrue(o.events().contains(EventKind.METHOD));
        assertTrue(o.events().contains(EventKind.LOCK));
        assertFalse(o.events().contains(EventKind.ALLOC));
        assertTrue(o.verbose());
    }

    @Test
    void aCommaNotFollowedByAKeyContinuesThePreviousOption() {
        AgentOptions o = AgentOptions.parse("events=method,lock,alloc,include=a.B,c.D::e,exclude=::x");
        assertTrue(o.events().contains(EventKind.METHOD) && o.events().contains(EventKind.LOCK) && o.events().contains(EventKind.ALLOC));
        assertEquals(List.of("a.B", "c.D::e"), texts(o.includes()));
        assertEquals(List.of("::x"), texts(o.excludes()));
        AgentOptions alloc = AgentOptions.parse("events=alloc");
        assertFalse(alloc.events().contains(EventKind.METHOD) || alloc.events().contains(EventKind.LOCK));
        assertTrue(alloc.events().contains(EventKind.ALLOC));
    }

    @Test
    void methodRecordsAreBufferedAndStampedWhenNeededUnlessAsked() {
        AgentOptions defaults = AgentOptions.parse("include=a.B");
        assertTrue(defaults.bufferMethods());
        assertFalse(defaults.stampEvery());
        AgentOptions events = AgentOptions.parse("methods=events,stamp=every");
        assertFalse(events.bufferMethods());
        assertTrue(events.stampEvery());
        assertTrue(AgentOptions.parse("stamp=tick,methods=buffer").bufferMethods());
    }

    @Test
    void allocScopeIsTracedUnlessAllAndNeedsAllocationsInBuffers() {
        assertFalse(AgentOptions.parse("include=a.B").allocAll());
        assertFalse(AgentOptions.parse("alloc-scope=traced").allocAll());
        AgentOptions all = AgentOptions.parse("include=a.*,alloc-scope=all,events=method,alloc");
        assertTrue(all.allocAll());
        assertEquals(List.of("a.*"), texts(all.includes()));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc-scope=some"));
        assertEquals("option 'alloc-scope=some': expected alloc-scope=traced or alloc-scope=all", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc-scope=all,events=method"));
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc-scope=all,methods=events"));
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc-scope=all,alloc-scope=traced"));
    }

    @Test
    void onlyIncludeFiltersNamingClassesReachTheJdk() {
        assertEquals(null, AgentOptions.parse("exclude=a.B").selector().forJdk());
        assertEquals(null, AgentOptions.parse("include=::toString;@a.Traced").selector().forJdk());
        dev.minitrace.injector.filter.MethodSelector jdk = AgentOptions.parse("include=a.*;java.util.HashMap::put;::toString").selector().forJdk();
        assertTrue(jdk.mayTraceClass("java.util.HashMap"));
        assertFalse(jdk.mayTraceClass("java.util.ArrayList"));
        assertTrue(jdk.traces("java.util.HashMap", List.of(), "put", List.of()));
        assertFalse(jdk.traces("java.util.HashMap", List.of(), "toString", List.of()));
    }

    @Test
    void captureTakesFiltersLikeInclude() {
        AgentOptions o = AgentOptions.parse("include=a.*,capture=a.B::m;c.D,verbose");
        assertEquals(List.of("a.B::m", "c.D"), texts(o.captures()));
        assertTrue(o.verbose());
        assertTrue(AgentOptions.parse("include=a.B").captures().isEmpty());
        assertEquals(null, AgentOptions.parse("include=a.B").captureSelector());
    }

    @Test
    void redactRulesAddToTheDefaultsAndKeepEscapedSeparators() {
        assertEquals(Redaction.DEFAULTS, AgentOptions.parse("include=a.B").redaction().rules());
        AgentOptions o = AgentOptions.parse("capture=a.B,redact=a.B::m#2;type:a.Card,value:\\d{4\\,}x\\;y,verbose");
        List<String> expected = new java.util.ArrayList<>(Redaction.DEFAULTS);
        expected.addAll(List.of("a.B::m#2", "type:a.Card", "value:\\d{4\\,}x\\;y"));
        assertEquals(expected, o.redaction().rules());
        assertTrue(o.verbose());
        assertTrue(o.redaction().redactsText("1234x;y"), "the escaped comma and semicolon are the pattern's own");
        assertFalse(o.redaction().redactsText("123x;y"));
        assertEquals(List.of("#1"), AgentOptions.parse("redact=nodefaults;#1").redaction().rules());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bogus=1|unknown option 'bogus=1'; expected include=FILTERS, exclude=FILTERS, events=EVENTS, capture=FILTERS, methods=buffer|events, stamp=tick|every, redact=RULES or verbose",
        "methods=fast|option 'methods=fast': expected methods=buffer or methods=events",
        "stamp=|option 'stamp=': expected stamp=tick or stamp=every",
        "methods=events,methods=buffer|option 'methods=' given twice",
        "include=|option 'include=' has no filter",
        "exclude=  |option 'exclude=' has no filter",
        "include=a.B;;c.D|empty filter",
        "include=com..acme|'com..acme' is not a qualified name",
        "include=.acme|'.acme' is not a qualified name",
        "include=acme.|'acme.' is not a qualified name",
        "include=a.B::|no method name after '::'",
        "include=a.B:c|a single ':'",
        "include=::a.b|'a.b' is not a method name",
        "include=@|'' is not a qualified name",
        "include=a-b.C|'a-b.C' is not a qualified name",
        "events=method+cpu|unknown event 'cpu'; expected method, lock, alloc, exception, field, death or receiver",
        "events=|unknown event ''",
        "include=a.B,include=c.D|option 'include=' given twice",
        "events=lock,events=alloc|option 'events=' given twice",
        "verbose,foo|unknown option 'foo'",
        "verbose=yes|unknown option 'verbose=yes'",
        "capture=|option 'capture=' has no filter",
        "capture=a..B|'a..B' is not a qualified name",
        "capture=a.B,capture=c.D|option 'capture=' given twice",
        "redact=|option 'redact=' has no rule",
        "redact=a;;b|an empty rule",
        "redact=#1,redact=#2|option 'redact=' given twice",
        "redact=secret|redact rule 'secret': expected [pkg.Class::method]#N, name:GLOB, type:CLASS, value:REGEX or nodefaults",
        "redact=a..B::m#1|redact rule 'a..B::m#1': filter 'a..B::m'",
    })
    void malformedOptionsNameTheOptionAndWhatWasExpected(String options, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(options));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void whatTheCommandLineWritesTheAgentReadsBack() {
        String text = AgentOptionsSyntax.format(List.of("com.acme.*", "x.Y::run"), List.of("::toString"), List.of("method", "alloc"),
                List.of("x.Y::run"), List.of("x.Y::run#2", "value:\\d{13,16};x"));
        AgentOptions o = AgentOptions.parse(text);
        assertEquals(List.of("com.acme.*", "x.Y::run"), texts(o.includes()));
        assertEquals(List.of("::toString"), texts(o.excludes()));
        assertTrue(o.events().contains(EventKind.METHOD) && o.events().contains(EventKind.ALLOC));
        assertFalse(o.events().contains(EventKind.LOCK));
        assertEquals(List.of("x.Y::run"), texts(o.captures()));
        List<String> rules = o.redaction().rules();
        assertEquals(List.of("x.Y::run#2", "value:\\d{13\\,16}\\;x"), rules.subList(rules.size() - 2, rules.size()));
        assertEquals(AgentOptions.defaults().includes(), AgentOptions.parse(AgentOptionsSyntax.format(
                List.of(), List.of(), List.of(), List.of(), List.of())).includes());
    }
}
