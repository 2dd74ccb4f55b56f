package dev.minitrace.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The attach request as mt writes it and the agent parses it. */
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
    void writesOneKeyPerLineInTheOrderTheAgentDocuments() {
        AttachRequest r = AttachRequest.start("include=a.*", Path.of("/p/x.jfc"), Path.of("/o/t.jfr"), Duration.ofSeconds(3));
        assertEquals("cmd=start\noptions=include=a.*\njfc=/p/x.jfc\nout=/o/t.jfr\nduration=3000\n", r.text());
        assertEquals("cmd=start\noptions=include=a.*\njfc=/p/x.jfc\nout=/o/t.jfr\nduration=3000\nreply=9-1\n", r.withReply("9-1").text());
        assertEquals("cmd=stop\n", AttachRequest.stop().text());
        assertEquals("cmd=start\n", AttachRequest.start("", null, null, null).text());
    }

    @Test
    void whatIsWrittenParsesBackToTheSameRequest() {
        AttachRequest r = AttachRequest.start("include=a.*;b.C,redact=value:x\\,y", Path.of("/p/a,b.jfc"), Path.of("/o/t.jfr"),
                Duration.ofMillis(250)).withReply("42-7");
        assertEquals(r, AttachRequest.parse(r.text()));
        AttachRequest stop = AttachRequest.stop().withReply("t");
        assertEquals(stop, AttachRequest.parse(stop.text()));
    }

    @Test
    void aLineBreakInAValueIsRefusedNotSplitIntoAnotherKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AttachRequest.start("", Path.of("/p/x.jfc"), Path.of("/o/t\nreply=x.jfr"), null).text());
        assertEquals("attach request: out must not contain a line break", e.getMessage());
    }
}
