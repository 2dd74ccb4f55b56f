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
    /**
     * At most this many objects are watched at once: a reference and its list links take about 64
     * bytes, and a program that allocates faster than the collector and the death thread retire
     * them would otherwise fill the heap with references and fail (seen: 20 M allocations a second
     * under {@code -Xmx256m}). An eighth of the heap, at least 100,000.
     */
    static final int LIMIT = (int) Math.min(Integer.MAX_VALUE, Math.max(100_000, Runtime.getRuntime().maxMemory() / 8 / 64));
    /** Allocations recorded but not watched because {@link #LIMIT} objects were watched. */
    private static long unwatched;
    private static boolean told;

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

    /**
     * Watches {@code object} (whose allocation was just recorded), unless {@link #LIMIT} objects are
     * watched already: then its death is never recorded (it counts among the objects never seen to
     * die), and the agent says so once on stderr.
     */
    static void register(Object object) {
        synchronized (LOCK) {
            if (live >= LIMIT) {
                unwatched++;
                if (!told) {
                    told = true;
                    System.err.println("minitrace: " + LIMIT + " allocated objects are watched for their deaths, the most"
                            + " the heap allows; objects allocated while the collector catches up get no death record");
                }
                return;
            }
        }
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

    /** Allocations recorded but not watched (for tests). */
    static long unwatched() {
        synchronized (LOCK) {
            return unwatched;
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
