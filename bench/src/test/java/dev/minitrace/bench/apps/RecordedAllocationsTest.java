package dev.minitrace.bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.write.MtlogThreadLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread's allocations in a written {@code .mtlog}: an object inside a traced method, an array
 * (its length from ARRAY_LENGTH, its size rounded to the alignment) and an allocation of an
 * untraced JDK method (ALLOC_SITE), counted, sized and attributed to the method that made each.
 */
class RecordedAllocationsTest {
    @TempDir
    Path dir;

    @Test
    void countsSizesAndAttributesEachAllocation() throws Exception {
        Path log = dir.resolve("t.mtlog");
        long node = 1L << 32 | 0x1234;
        long array = 2L << 32 | 0x55;
        byte[] type = {MtlogFormat.METHOD_ENTRY, MtlogFormat.OBJECT_ALLOC, MtlogFormat.ALLOC_SITE, MtlogFormat.OBJECT_ALLOC,
            MtlogFormat.ARRAY_LENGTH, MtlogFormat.METHOD_EXIT, MtlogFormat.OBJECT_ALLOC};
        long[] value = {7, node, 9, array, 10, 7, node};
        int[] aux = {0, 3, 14, 14, 0, 20, 5};
        try (MtlogThreadLayout w = new MtlogThreadLayout(log, 0)) {
            w.records(1, type, new long[type.length], value, aux, 0, type.length);
            MtlogInfo info = new MtlogInfo();
            info.putThread(1, 1, "main");
            info.putClass(1, "a.Node");
            info.putClass(2, "[Ljava.lang.Object;");
            info.putMethod(7, "a.Main", "run", "()V");
            info.putMethod(9, "java.util.ArrayList", "grow", "(I)[Ljava/lang/Object;");
            info.putClassSize(1, 24, 0, 8);
            info.putClassSize(2, 16, 4, 8);
            w.finish(info);
        }
        RecordedAllocations r = RecordedAllocations.read(log);
        assertEquals(3, r.allocations);
        assertEquals(0, r.unsized);
        // two Nodes of 24 bytes; an Object[10]: 16 + 40 = 56, a multiple of 8
        assertEquals(Map.of("a.Node", 48L, "[Ljava.lang.Object;", 56L), r.bytesByClass);
        // the Node after the exit has no method running: no site
        assertEquals(Set.of(RecordedAllocations.site("a.Main.run()V", "a.Node"),
                RecordedAllocations.site("java.util.ArrayList.grow(I)[Ljava/lang/Object;", "[Ljava.lang.Object;")), r.sites);
    }
}
