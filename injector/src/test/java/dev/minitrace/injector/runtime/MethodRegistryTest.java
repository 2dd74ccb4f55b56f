package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MethodRegistryTest {

    @Test
    void reservedBlocksAreDisjointAndGrowPastTheInitialCapacity() throws Exception {
        List<int[]> blocks = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    int first = MethodRegistry.reserve(3);
                    blocks.add(new int[] {first, 3});
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        java.util.BitSet seen = new java.util.BitSet();
        for (int[] b : blocks) {
            for (int id = b[0]; id < b[0] + b[1]; id++) {
                assertFalse(seen.get(id), "id " + id + " reserved twice");
                seen.set(id);
            }
        }
        assertEquals(2400, seen.cardinality());
        assertTrue(MethodRegistry.size() >= 2400);
    }

    @Test
    void onlyReservedIdsCanBeDefined() {
        int id = MethodRegistry.reserve(1);
        MethodRegistry.define(id, "a.B", "m", "()V", 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MethodRegistry.define(MethodRegistry.size() + 10, "a.B", "m", "()V", 1));
        assertTrue(e.getMessage().contains("was never reserved"), e.getMessage());
        assertFalse(MethodRegistry.commitDefinition(-1));
    }
}
