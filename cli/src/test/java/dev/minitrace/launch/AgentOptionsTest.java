package dev.minitrace.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
    @Test
    void nothingGivenLeavesTheAgentDefaults() {
        assertEquals("", AgentOptions.format(List.of(), List.of(), List.of()));
    }

    @Test
    void keysAreJoinedByCommaFiltersBySemicolonKindsByPlus() {
        assertEquals("include=com.acme.*;org.x.Y::run,exclude=::toString,events=method+lock",
                AgentOptions.format(List.of("com.acme.*", "org.x.Y::run"), List.of("::toString"), List.of("method", "lock")));
    }

    @Test
    void filtersAlreadyJoinedBySemicolonPassThrough() {
        assertEquals("include=a.*;@b.Traced", AgentOptions.format(List.of("a.*;@b.Traced"), List.of(), List.of()));
    }

    @Test
    void onlyTheKeysGivenAppear() {
        assertEquals("events=alloc", AgentOptions.format(List.of(), List.of(), List.of("alloc")));
        assertEquals("exclude=x.Y", AgentOptions.format(List.of(), List.of("x.Y"), List.of()));
    }

    @Test
    void aCommaInAFilterIsRejectedBecauseItWouldSplitTheAgentOptions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.format(List.of("a.B,c.D"), List.of(), List.of()));
        assertEquals("--include 'a.B,c.D': use ';' (not ',') between filters", e.getMessage());
    }

    @Test
    void unknownEventKindIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.format(List.of(), List.of(), List.of("method", "locks")));
        assertTrue(e.getMessage().contains("'locks'"), e.getMessage());
    }

    @Test
    void emptyFilterIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.format(List.of(), List.of(" "), List.of()));
    }
}
