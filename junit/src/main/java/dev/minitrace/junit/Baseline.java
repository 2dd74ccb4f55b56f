package dev.minitrace.junit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A test's counts per method kept in a file of the repository: a CSV with the header
 * {@code method,calls,exceptions,allocs,locks} and one line per method ({@code pkg.Class::name(desc)}),
 * in name order, so that a change of counts is a readable change of lines in a review.
 */
final class Baseline {
    static final String HEADER = "method,calls,exceptions,allocs,locks";

    private Baseline() {
    }

    /** Writes {@code counts} to {@code file} (its folder created when missing). */
    static void write(Path file, ExactCounts counts) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Map.Entry<String, ExactCounts.MethodCounts> e : counts.methods().entrySet()) {
            ExactCounts.MethodCounts c = e.getValue();
            lines.add(quote(e.getKey()) + "," + c.calls() + "," + c.exceptions() + "," + c.allocs() + "," + c.locks());
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".baseline-", ".tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static String quote(String method) {
        // a descriptor has no comma or quote, but a method of a class with an odd name might
        return method.indexOf(',') < 0 && method.indexOf('"') < 0 ? method : '"' + method.replace("\"", "\"\"") + '"';
    }

    /** Reads {@code file}. */
    static Map<String, ExactCounts.MethodCounts> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(file + ": not a MiniTrace baseline (its first line is not '" + HEADER + "')");
        }
        Map<String, ExactCounts.MethodCounts> m = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            int end = line.lastIndexOf(',');
            int c3 = line.lastIndexOf(',', end - 1);
            int c2 = line.lastIndexOf(',', c3 - 1);
            int c1 = line.lastIndexOf(',', c2 - 1);
            try {
                String method = line.substring(0, c1);
                if (method.startsWith("\"")) {
                    method = method.substring(1, method.length() - 1).replace("\"\"", "\"");
                }
                m.put(method, new ExactCounts.MethodCounts(Long.parseLong(line.substring(c1 + 1, c2)), Long.parseLong(line.substring(c2 + 1, c3)),
                        Long.parseLong(line.substring(c3 + 1, end)), Long.parseLong(line.substring(end + 1))));
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": expected method,calls,exceptions,allocs,locks, not '" + line + "'");
            }
        }
        return m;
    }

    /** One line per method whose counts differ between {@code base} and {@code now}, naming each count that changed. */
    static List<String> differences(Map<String, ExactCounts.MethodCounts> base, Map<String, ExactCounts.MethodCounts> now) {
        TreeSet<String> names = new TreeSet<>(base.keySet());
        names.addAll(now.keySet());
        ExactCounts.MethodCounts zero = new ExactCounts.MethodCounts(0, 0, 0, 0);
        List<String> out = new ArrayList<>();
        for (String m : names) {
            ExactCounts.MethodCounts b = base.getOrDefault(m, zero);
            ExactCounts.MethodCounts n = now.getOrDefault(m, zero);
            List<String> changes = new ArrayList<>();
            change(changes, "calls", b.calls(), n.calls());
            change(changes, "exceptions", b.exceptions(), n.exceptions());
            change(changes, "allocs", b.allocs(), n.allocs());
            change(changes, "locks", b.locks(), n.locks());
            if (!changes.isEmpty()) {
                out.add(m + ": " + String.join(", ", changes));
            }
        }
        return out;
    }

    private static void change(List<String> changes, String metric, long base, long now) {
        if (base != now) {
            changes.add(metric + " " + base + " in the baseline, " + now + " now");
        }
    }
}
