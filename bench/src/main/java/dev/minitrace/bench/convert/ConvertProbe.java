package dev.minitrace.bench.convert;

import dev.minitrace.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Converts a recording with MiniTrace's converter ({@code mt convert}, in this JVM). Prints
 * {@code RESULT <exit status> <seconds> <peak RSS KiB> <peak heap bytes> <output bytes>}.
 */
public final class ConvertProbe {
    private ConvertProbe() {
    }

    /** Entry point of the child JVM: {@code IN.jfr OUT.mtlog LAYOUT}. */
    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        int rc = Main.run("convert", "--layout", args[2], args[0], args[1]);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long size = Files.exists(Path.of(args[1])) ? Files.size(Path.of(args[1])) : -1;
        System.out.println("RESULT " + rc + " " + seconds + " " + ProcessStats.peakRssKb() + " "
                + ProcessStats.peakHeapBytes() + " " + size);
    }
}
