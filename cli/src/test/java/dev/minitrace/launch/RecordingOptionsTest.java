package dev.minitrace.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RecordingOptionsTest {
    @Test
    void recordingIsNamedKeepsEverythingAndDumpsOnExit() {
        String option = RecordingOptions.startFlightRecording(Path.of("p", "minitrace.jfc"), Path.of("out", "t.jfr"));
        assertEquals("-XX:StartFlightRecording:name=minitrace,settings=" + Path.of("p", "minitrace.jfc")
                + ",filename=" + Path.of("out", "t.jfr") + ",dumponexit=true,maxsize=0,disk=true", option);
        // maxage=0 is not "unlimited" on JDK 17: it drops almost every chunk.
        assertFalse(option.contains("maxage"), option);
    }

    @Test
    void pathWithCommaIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> RecordingOptions.startFlightRecording(Path.of("a,b.jfc"), Path.of("t.jfr")));
        assertThrows(IllegalArgumentException.class,
                () -> RecordingOptions.startFlightRecording(Path.of("a.jfc"), Path.of("t,1.jfr")));
    }

    @Test
    void recorderMemoryIsRaised() {
        assertEquals("-XX:FlightRecorderOptions:memorysize=64m,maxchunksize=64m", RecordingOptions.flightRecorderOptions(17));
        assertEquals("-XX:FlightRecorderOptions:memorysize=64m,maxchunksize=64m,preserve-repository=true", RecordingOptions.flightRecorderOptions(21));
    }
}
