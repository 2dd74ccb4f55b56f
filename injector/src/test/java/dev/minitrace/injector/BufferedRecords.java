package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * The tests' own reader of {@code minitrace.MethodBuffer} events, written from
 * {@code docs/trace-buffer.md} alone (not from the agent's code), so that it checks the agent
 * against the document. It merges the decoded method records with the thread's lock and
 * allocation events by sequence.
 */
public final class BufferedRecords {
    /**
     * One entry of a thread's trace: a decoded method record or a lock/alloc event; {@code defined}:
     * an exit whose bytecode index came from the method's definition (kind 3), not from the record.
     */
    public record Item(long sequence, String token, int methodId, int bci, Instant time, boolean stamped, RecordedEvent event, boolean leaf,
            boolean defined) {
        Item(long sequence, String token, int methodId, int bci, Instant time, boolean stamped, RecordedEvent event, boolean leaf) {
            this(sequence, token, methodId, bci, time, stamped, event, leaf, false);
        }
    }

    private BufferedRecords() {
    }

    /** Per thread name: the decoded records and the other minitrace events, by sequence. */
    public static Map<String, List<Item>> byThread(List<RecordedEvent> events, Map<Integer, String> names) {
        Map<String, List<Item>> out = new HashMap<>();
        Map<Integer, String> classes = new HashMap<>();
        Map<Integer, Integer> returns = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.CLASS_DEFINITION)) {
                String previous = classes.put(e.getInt("classId"), e.getString("className"));
                assertTrue(previous == null || previous.equals(e.getString("className")), "class id defined twice differently");
            } else if (e.getEventType().getName().equals(EventNames.METHOD_DEFINITION) && e.getInt("returnBci") >= 0) {
                // a method's returnBci goes from -1 to an index at most once, never back or elsewhere
                Integer previous = returns.put(e.getInt("methodId"), e.getInt("returnBci"));
                assertTrue(previous == null || previous == e.getInt("returnBci"), "returnBci of a method id changed");
            }
        }
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (type.equals(EventNames.METHOD_BUFFER)) {
                RecordedThread t = e.getThread("tracedThread");
                String thread = t != null ? t.getJavaName() : e.getString("tracedThreadName");
                decode(e, names, classes, returns, out.computeIfAbsent(thread, k -> new ArrayList<>()));
            } else if (type.startsWith("minitrace.") && e.hasField("sequence")) {
                out.computeIfAbsent(e.getThread().getJavaName(), k -> new ArrayList<>())
                        .add(new Item(e.getLong("sequence"), Recordings.token(e, names), -1, -1, e.getStartTime(), true, e, false));
            }
        }
        for (List<Item> list : out.values()) {
            list.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
        }
        return out;
    }

    private static void decode(RecordedEvent e, Map<Integer, String> names, Map<Integer, String> classes, Map<Integer, Integer> returns,
            List<Item> into) {
        String s = e.getString("records");
        long sequence = e.getLong("firstSequence");
        long base = e.getLong("baseTime"); // raw ticks: the field is annotated, getLong gives the stored value
        Instant baseInstant = e.getInstant("baseTime");
        double nanosPerTick = 1e9 / e.getLong("ticksPerSecond");
        long ticks = base;
        int count = 0;
        int[] p = {0};
        while (p[0] < s.length()) {
            int h = s.charAt(p[0]++);
            assertTrue(h < 128, "header char " + h);
            boolean leaf = (h & 0x20) != 0; // an exit's entry just before it, in the same record
            boolean wide = (h & 0x40) != 0; // a method id of two chars of 7 bits, low first
            int kind = h & 3;
            assertTrue(!leaf || (h & 0x18) == 0, "leaf bit on a record that is no method record");
            assertTrue(!wide || (h & 0x18) == 0, "wide id bit on a record that is no method record");
            if (h == 0x1B) { // heap kind 7: a skip, n sequence numbers of other events
                long n = varint(s, p);
                assertTrue(n >= 1, "skip of " + n);
                sequence += n;
                continue;
            }
            if ((h & 0x10) != 0 && (kind | (h & 8) >> 1) == 6) { // a heap record of kind 6: the site of the allocation that follows
                int methodId = (int) varint(s, p);
                int bci = (int) varint(s, p);
                assertEquals(0, varint(s, p), "a site record's object is null");
                assertEquals(0, varint(s, p), "a site record's object is null");
                boolean stamped = (h & 4) != 0;
                if (stamped) {
                    ticks += varint(s, p);
                }
                Instant time = baseInstant.plusNanos((long) ((ticks - base) * nanosPerTick));
                into.add(new Item(sequence++, "site " + names.get(methodId), methodId, bci, time, stamped, null, false));
                count++;
                continue;
            }
            assertTrue(h != 0x1F, "a stamped skip");
            if ((h & 0x10) != 0) { // a heap record: else only kind 5, an array allocation, in these workloads
                assertEquals(5, kind | (h & 8) >> 1, "heap record kind");
                long length = varint(s, p);
                int bci = (int) varint(s, p);
                int classId = (int) varint(s, p) - 1;
                varint(s, p); // identity hash
                boolean stamped = (h & 4) != 0;
                if (stamped) {
                    ticks += varint(s, p);
                }
                String cls = classes.get(classId);
                assertTrue(cls != null, "class id " + classId + " has no minitrace.ClassDefinition");
                Instant time = baseInstant.plusNanos((long) ((ticks - base) * nanosPerTick));
                into.add(new Item(sequence++, "new " + javaName(cls), classId, bci, time, stamped, null, false));
                into.add(new Item(sequence++, "len " + length, -1, -1, time, stamped, null, false));
                count += 2;
                continue;
            }
            if ((h & 8) != 0) { // an object record: class id, identity hash, bci, [delta]
                assertTrue(kind != 3, "object record of kind 3");
                int classId = (int) varint(s, p);
                long hash = varint(s, p);
                assertTrue(hash <= 0xFFFFFFFFL, "identity hash above 32 bits");
                int bci = (int) varint(s, p);
                boolean stamped = (h & 4) != 0;
                if (stamped) {
                    ticks += varint(s, p);
                }
                String cls = classes.get(classId);
                assertTrue(cls != null, "class id " + classId + " has no minitrace.ClassDefinition");
                String token = (kind == 0 ? "acq " : kind == 1 ? "rel " : "new ") + javaName(cls);
                Instant time = baseInstant.plusNanos((long) ((ticks - base) * nanosPerTick));
                into.add(new Item(sequence++, token, classId, bci, time, stamped, null, false));
                count++;
                continue;
            }
            int methodId;
            if (wide) {
                methodId = s.charAt(p[0]) | s.charAt(p[0] + 1) << 7;
                assertTrue(methodId >= 4096, "a wide id below 4096: " + methodId);
                p[0] += 2;
            } else {
                methodId = (int) varint(s, p);
                assertTrue(methodId < 4096 || methodId >= 16384, "an id of 3 varint chars that fits two of 7 bits: " + methodId);
            }
            int bci = kind == 1 ? (int) varint(s, p) : 0;
            if (kind == 3) { // an exit by the return instruction the method's definition names
                Integer defined = returns.get(methodId);
                assertTrue(defined != null, "an exit of kind 3 of method " + methodId + " whose definition has no returnBci");
                bci = defined;
            }
            boolean stamped = (h & 4) != 0;
            if (stamped) {
                ticks += varint(s, p);
            }
            Instant time = baseInstant.plusNanos((long) ((ticks - base) * nanosPerTick));
            String name = names.get(methodId);
            String token = (kind == 2 ? "-!" : kind == 0 ? "+" : "-") + name;
            if (leaf) {
                assertTrue(kind != 0, "a leaf record of kind " + kind);
                into.add(new Item(sequence++, "+" + name, methodId, 0, time, stamped, null, true));
                count++;
            }
            into.add(new Item(sequence++, token, methodId, bci, time, stamped, null, leaf, kind == 3));
            count++;
        }
        assertEquals(e.getInt("recordCount"), count, "recordCount of a MethodBuffer event");
    }

    /** A class as Java source spells it: {@code int[]} for {@code [I}. */
    static String javaName(String name) {
        return name.startsWith("[") ? org.objectweb.asm.Type.getType(name.replace('.', '/')).getClassName() : name;
    }

    private static long varint(String s, int[] p) {
        long v = 0;
        int shift = 0;
        int c;
        do {
            assertTrue(p[0] < s.length(), "varint runs past the end");
            c = s.charAt(p[0]++);
            assertTrue(c < 128, "char " + c);
            v |= (long) (c & 0x3F) << shift;
            shift += 6;
        } while ((c & 0x40) != 0);
        return v;
    }

    /** The tokens of one thread's items. */
    static List<String> tokens(List<Item> items) {
        List<String> out = new ArrayList<>();
        for (Item i : items) {
            out.add(i.token());
        }
        return out;
    }
}
