package dev.minitrace.views.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A timeline file read back as a viewer would: the events of each track ordered by time (a
 * stable sort, as Perfetto and speedscope do), begins and ends matched with a stack. Fails on an
 * end that does not match the innermost open slice, or a slice that never ends.
 */
final class TimelineFile {
    /** One matched slice. */
    record Slice(long tid, String name, double begin, double end, int depth, JsonNode beginArgs, JsonNode endArgs) {
    }

    final JsonNode root;
    final Map<Long, String> threadNames = new LinkedHashMap<>();
    final List<Slice> slices = new ArrayList<>();
    final List<JsonNode> instants = new ArrayList<>();
    final List<JsonNode> complete = new ArrayList<>();
    final Map<Long, Integer> maxDepth = new HashMap<>();

    TimelineFile(Path file) throws IOException {
        root = new ObjectMapper().readTree(file.toFile());
        Map<Long, List<JsonNode>> byTrack = new LinkedHashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            String ph = e.get("ph").asText();
            long tid = e.get("tid").asLong();
            switch (ph) {
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) {
                        threadNames.put(tid, e.get("args").get("name").asText());
                    }
                }
                case "B", "E" -> byTrack.computeIfAbsent(tid, k -> new ArrayList<>()).add(e);
                case "i" -> instants.add(e);
                case "X" -> complete.add(e);
                default -> fail("unexpected phase " + ph + ": " + e);
            }
        }
        for (Map.Entry<Long, List<JsonNode>> t : byTrack.entrySet()) {
            List<JsonNode> events = new ArrayList<>(t.getValue());
            events.sort((a, b) -> Double.compare(a.get("ts").asDouble(), b.get("ts").asDouble()));
            Deque<JsonNode> open = new ArrayDeque<>();
            for (JsonNode e : events) {
                if (e.get("ph").asText().equals("B")) {
                    open.push(e);
                    maxDepth.merge(t.getKey(), open.size(), Math::max);
                } else {
                    JsonNode b = open.poll();
                    if (b == null) {
                        fail("an end without a begin on track " + t.getKey() + ": " + e);
                    }
                    assertEquals(b.get("name").asText(), e.get("name").asText(), () -> "the end matches the innermost open slice: " + e);
                    assertTrue(e.get("ts").asDouble() >= b.get("ts").asDouble(), () -> "a slice ends after it begins: " + e);
                    slices.add(new Slice(t.getKey(), b.get("name").asText(), b.get("ts").asDouble(), e.get("ts").asDouble(),
                            open.size(), b.get("args"), e.get("args")));
                }
            }
            assertTrue(open.isEmpty(), () -> "slices still open at the end of track " + t.getKey() + ": " + open);
        }
    }

    /** The slices of thread {@code name} named {@code slice}. */
    List<Slice> slices(String thread, String slice) {
        return slices.stream().filter(s -> thread.equals(threadNames.get(s.tid())) && s.name().equals(slice)).toList();
    }

    /** The instants on thread {@code thread}. */
    List<JsonNode> instants(String thread) {
        return instants.stream().filter(e -> thread.equals(threadNames.get(e.get("tid").asLong()))).toList();
    }
}
