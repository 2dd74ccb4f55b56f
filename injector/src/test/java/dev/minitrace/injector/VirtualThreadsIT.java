package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On JDK 21+, each virtual thread has its own sequence and its exact trace. */
class VirtualThreadsIT {

    @Test
    void eachVirtualThreadHasItsOwnExactTrace(@TempDir Path dir) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
        Path jfr = dir.resolve("virtual.jfr");
        ChildJvm.Result r = ChildJvm.run(dir, List.of(ChildJvm.agent(null), ChildJvm.recording(jfr, null)),
                "fixture.workload.VirtualWorkload");
        assertEquals(0, r.exitCode(), r.stderr());
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        Map<Integer, String> names = Recordings.methodNames(events);
        Map<String, List<RecordedEvent>> threads = Recordings.byThread(events);
        for (int i = 0; i < 3; i++) {
            List<RecordedEvent> list = threads.get("vt-" + i);
            List<String> tokens = new ArrayList<>();
            for (int k = 0; k < list.size(); k++) {
                assertEquals(k + 1, list.get(k).getLong("sequence"), "vt-" + i + " event " + k);
                tokens.add(Recordings.token(list.get(k), names));
            }
            assertEquals(TraceWorkloadIT.workerTrace(i), tokens, "vt-" + i);
        }
    }
}
