package dev.minitrace.bench.convert;

import java.nio.file.Path;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The baseline: reads every event of a recording with {@code jdk.jfr.consumer.RecordingFile} and
 * does nothing else (besides counting). Prints
 * {@code RESULT <events> <seconds> <peak RSS KiB> <peak heap bytes> <minitrace trace records>}, where
 * trace records are the method records packed in {@code minitrace.MethodBuffer} events plus the
 * other minitrace events except definitions.
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
                String type = e.getEventType().getName();
                if (type.equals("minitrace.MethodBuffer")) {
                    minitrace += e.getInt("recordCount"); // trace records, to compare with the converter's
                } else if (type.startsWith("minitrace.") && !type.endsWith("Definition")) {
                    minitrace++;
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.println("RESULT " + events + " " + seconds + " " + ProcessStats.peakRssKb() + " "
                + ProcessStats.peakHeapBytes() + " " + minitrace);
    }
}
