package dev.minitrace.injector.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.FilterSetting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Parsing of what mt sends, and the filter setting's union. */
class AttachRequestTest {
    @Test
    void parsesEveryKey() {
        AttachRequest r = AttachRequest.parse("cmd=start\noptions=include=a.*,events=method\njfc=/x/y.jfc\nout=/o/t.jfr\nduration=1500\nreply=t1\n");
        assertEquals("start", r.command());
        assertEquals("include=a.*,events=method", r.options());
        assertEquals(Path.of("/x/y.jfc"), r.jfc());
        assertEquals(Path.of("/o/t.jfr"), r.out());
        assertEquals(Duration.ofMillis(1500), r.duration());
        assertEquals("t1", r.reply());
        AttachRequest stop = AttachRequest.parse("cmd=stop\nreply=t2\n");
        assertNull(stop.duration());
        assertNull(stop.out());
    }

    @Test
    void rejectsUnknownKeysAndCommands() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AttachRequest.parse("cmd=start\nbogus=1\n"))
                .getMessage().contains("unknown key 'bogus'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AttachRequest.parse("cmd=pause\n"))
                .getMessage().contains("expected start or stop"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AttachRequest.parse("cmd=start\nnoequals\n"))
                .getMessage().contains("expected key=value"));
    }

    @Test
    void filterSettingCombinesTheUnionOfNonEmptyFilters() {
        FilterSetting s = new FilterSetting();
        assertEquals("", s.getValue());
        assertEquals("a.B;c.*;d::e", s.combine(Set.of("c.*;a.B", "", "d::e;a.B")));
        assertEquals("", s.combine(Set.of("", " ")));
    }
}
