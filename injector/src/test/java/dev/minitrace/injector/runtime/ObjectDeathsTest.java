package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ObjectDeathsTest {
    /** Watching stops at the limit, so a program allocating faster than deaths are found cannot fill the heap with references. */
    @Test
    void noMoreThanTheLimitAreWatched() {
        int before = ObjectDeaths.watched();
        long unwatchedBefore = ObjectDeaths.unwatched();
        int extra = 1000;
        Object[] kept = new Object[ObjectDeaths.LIMIT - before + extra];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new Object();
            ObjectDeaths.register(kept[i]);
        }
        assertEquals(ObjectDeaths.LIMIT, ObjectDeaths.watched());
        assertEquals(unwatchedBefore + extra, ObjectDeaths.unwatched());
        assertTrue(ObjectDeaths.LIMIT >= 100_000);
    }
}
