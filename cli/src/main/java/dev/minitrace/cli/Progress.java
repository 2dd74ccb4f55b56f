package dev.minitrace.cli;

import dev.minitrace.converter.recovery.RecordingRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** A progress bar on the terminal for large inputs; silent otherwise. */
final class Progress implements LongConsumer, AutoCloseable {
    /** Inputs larger than this show a progress bar on a terminal. */
    private static final long PROGRESS_THRESHOLD = 64L << 20;

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    static Progress forInput(Path in, String task) {
        long size = 0;
        try {
            // a repository folder read in place: its chunk files together
            for (Path f : Files.isDirectory(in) ? RecordingRepository.chunkFiles(in) : java.util.List.of(in)) {
                size += Files.size(f);
            }
        } catch (IOException e) {
            size = 0;
        }
        if (!onTerminal() || size < PROGRESS_THRESHOLD) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder().setTaskName(task).setInitialMax(size >> 20)
                .setUnit(" MB", 1).build());
    }

    /**
     * True when the command runs on a terminal. JDK 22 to 24 return a console also when the
     * streams are redirected; {@code Console.isTerminal()} (JDK 22+) tells them apart.
     */
    private static boolean onTerminal() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (NoSuchMethodException e) {
            return true; // JDK 17-21: a console exists only on a terminal
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void accept(long bytesDone) {
        if (bar != null) {
            bar.stepTo(bytesDone >> 20);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
