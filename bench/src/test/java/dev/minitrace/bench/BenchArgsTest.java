package dev.minitrace.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A benchmark's command line: values in order, and every malformed one a one-line usage message. */
class BenchArgsTest {

    @Test
    void readsOptionsAndTheirValuesInOrder() throws Exception {
        BenchArgs a = new BenchArgs(new String[] {"--rounds", "3", "--keep", "--trees", "0", "--recording", "/x.jfr"}, "U");
        assertTrue(a.hasNext());
        assertEquals("--rounds", a.option());
        assertEquals(3, a.intNumber(1));
        assertTrue(a.hasNext());
        assertEquals("--keep", a.option());
        assertTrue(a.hasNext());
        assertEquals(0L, a.number(0));
        assertTrue(a.hasNext());
        assertEquals("/x.jfr", a.value());
        assertFalse(a.hasNext());
    }

    @Test
    void saysWhatIsWrongWithAValue() {
        assertEquals("--rounds needs a value; usage: U", usage(new String[] {"--rounds"}, a -> a.intNumber(1)));
        assertEquals("--rounds needs a value; usage: U", usage(new String[] {"--rounds", "--keep"}, a -> a.intNumber(1)));
        assertEquals("--java /no/such/jdk: no bin/java there (expected a JDK home)", usage(new String[] {"--java", "/no/such/jdk"}, BenchArgs::javaHome));
        assertEquals("--rounds takes a whole number of at least 1, not '0'", usage(new String[] {"--rounds", "0"}, a -> a.intNumber(1)));
        assertEquals("--rounds takes a whole number of at least 1, not 'x'", usage(new String[] {"--rounds", "x"}, a -> a.intNumber(1)));
        assertEquals("--rounds takes a number up to 2147483647, not 2147483648",
                usage(new String[] {"--rounds", "2147483648"}, a -> a.intNumber(1)));
        assertEquals("unknown option '--bogus'; usage: U", usage(new String[] {"--bogus"}, a -> {
            throw a.unknown();
        }));
    }

    @Test
    void readsAListOfKnownNamesInOrderWithoutRepeats() throws Exception {
        BenchArgs a = new BenchArgs(new String[] {"--configs", "c,a,c"}, "U");
        assertTrue(a.hasNext());
        assertEquals(java.util.List.of("c", "a"), a.names(java.util.List.of("a", "b", "c")));
        assertEquals("--configs: unknown 'x' (expected some of a,b)",
                usage(new String[] {"--configs", "a,x"}, r -> r.names(java.util.List.of("a", "b"))));
    }

    private interface Read {
        void read(BenchArgs a) throws BenchArgs.Usage;
    }

    private static String usage(String[] args, Read read) {
        BenchArgs a = new BenchArgs(args, "U");
        assertTrue(a.hasNext());
        return assertThrows(BenchArgs.Usage.class, () -> read.read(a)).getMessage();
    }
}
