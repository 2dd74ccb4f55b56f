package dev.minitrace.bench.convert;

import java.nio.file.Path;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The baseline: reads every event of a recording with {@code jdk.jfr.consumer.RecordingFile} and
 * does nothing else. Prints {@code RESULT <events> <seconds> <peak RSS KiB> <peak heap bytes>}.
 */
public final class RecordingFileProbe {
    private RecordingFileProbe() {
    }

    /** Entry point of the child JVM: {@code IN.jfr}. */
    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        long events = 0;
        long minitrace = 0;
        try (RecordingFile rf = new RecordingFile(Path.of(args[0]))) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                events++;
                if (e.getEventType().getName().startsWith("minitrace.")) {
                    minitrace++;
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.println("RESULT " + events + " " + seconds + " " + ProcessStats.peakRssKb() + " "
                + ProcessStats.peakHeapBytes() + " " + minitrace);
    }
}
