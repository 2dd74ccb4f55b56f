package dev.minitrace.converter.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.ChildJvm;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Elephant Tracks writer's heap does not grow with the objects of the trace: a child JVM with a
 * 64 MB heap writes 1.2 million allocations (more than the ids the writer keeps in the heap), which a
 * boxed map entry per object (about 80 bytes each) could not hold, then the death of each, which must
 * find every id again, the earliest in the run on disk.
 */
class ElephantTracksWriterMemoryTest {
    private static final int OBJECTS = 1_200_000;
    private static final long THREAD = 7;

    @TempDir
    Path dir;

    /** Child: {@code OUTDIR}; allocations of OBJECTS objects of class 1, then their deaths, then a second death of the first. */
    public static void main(String[] args) throws Exception {
        try (ElephantTracksWriter w = new ElephantTracksWriter(Path.of(args[0]))) {
            int batch = 4096;
            byte[] type = new byte[batch];
            long[] time = new long[batch];
            long[] value = new long[batch];
            int[] aux = new int[batch];
            for (int kind : new int[] {MtlogFormat.OBJECT_ALLOC, MtlogFormat.OBJECT_DEATH}) {
                for (int from = 0; from < OBJECTS; from += batch) {
                    int n = Math.min(batch, OBJECTS - from);
                    for (int i = 0; i < n; i++) {
                        type[i] = (byte) kind;
                        value[i] = MtlogFormat.objectId(1, from + i + 1);
                    }
                    w.records(THREAD, type, time, value, aux, 0, n);
                }
            }
            type[0] = MtlogFormat.OBJECT_DEATH;
            value[0] = MtlogFormat.objectId(1, 1); // dead already: no second D
            w.records(THREAD, type, time, value, aux, 0, 1);
            w.finish(new MtlogInfo());
        }
    }

    @Test
    void manyLiveObjectsFitASmallHeap() throws Exception {
        Path out = dir.resolve("et");
        ChildJvm.Result r = ChildJvm.run(List.of("-Xmx64m", "-XX:+UseSerialGC", "-cp", ChildJvm.classpath(),
                ElephantTracksWriterMemoryTest.class.getName(), out.toString()));
        assertEquals(0, r.status(), r.output());
        try (BufferedReader in = Files.newBufferedReader(out.resolve("trace"), StandardCharsets.UTF_8)) {
            for (int id = 1; id <= OBJECTS; id++) {
                assertEquals("N " + hex(id) + " 0 L?; 0 7 0", in.readLine());
            }
            for (int id = 1; id <= OBJECTS; id++) {
                assertEquals("D " + hex(id) + " 7", in.readLine());
            }
            assertEquals("", in.readLine());
            assertEquals(null, in.readLine());
        }
    }

    private static String hex(long v) {
        return Long.toHexString(v).toUpperCase(java.util.Locale.ROOT);
    }
}
