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
        MethodRegistry.define(id, "a.B", "m", "()V", 1, -1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MethodRegistry.define(MethodRegistry.size() + 10, "a.B", "m", "()V", 1, -1));
        assertTrue(e.getMessage().contains("was never reserved"), e.getMessage());
        assertFalse(MethodRegistry.commitDefinition(-1));
    }

    /**
     * A collected class loader's definitions are dropped after the grace of three chunk-boundary
     * runs, a live loader's are kept, and a loader that comes back with the same class name gets
     * fresh ids (never an old one).
     */
    @Test
    void definitionsOfACollectedLoaderAreDroppedAfterTheGrace() throws Exception {
        ClassLoader live = new java.net.URLClassLoader(new java.net.URL[0], null);
        int kept = MethodRegistry.idFor(live, "gen.Kept", "m", "()V");
        MethodRegistry.define(kept, "gen.Kept", "m", "()V", 1, -1);
        ClassLoader dropped = new java.net.URLClassLoader(new java.net.URL[0], null);
        int gone = MethodRegistry.idFor(dropped, "gen.Gone", "m", "()V");
        MethodRegistry.define(gone, "gen.Gone", "m", "()V", 1, -1);
        dropped = null; // collected by awaitRetiring's collections
        awaitRetiring(gone);
        MethodRegistry.commitAll();
        assertTrue(MethodRegistry.describe(gone) != null, "still defined within the grace");
        MethodRegistry.commitAll();
        MethodRegistry.commitAll();
        MethodRegistry.commitAll();
        assertEquals(null, MethodRegistry.describe(gone), "dropped after the grace");
        assertEquals("gen.Kept", MethodRegistry.describe(kept)[0], "a live loader's definition stays");
        ClassLoader again = new java.net.URLClassLoader(new java.net.URL[0], null);
        assertTrue(MethodRegistry.idFor(again, "gen.Gone", "m", "()V") > gone, "a new id, never the old one");
        assertEquals(kept, MethodRegistry.idFor(live, "gen.Kept", "m", "()V"));
    }

    /**
     * The table holds pages of ids, not a slot per id ever given: once a collected loader's
     * definitions are dropped, the pages that held only its ids go too.
     */
    @Test
    void pagesOfACollectedLoaderAreDropped() throws Exception {
        ClassLoader dropped = new java.net.URLClassLoader(new java.net.URL[0], null);
        int first = -1;
        for (int i = 0; i < 3 * MethodRegistry.PAGE_SIZE; i++) {
            int id = MethodRegistry.idFor(dropped, "gen.Churn", "m" + i, "()V");
            MethodRegistry.define(id, "gen.Churn", "m" + i, "()V", 1, -1);
            first = first < 0 ? id : first;
        }
        int last = MethodRegistry.idFor(new java.net.URLClassLoader(new java.net.URL[0], null), "gen.After", "m", "()V");
        assertTrue(last > first + 3 * MethodRegistry.PAGE_SIZE - 1, "every page of the loader's ids is reserved to its end");
        int held = MethodRegistry.pagesHeld();
        dropped = null; // collected by awaitRetiring's collections
        awaitRetiring(first);
        for (int i = 0; i < 4; i++) {
            MethodRegistry.commitAll();
        }
        assertEquals(null, MethodRegistry.describe(first + MethodRegistry.PAGE_SIZE));
        assertTrue(MethodRegistry.pagesHeld() <= held - 2, "the pages that held only its ids are gone: "
                + held + " -> " + MethodRegistry.pagesHeld());
        // an id of a dropped page is simply not defined; a new one is defined as ever
        int fresh = MethodRegistry.reserve(1);
        MethodRegistry.define(fresh, "gen.Fresh", "m", "()V", 1, -1);
        assertEquals("gen.Fresh", MethodRegistry.describe(fresh)[0]);
    }

    /** Waits (up to a minute) until the collected loader of method {@code id} reached the registry's queue. */
    private static void awaitRetiring(int id) throws InterruptedException {
        for (int i = 0; i < 3000 && !MethodRegistry.retiring(id); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(MethodRegistry.retiring(id), "the collected loader never reached the registry's queue");
    }
}
