package dev.minitrace.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The demo does the same work on every run, whatever the thread interleaving. */
class DemoMainTest {
    @Test
    void everyOrderIsAcceptedOrRejectedAndTheResultIsTheSameOnEveryRun() throws Exception {
        DemoMain.Result first = DemoMain.run();
        int orders = DemoMain.WORKERS * DemoMain.ORDERS_PER_WORKER;
        int rejected = DemoMain.WORKERS * (DemoMain.ORDERS_PER_WORKER / OrderWorker.REJECT_EVERY);
        assertEquals(rejected, first.rejected());
        assertEquals(orders - rejected, first.accepted());
        assertTrue(first.revenue() > 0);
        assertEquals(199L * 200 / 2, first.garbageChecksum());

        int reservationsBefore = Warehouse.reservations();
        DemoMain.Result second = DemoMain.run();
        assertEquals(first.accepted(), second.accepted());
        assertEquals(first.rejected(), second.rejected());
        assertEquals(first.revenue(), second.revenue());
        assertEquals(first.stockLeft(), second.stockLeft());
        // The static counter is per JVM: the second run adds exactly its own accepted orders.
        assertEquals(reservationsBefore + second.accepted(), second.reservations());
    }
}
