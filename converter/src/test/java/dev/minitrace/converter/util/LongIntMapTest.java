package dev.minitrace.converter.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongIntMapTest {
    @Test
    void agreesWithHashMapThroughGrowthZeroAndNegativeKeysAndReplacement() {
        LongIntMap map = new LongIntMap(4);
        Map<Long, Integer> reference = new HashMap<>();
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            long key = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(1000) - 500; // includes 0 and negatives
                case 2 -> (long) i << 32;              // same low bits: collisions for a poor hash
                default -> Long.MIN_VALUE + random.nextInt(10);
            };
            map.put(key, i);
            reference.put(key, i);
        }
        assertEquals(reference.size(), map.size());
        for (Map.Entry<Long, Integer> e : reference.entrySet()) {
            assertEquals(e.getValue().intValue(), map.get(e.getKey()), "key " + e.getKey());
        }
        assertEquals(LongIntMap.MISSING, map.get(123_456_789_012L));
        map.clear();
        assertEquals(0, map.size());
        assertEquals(LongIntMap.MISSING, map.get(0));
    }

    @Test
    void removeKeepsEveryOtherKeyReachable() {
        LongIntMap map = new LongIntMap(4);
        Map<Long, Integer> reference = new HashMap<>();
        Random random = new Random(5);
        for (int i = 0; i < 50_000; i++) {
            long key = random.nextInt(400) - 50; // few keys, long probe runs, key 0 among them
            if (random.nextBoolean()) {
                map.put(key, i);
                reference.put(key, i);
            } else {
                assertEquals(reference.remove(key) != null, map.remove(key), "key " + key);
            }
            long probe = random.nextInt(400) - 50;
            assertEquals(reference.getOrDefault(probe, LongIntMap.MISSING).intValue(), map.get(probe), "key " + probe);
        }
        assertEquals(reference.size(), map.size());
        for (long key = -50; key < 350; key++) {
            assertEquals(reference.getOrDefault(key, LongIntMap.MISSING).intValue(), map.get(key), "key " + key);
        }
    }

    @Test
    void keysByValueListsKeysInRowOrder() {
        LongIntMap map = new LongIntMap(2);
        map.ensureRoomFor(100);
        long[] keys = {0, 99, -7, 1L << 40};
        for (int i = 0; i < keys.length; i++) {
            map.put(keys[i], i);
        }
        assertArrayEquals(keys, map.keysByValue(keys.length));
    }
}
