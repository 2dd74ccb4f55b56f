package dev.minitrace.converter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.converter.jfr.FastRecordingSource;
import dev.minitrace.converter.jfr.JfrChunks;
import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.jfr.RecordingSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temporary files of a conversion that spills: gone after success, after a failure in the
 * middle, after SIGTERM (the JVM's exit hooks) and, for the spill file, even after SIGKILL (it is
 * unlinked as soon as it is open).
 */
class SpillFileIT {
    /** The global layout writes at chunk ends only, so a small bound makes records wait on disk. */
    private static final ConvertOptions GLOBAL = new ConvertOptions(true, FragmentPolicy.MOVING, null, null, null,
            ConvertOptions.ALL_TYPES);

    @TempDir
    static Path dir;
    static Path in;

    @BeforeAll
    static void write() throws Exception {
        in = dir.resolve("in.jfr");
        try (SyntheticRecordings w = new SyntheticRecordings(in)) {
            w.define(1, "demo.A", "a", "()V");
            for (int i = 1; i <= 2000; i++) {
                for (int t = 0; t < 100; t++) {
                    w.entry("t-" + t, 10 + t, 1, i);
                }
            }
        }
    }

    /** Child: converts {@code IN} to {@code OUT} again and again with a tiny bound, until killed. */
    public static void main(String[] args) throws Exception {
        System.setProperty("minitrace.maxPendingEvents", "500");
        System.out.println("converting");
        System.out.flush();
        while (true) {
            new Converter(GLOBAL, new FastRecordingSource()).convert(Path.of(args[0]), Path.of(args[1]), null);
        }
    }

    private static List<String> left(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void successLeavesOnlyTheOutput() throws Exception {
        Path work = Files.createDirectory(dir.resolve("ok"));
        SystemProperties.with("minitrace.maxPendingEvents", "500", () -> {
            ConversionReport r = new Converter(GLOBAL, new FastRecordingSource()).convert(in, work.resolve("out.mtlog"), null);
            assertTrue(r.spilledRecords() > 0);
            assertEquals(List.of(), r.warnings());
        });
        assertEquals(List.of("out.mtlog"), left(work));
    }

    @Test
    void aFailureInTheMiddleLeavesNothing() throws Exception {
        Path work = Files.createDirectory(dir.resolve("failed"));
        // an engine that delivers a chunk's records, spills, and then fails reading
        RecordingSource failing = new RecordingSource() {
            @Override
            public List<ChunkFailure> read(JfrChunks chunks, RecordingSink sink) throws IOException {
                new FastRecordingSource().read(chunks, sink);
                throw new IOException("disk read error (simulated)");
            }
        };
        SystemProperties.with("minitrace.maxPendingEvents", "500", () -> {
            IOException e = assertThrows(IOException.class,
                    () -> new Converter(GLOBAL, failing, work).convert(in, work.resolve("out.mtlog"), null));
            assertEquals("disk read error (simulated)", e.getMessage());
        });
        assertEquals(List.of(), left(work));
    }

    @Test
    void killedConversionsLeaveNoSpillFile() throws Exception {
        for (boolean force : new boolean[] {false, true}) {
            Path work = Files.createDirectory(dir.resolve(force ? "sigkill" : "sigterm"));
            Process p = new ProcessBuilder(ChildJvm.java().toString(), "-cp", ChildJvm.classpath(), SpillFileIT.class.getName(),
                    in.toString(), work.resolve("out.mtlog").toString()).redirectErrorStream(true).start();
            assertEquals('c', p.getInputStream().read(), "the child started");
            Thread.sleep(1500); // several conversions in, one under way
            if (force) {
                p.destroyForcibly();
            } else {
                p.destroy();
            }
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            List<String> files = left(work);
            assertTrue(files.stream().noneMatch(n -> n.endsWith(".spill")), "spill file left after " + (force ? "SIGKILL" : "SIGTERM") + ": " + files);
            if (!force) {
                // exit hooks ran: at most the output of a finished conversion
                assertTrue(files.stream().allMatch(n -> n.equals("out.mtlog")), "left after SIGTERM: " + files);
            }
        }
    }
}
