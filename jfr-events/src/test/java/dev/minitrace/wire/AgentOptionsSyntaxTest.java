package dev.minitrace.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The option splitters are loops (premain must not pay for compiling patterns); each must split
 * and escape exactly as the regular expression that states its rule.
 */
class AgentOptionsSyntaxTest {
    private static final char[] ALPHABET = {'a', 'b', ',', ';', '+', '\\', ':'};

    @Test
    void splittersAgreeWithTheirRegularExpressionsOnRandomText() {
        Random random = new Random(42);
        for (int n = 0; n < 20_000; n++) {
            String text = randomText(random);
            assertArrayEquals(text.split("(?<!\\\\),", -1), AgentOptionsSyntax.splitOptions(text), text);
            assertEquals(Arrays.asList(text.split("[+;]", -1)), AgentOptionsSyntax.splitEvents(text), text);
            assertEquals(text.replaceAll("(?<!\\\\)([,;])", "\\\\$1"), AgentOptionsSyntax.escapeRule(text), text);
        }
    }

    @Test
    void examples() {
        assertArrayEquals(new String[] {"include=a.B", "redact=value:x\\,y", "verbose", ""},
                AgentOptionsSyntax.splitOptions("include=a.B,redact=value:x\\,y,verbose,"));
        assertEquals(List.of("method", "lock", "alloc"), AgentOptionsSyntax.splitEvents("method+lock;alloc"));
        assertEquals(List.of(""), AgentOptionsSyntax.splitEvents(""));
        assertEquals("value:a\\,b\\;c\\,d", AgentOptionsSyntax.escapeRule("value:a,b;c\\,d"));
    }

    private static String randomText(Random random) {
        char[] c = new char[random.nextInt(13)];
        for (int i = 0; i < c.length; i++) {
            c[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(c);
    }
}
