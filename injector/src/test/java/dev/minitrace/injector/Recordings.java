package dev.minitrace.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.minitrace.events.EventNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Reading recordings in the end-to-end tests: chunks one by one, method ids, per-thread order. */
final class Recordings {
    private Recordings() {
    }

    /** Splits a recording into its chunks, each written to its own file (a chunk is a valid recording). */
    static List<Path> chunks(Path recording, Path dir) throws IOException {
        byte[] all = Files.readAllBytes(recording);
        ByteBuffer b = ByteBuffer.wrap(all);
        List<Path> out = new ArrayList<>();
        int pos = 0;
        while (pos < all.length) {
            assertEquals(0x464c5200, b.getInt(pos), "chunk magic at " + pos);
            long size = b.getLong(pos + 8);
            assertTrue(size > 0 && pos + size <= all.length, "chunk size " + size + " at " + pos);
            Path chunk = dir.resolve(recording.getFileName() + "." + out.size() + ".chunk.jfr");
            Files.write(chunk, java.util.Arrays.copyOfRange(all, pos, (int) (pos + size)));
            out.add(chunk);
            pos += (int) size;
        }
        return out;
    }

    /**
     * Checks that every method id used by a method event of each chunk is defined by a
     * MethodDefinition event of that same chunk; returns the number of method events checked.
     */
    static long assertIdsResolvePerChunk(Path recording, Path dir) throws IOException {
        long checked = 0;
        for (Path chunk : chunks(recording, dir)) {
            Set<Integer> defined = new HashSet<>();
            Set<Integer> used = new HashSet<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(chunk)) {
                String type = e.getEventType().getName();
                if (type.equals(EventNames.METHOD_DEFINITION)) {
                    defined.add(e.getInt("methodId"));
                } else if (type.equals(EventNames.METHOD_ENTRY) || type.equals(EventNames.METHOD_EXIT)) {
                    used.add(e.getInt("methodId"));
                    checked++;
                }
            }
            used.removeAll(defined);
            assertTrue(used.isEmpty(), "ids used but not defined in chunk " + chunk.getFileName() + ": " + used);
        }
        return checked;
    }

    /** Method id to "SimpleClass.method" from every definition in the recording. */
    static Map<Integer, String> methodNames(List<RecordedEvent> events) {
        Map<Integer, String> names = new HashMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(EventNames.METHOD_DEFINITION)) {
                String cls = e.getString("className");
                String simple = cls.substring(cls.lastIndexOf('.') + 1);
                String name = simple + "." + e.getString("methodName");
                String previous = names.put(e.getInt("methodId"), name);
                assertTrue(previous == null || previous.equals(name), "id " + e.getInt("methodId") + " defined twice differently");
            }
        }
        return names;
    }

    /** The minitrace events (definitions excluded: they have no sequence) of each thread, sorted by sequence. */
    static Map<String, List<RecordedEvent>> byThread(List<RecordedEvent> events) {
        Map<String, List<RecordedEvent>> out = new HashMap<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (type.startsWith("minitrace.") && e.hasField("sequence")) {
                out.computeIfAbsent(e.getThread().getJavaName(), k -> new ArrayList<>()).add(e);
            }
        }
        for (List<RecordedEvent> list : out.values()) {
            list.sort((a, b) -> Long.compare(a.getLong("sequence"), b.getLong("sequence")));
        }
        return out;
    }

    /** A class field as Java source spells it: JFR names arrays by descriptor ({@code [I}, {@code [Ljava.lang.String;}). */
    static String className(RecordedEvent e, String field) {
        String name = e.getClass(field).getName();
        return name.startsWith("[") ? org.objectweb.asm.Type.getType(name.replace('.', '/')).getClassName() : name;
    }

    /**
     * One token per event: {@code +C.m} entry, {@code -C.m} exit, {@code -!C.m} exit by exception,
     * {@code acq T}, {@code rel T}, {@code new T}.
     */
    static String token(RecordedEvent e, Map<Integer, String> names) {
        String type = e.getEventType().getName();
        return switch (type) {
            case EventNames.METHOD_ENTRY -> "+" + names.get(e.getInt("methodId"));
            case EventNames.METHOD_EXIT -> (e.getBoolean("exceptional") ? "-!" : "-") + names.get(e.getInt("methodId"));
            case EventNames.LOCK_ACQUIRE -> "acq " + className(e, "monitorClass");
            case EventNames.LOCK_RELEASE -> "rel " + className(e, "monitorClass");
            case EventNames.OBJECT_ALLOC -> "new " + className(e, "objectClass");
            case EventNames.ARRAY_LENGTH -> "len " + e.getInt("length");
            default -> throw new IllegalArgumentException("not a minitrace event: " + type);
        };
    }
}
