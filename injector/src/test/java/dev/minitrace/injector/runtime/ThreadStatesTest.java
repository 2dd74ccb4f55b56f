package dev.minitrace.injector.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The table in front of the thread-local state: one state per thread, whatever the slots hold. */
class ThreadStatesTest {

    @Test
    void aThreadAlwaysGetsItsOwnState() throws Exception {
        ThreadState mine = ThreadStates.current();
        assertSame(Thread.currentThread(), mine.thread);
        assertSame(mine, ThreadStates.current());
        AtomicReference<ThreadState> other = new AtomicReference<>();
        Thread t = new Thread(() -> other.set(ThreadStates.current()));
        t.start();
        t.join();
        assertSame(t, other.get().thread);
        assertNotSame(mine, other.get());
        assertSame(mine, ThreadStates.current());
    }

    /** Two live threads whose ids share a slot take it from each other in turn and still each see only their own state. */
    @Test
    @SuppressWarnings("deprecation") // Thread.getId, as ThreadStates uses it on JDK 17
    void threadsSharingASlotKeepTheirOwnStates() throws Exception {
        int rounds = 200;
        CyclicBarrier step = new CyclicBarrier(2);
        Map<Thread, List<ThreadState>> seen = new HashMap<>();
        List<Thread> pair = new ArrayList<>();
        Map<Long, Thread> bySlot = new HashMap<>();
        // Ids are handed out at construction: make threads until two share a slot.
        while (pair.isEmpty()) {
            List<ThreadState> states = new ArrayList<>();
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        step.await(); // both threads alternate on the slot as closely as the barrier allows
                        states.add(ThreadStates.current());
                        states.get(states.size() - 1).sequence++;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            seen.put(t, states);
            Thread earlier = bySlot.putIfAbsent(t.getId() & (ThreadStates.SLOTS - 1), t);
            if (earlier != null) {
                pair.add(earlier);
                pair.add(t);
            }
        }
        for (Thread t : pair) {
            t.start();
        }
        for (Thread t : pair) {
            t.join();
        }
        for (Thread t : pair) {
            List<ThreadState> states = seen.get(t);
            assertEquals(rounds, states.size());
            for (ThreadState s : states) {
                assertSame(t, s.thread);
                assertSame(states.get(0), s);
            }
            assertEquals(rounds, states.get(0).sequence, "every round's update reached the thread's one state");
        }
    }
}
