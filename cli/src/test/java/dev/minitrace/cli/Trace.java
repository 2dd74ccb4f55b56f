package dev.minitrace.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A recording read back with {@link RecordingFile}: method ids resolved through the
 * {@code minitrace.MethodDefinition} events, the minitrace events of each thread in sequence order.
 * Method records packed in {@code minitrace.MethodBuffer} events are unpacked here by a decoder
 * written from {@code docs/trace-buffer.md} (not the converter's), and count as the
 * {@code minitrace.MethodEntry}/{@code MethodExit} events they stand for; object records likewise
 * as {@code minitrace.LockAcquire}/{@code LockRelease}/{@code ObjectAlloc}, their class ids
 * resolved through the {@code minitrace.ClassDefinition} events once the whole file is read.
 */
final class Trace {
    /**
     * One trace event of a thread: a JFR event, or a record unpacked from a MethodBuffer event (then
     * {@code event} is null, and an object record has the agent's {@code classId}, else -1).
     */
    record Ev(String type, long sequence, int methodId, boolean exceptional, RecordedEvent event, int classId,
            int identityHash, int bci) {
        Ev(String type, long sequence, int methodId, boolean exceptional, RecordedEvent event) {
            this(type, sequence, methodId, exceptional, event, -1, 0, 0);
        }
    }

    private static final String[] OBJECT_TYPES = {"minitrace.LockAcquire", "minitrace.LockRelease", "minitrace.ObjectAlloc"};

    /** Method id → "pkg.Class::name". */
    final Map<Integer, String> methods = new HashMap<>();
    /** Thread name → its minitrace trace events, sorted by sequence. */
    final Map<String, List<Ev>> byThread = new HashMap<>();
    /** Event type → count, over the whole recording (JFR events, as RecordingFile reads them). */
    final Map<String, Integer> counts = new HashMap<>();
    /** Method ids used by entry/exit events that no definition resolves. */
    final List<Integer> unresolved = new ArrayList<>();
    /** The agent's class id → Class.getName(), from minitrace.ClassDefinition. */
    final Map<Integer, String> classes = new HashMap<>();
    /** Class ids used by object records that no minitrace.ClassDefinition resolves. */
    final List<Integer> unresolvedClasses = new ArrayList<>();

    private Trace() {
    }

    static Trace read(Path recording) throws IOException {
        Trace t = new Trace();
        List<Integer> used = new ArrayList<>();
        List<Integer> usedClasses = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            t.counts.merge(type, 1, Integer::sum);
            if (type.equals("minitrace.ClassDefinition")) {
                t.classes.put(e.getInt("classId"), e.getString("className"));
            } else if (type.equals("minitrace.MethodDefinition")) {
                t.methods.put(e.getInt("methodId"), e.getString("className") + "::" + e.getString("methodName"));
            } else if (type.equals("minitrace.MethodBuffer")) {
                RecordedThread traced = e.getThread("tracedThread");
                String thread = traced != null ? traced.getJavaName() : e.getString("tracedThreadName");
                List<Ev> into = t.byThread.computeIfAbsent(thread, k -> new ArrayList<>());
                int before = into.size();
                unpack(e, into);
                for (int i = before; i < into.size(); i++) {
                    if (into.get(i).classId() == -2) {
                        continue; // an array's length names nothing
                    }
                    if (into.get(i).classId() < 0) {
                        used.add(into.get(i).methodId());
                    } else {
                        usedClasses.add(into.get(i).classId());
                    }
                }
            } else if (type.startsWith("minitrace.") && e.hasField("sequence")) {
                String thread = e.getThread() == null ? "?" : e.getThread().getJavaName();
                int id = e.hasField("methodId") ? e.getInt("methodId") : -1;
                boolean exceptional = e.hasField("exceptional") && e.getBoolean("exceptional");
                t.byThread.computeIfAbsent(thread, k -> new ArrayList<>()).add(new Ev(type, e.getLong("sequence"), id, exceptional, e));
                if (id >= 0) {
                    used.add(id);
                }
            }
        }
        for (List<Ev> events : t.byThread.values()) {
            events.sort(Comparator.comparingLong(Ev::sequence));
        }
        for (int id : used) {
            if (!t.methods.containsKey(id)) {
                t.unresolved.add(id);
            }
        }
        for (int id : usedClasses) { // definitions may come after the records: resolved once all is read
            if (!t.classes.containsKey(id)) {
                t.unresolvedClasses.add(id);
            }
        }
        return t;
    }

    // Header char: kind in bits 0-1 (0 entry, 1 exit, 2 exit by exception, 3 exit at the index the
    // method's definition gives), bit 2 stamped, bit 5 a leaf (an exit standing for its entry too: two
    // sequence numbers), bit 6 (method records) a wide id: two chars of 7 bits, low first;
    // then varints of 6 bits a char, bit 6 = more: method id (unless wide), bci (kind 1), time delta (stamped).
    // 0x1B: a skip, then the count of sequence numbers it jumps over.
    // Bit 3 set: an object record (kind 0 acquire, 1 release, 2 allocation), then class id,
    // identity hash, bci, time delta (stamped).
    private static void unpack(RecordedEvent e, List<Ev> into) {
        String s = e.getString("records");
        long sequence = e.getLong("firstSequence");
        int[] p = {0};
        int count = 0;
        while (p[0] < s.length()) {
            int h = s.charAt(p[0]++);
            int kind = h & 3;
            if (h == 0x1B) {
                sequence += varint(s, p);
                continue;
            }
            if ((h & 0x10) != 0) {
                // a heap record; these workloads make only kind 5 (bits 0-1 and bit 3 as bit 2): an array
                // allocation, then its length, bci, class id + 1, identity hash, time delta (stamped)
                if ((kind | (h & 8) >> 1) != 5 || h >= 0x20) {
                    throw new IllegalStateException("unexpected heap record header 0x" + Integer.toHexString(h));
                }
                varint(s, p);
                int bci = (int) varint(s, p);
                int classId = (int) varint(s, p) - 1;
                int hash = (int) varint(s, p);
                if ((h & 4) != 0) {
                    varint(s, p);
                }
                into.add(new Ev("minitrace.ObjectAlloc", sequence++, -1, false, null, classId, hash, bci));
                into.add(new Ev("minitrace.ArrayLength", sequence++, -2, false, null, -2, 0, 0));
                count += 2;
                continue;
            }
            if ((h & 8) != 0) {
                if (kind == 3 || h >= 0x10) {
                    throw new IllegalStateException("bad object record header 0x" + Integer.toHexString(h));
                }
                int classId = (int) varint(s, p);
                int hash = (int) varint(s, p);
                int bci = (int) varint(s, p);
                if ((h & 4) != 0) {
                    varint(s, p);
                }
                into.add(new Ev(OBJECT_TYPES[kind], sequence++, -1, false, null, classId, hash, bci));
                count++;
                continue;
            }
            boolean leaf = (h & 0x20) != 0;
            if (h >= 0x80 || leaf && kind == 0) {
                throw new IllegalStateException("bad method record header 0x" + Integer.toHexString(h));
            }
            int id;
            if ((h & 0x40) != 0) {
                id = s.charAt(p[0]) | s.charAt(p[0] + 1) << 7;
                p[0] += 2;
            } else {
                id = (int) varint(s, p);
            }
            if (kind == 1) {
                varint(s, p);
            }
            if ((h & 4) != 0) {
                varint(s, p);
            }
            if (leaf) {
                // a leaf: the entry, then the exit, each with its own sequence number
                into.add(new Ev("minitrace.MethodEntry", sequence++, id, false, null));
                count++;
            }
            into.add(new Ev(kind == 0 ? "minitrace.MethodEntry" : "minitrace.MethodExit", sequence++, id, kind == 2, null));
            count++;
        }
        if (count != e.getInt("recordCount")) {
            throw new IllegalStateException("recordCount " + e.getInt("recordCount") + " but " + count + " records");
        }
    }

    private static long varint(String s, int[] p) {
        long v = 0;
        int shift = 0;
        int c;
        do {
            c = s.charAt(p[0]++);
            v |= (long) (c & 0x3F) << shift;
            shift += 6;
        } while ((c & 0x40) != 0);
        return v;
    }

    /** Number of events of {@code type} in {@code thread} for the method "pkg.Class::name". */
    int count(String thread, String type, String method) {
        int n = 0;
        for (Ev e : byThread.getOrDefault(thread, List.of())) {
            if (e.type().equals(type) && method.equals(methods.get(e.methodId()))) {
                n++;
            }
        }
        return n;
    }

    /** Number of events of {@code type} in {@code thread}. */
    int count(String thread, String type) {
        int n = 0;
        for (Ev e : byThread.getOrDefault(thread, List.of())) {
            if (e.type().equals(type)) {
                n++;
            }
        }
        return n;
    }

    /** Number of exceptional exits of "pkg.Class::name" in {@code thread}. */
    int exceptionalExits(String thread, String method) {
        int n = 0;
        for (Ev e : byThread.getOrDefault(thread, List.of())) {
            if (e.type().equals("minitrace.MethodExit") && e.exceptional() && method.equals(methods.get(e.methodId()))) {
                n++;
            }
        }
        return n;
    }

    /**
     * Number of events of {@code type} in {@code thread} whose class (field {@code field} of a JFR
     * event, the class id of an object record) is {@code className} as {@code Class.getName()} gives it.
     */
    int countWithClass(String thread, String type, String field, String className) {
        int n = 0;
        for (Ev e : byThread.getOrDefault(thread, List.of())) {
            if (!e.type().equals(type)) {
                continue;
            }
            String name = null;
            if (e.event() != null) {
                RecordedClass c = e.event().getValue(field);
                name = c == null ? null : c.getName().replace('/', '.');
            } else if (e.classId() >= 0) {
                name = classes.get(e.classId());
            }
            if (className.equals(name)) {
                n++;
            }
        }
        return n;
    }

    /** True if the thread's sequence numbers are exactly 1, 2, ..., n. */
    boolean sequenceIsContiguous(String thread) {
        long expected = 1;
        for (Ev e : byThread.getOrDefault(thread, List.of())) {
            if (e.sequence() != expected++) {
                return false;
            }
        }
        return expected > 1;
    }
}
