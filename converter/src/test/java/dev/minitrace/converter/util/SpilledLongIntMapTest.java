package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpilledLongIntMapTest {
    @TempDir
    Path dir;

    @Test
    void answersAsAHashMapAcrossSpilledRuns() throws Exception {
        Random rnd = new Random(42);
        Map<Long, Integer> oracle = new HashMap<>();
        try (SpilledLongIntMap m = new SpilledLongIntMap(dir, 64)) {
            for (int step = 0; step < 20_000; step++) {
                long key = rnd.nextInt(3000) - 100L; // key 0 and negative keys too
                switch (rnd.nextInt(4)) {
                    case 0, 1 -> {
                        int v = rnd.nextInt(1 << 20);
                        m.put(key, v);
                        oracle.put(key, v);
                    }
                    case 2 -> {
                        m.remove(key);
                        oracle.remove(key);
                    }
                    default -> assertEquals(oracle.getOrDefault(key, SpilledLongIntMap.MISSING), m.get(key), "key " + key);
                }
            }
            for (long key = -100; key < 2900; key++) {
                assertEquals(oracle.getOrDefault(key, SpilledLongIntMap.MISSING), m.get(key), "key " + key);
            }
            assertTrue(m.runs() > 10, "spilled " + m.runs() + " runs");
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "the scratch file is gone");
        }
    }
}
