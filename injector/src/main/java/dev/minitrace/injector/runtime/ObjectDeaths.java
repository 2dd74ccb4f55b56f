package dev.minitrace.injector.runtime;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;

/**
 * Object deaths ({@code events=…+death}): every object whose allocation is recorded gets a phantom
 * reference; when a collection finds the object unreachable, the JVM enqueues the reference and
 * the death thread records the object's death (class and identity hash) in its own sequence,
 * stamped when it takes the reference, shortly after that collection. Objects still reachable when
 * the recording ends get no death. The references are kept in a doubly linked list, so adding and
 * removing one allocates nothing beyond the reference itself.
 */
final class ObjectDeaths {
    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final Object LOCK = new Object();
    /** Head of the list of registered references (which must stay reachable to be enqueued). */
    private static Ref head;
    private static int live;
    private static volatile boolean started;

    /** A registered object: its class (for the event) and identity hash. */
    static final class Ref extends PhantomReference<Object> {
        final Class<?> type;
        final int hash;
        Ref prev;
        Ref next;

        Ref(Object referent, Class<?> type, int hash) {
            super(referent, QUEUE);
            this.type = type;
            this.hash = hash;
        }
    }

    private ObjectDeaths() {
    }

    /** Watches {@code object} (whose allocation was just recorded). */
    static void register(Object object) {
        Ref r = new Ref(object, object.getClass(), System.identityHashCode(object));
        synchronized (LOCK) {
            r.next = head;
            if (head != null) {
                head.prev = r;
            }
            head = r;
            live++;
        }
    }

    /** The objects watched and not yet found dead (for tests and verbose output). */
    static int watched() {
        synchronized (LOCK) {
            return live;
        }
    }

    /** Starts the death thread once (a daemon: it never keeps the JVM alive). */
    static void start() {
        if (started) {
            return;
        }
        synchronized (LOCK) {
            if (started) {
                return;
            }
            started = true;
        }
        Thread t = new Thread(ObjectDeaths::run, "minitrace-deaths");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        while (true) {
            Ref r;
            try {
                r = (Ref) QUEUE.remove();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (LOCK) {
                if (r.prev != null) {
                    r.prev.next = r.next;
                } else if (head == r) {
                    head = r.next;
                }
                if (r.next != null) {
                    r.next.prev = r.prev;
                }
                r.prev = null;
                r.next = null;
                live--;
            }
            Trace.death(r.type, r.hash);
        }
    }
}
