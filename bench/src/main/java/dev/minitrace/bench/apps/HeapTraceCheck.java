package dev.minitrace.bench.apps;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The heap trace of a real application, as Elephant Tracks' tools would get it: converts the
 * recording with {@code bin/mt convert --format et} and reads the trace file back by its grammar
 * (docs/elephant-tracks.md), not by the writer's code: lines per kind, and the facts the analyzer
 * relies on (an allocation id is never given twice, a death names an object allocated before it,
 * and each object dies at most once).
 */
final class HeapTraceCheck {
    private HeapTraceCheck() {
    }

    /**
     * What the check found; {@code problems} empty when every rule held. {@code bytes} sums the size
     * tokens of the allocation lines, {@code unsized} counts those whose size is 0 (not measured).
     */
    record Result(Map<Character, Long> lines, long deaths, long bytes, long unsized, String problems, AppsBench.Measured conversion) {
    }

    static Result run(Path root, Path javaHome, Path recording, Path work, Path time) throws Exception {
        Path dir = work.resolve("et");
        EcjApp.deleteTree(dir);
        java.util.List<String> cmd = java.util.List.of(root.resolve("bin/mt").toString(), "convert", "--format", "et",
                recording.toString(), dir.toString());
        AppsBench.Measured m = AppsBench.measure(cmd, work.resolve("et.log"), time, javaHome);
        if (m.exitCode() != 0 && m.exitCode() != 3) {
            throw new IllegalStateException("mt convert --format et failed (exit " + m.exitCode() + "): " + m.tail());
        }
        Result r = read(dir.resolve("trace"), m);
        EcjApp.deleteTree(dir);
        return r;
    }

    static Result read(Path trace, AppsBench.Measured m) throws IOException {
        Map<Character, Long> lines = new TreeMap<>();
        BitSet allocated = new BitSet();
        BitSet dead = new BitSet();
        StringBuilder problems = new StringBuilder();
        long deaths = 0;
        long bytes = 0;
        long unsized = 0;
        try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.US_ASCII)) {
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                char kind = line.charAt(0);
                lines.merge(kind, 1L, Long::sum);
                if ("AINPV".indexOf(kind) >= 0 || kind == 'D') {
                    String[] t = line.split(" ");
                    int id = (int) Long.parseLong(t[1], 16);
                    if (kind != 'D') {
                        // <kind> <id> <size> <type> <site> <thread> <length>
                        if (t.length != 7 && problems.length() < 500) {
                            problems.append("allocation line of ").append(t.length).append(" tokens: ").append(line).append("; ");
                        }
                        long size = Long.parseLong(t[2], 16);
                        bytes += size;
                        unsized += size == 0 ? 1 : 0;
                        if (allocated.get(id) && problems.length() < 500) {
                            problems.append(String.format(Locale.ROOT, "id %x allocated twice; ", id));
                        }
                        allocated.set(id);
                    } else {
                        deaths++;
                        if (!allocated.get(id) && problems.length() < 500) {
                            problems.append(String.format(Locale.ROOT, "death of %x before any allocation of it; ", id));
                        }
                        if (dead.get(id) && problems.length() < 500) {
                            problems.append(String.format(Locale.ROOT, "%x died twice; ", id));
                        }
                        dead.set(id);
                    }
                }
            }
        }
        return new Result(lines, deaths, bytes, unsized, problems.toString(), m);
    }
}
