package dev.minitrace.converter.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An independent reader of Elephant Tracks' {@code trace} and {@code names}, written from the
 * analyzer's grammar (etanalyzer-cpp: classinfo.cpp, 5-simulator-ETonly/simulator.cpp), not from
 * the writer: every integer token is hexadecimal (32-bit unsigned), a blank line ends a file,
 * lines stay under 2,048 characters and 50 tokens, a {@code C} line comes before every
 * {@code N}/{@code F} naming its class id, an {@code S} line follows its method's {@code N}, an
 * allocation id is never reused, an {@code E}/{@code X} names a known method, a {@code D} an
 * allocated object. A violation throws, naming the line.
 */
public final class ElephantTracksFiles {
    /** A class, method or field name by id, from {@code names}. */
    public final Map<Long, String> classes = new HashMap<>();
    public final Map<Long, String> methods = new HashMap<>();
    /** Field id -> "classname.field" (with " static" for S fields). */
    public final Map<Long, String> fields = new HashMap<>();
    public final Map<Long, String> sites = new HashMap<>();
    /** The trace's lines, split into tokens, in order (the blank end line excluded). */
    public final List<String[]> trace = new ArrayList<>();
    /** Allocated object id -> its type token. */
    public final Map<Long, String> allocated = new HashMap<>();
    /** Allocated object id -> its size token. */
    public final Map<Long, Long> sizes = new HashMap<>();
    /** Allocated object id -> its array length token (the last of a 7-token line). */
    public final Map<Long, Long> lengths = new HashMap<>();

    private ElephantTracksFiles() {
    }

    /** Reads and checks {@code dir/names} and {@code dir/trace}. */
    public static ElephantTracksFiles read(Path dir) throws IOException {
        ElephantTracksFiles f = new ElephantTracksFiles();
        f.readNames(lines(dir.resolve("names")));
        f.readTrace(lines(dir.resolve("trace")));
        return f;
    }

    /** The lines before the blank line that ends the file; a file without one is refused. */
    private static List<String> lines(Path file) throws IOException {
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        int end = all.indexOf("");
        if (end < 0) {
            throw new IllegalStateException(file + ": no blank line ends the file");
        }
        if (end != all.size() - 1) {
            throw new IllegalStateException(file + ": lines after the blank line that ends it");
        }
        List<String> kept = all.subList(0, end);
        for (int i = 0; i < kept.size(); i++) {
            String l = kept.get(i);
            if (l.length() >= 2048 || l.split(" ").length >= 50) {
                throw new IllegalStateException(file + " line " + (i + 1) + " is too long: " + l);
            }
        }
        return kept;
    }

    private static long hex(String[] t, int i, String line) {
        if (i >= t.length) {
            throw new IllegalStateException("missing token " + i + " in '" + line + "'");
        }
        if (!t[i].matches("[0-9A-Fa-f]{1,8}")) {
            throw new IllegalStateException("token " + i + " of '" + line + "' is not a 32-bit hex integer");
        }
        return Long.parseLong(t[i], 16);
    }

    private static void count(String[] t, int n, String line) {
        if (t.length != n) {
            throw new IllegalStateException("'" + line + "' has " + t.length + " tokens, expected " + n);
        }
    }

    private void readNames(List<String> lines) {
        Long lastMethod = null;
        for (String line : lines) {
            String[] t = line.split(" ");
            switch (t[0]) {
                case "C", "I" -> {
                    classes.put(hex(t, 1, line), t[2]);
                    lastMethod = null;
                }
                case "N" -> {
                    count(t, 7, line);
                    long cls = hex(t, 2, line);
                    if (!t[3].equals(classes.get(cls))) {
                        throw new IllegalStateException("'" + line + "': no C line before it names class " + cls + " " + t[3]);
                    }
                    if (t[3].contains(".")) {
                        throw new IllegalStateException("'" + line + "': class names are in slash form");
                    }
                    lastMethod = hex(t, 1, line);
                    methods.put(lastMethod, t[3] + "." + t[4]);
                }
                case "F" -> {
                    count(t, 7, line);
                    long cls = hex(t, 4, line);
                    if (!t[5].equals(classes.get(cls))) {
                        throw new IllegalStateException("'" + line + "': no C line before it names class " + cls);
                    }
                    fields.put(hex(t, 2, line), t[5] + "." + t[3] + (t[1].equals("S") ? " static" : ""));
                }
                case "S" -> {
                    count(t, 6, line);
                    long method = hex(t, 1, line);
                    if (lastMethod == null || lastMethod != method) {
                        throw new IllegalStateException("'" + line + "' does not follow the N line of method " + method);
                    }
                    hex(t, 5, line);
                    sites.put(hex(t, 3, line), t[4]);
                }
                case "E" -> hex(t, 1, line);
                default -> throw new IllegalStateException("unknown names line '" + line + "'");
            }
        }
    }

    private void readTrace(List<String> lines) {
        Set<Long> ids = new HashSet<>();
        for (String line : lines) {
            String[] t = line.split(" ");
            switch (t[0]) {
                case "A", "I", "N", "P", "V" -> {
                    if (t.length != 7) {
                        // a 6-token line would leave the analyzer without the thread (it reads token 6 then)
                        throw new IllegalStateException("'" + line + "' has " + t.length + " tokens, expected 7");
                    }
                    // <kind> <id> <size> <type> <site> <thread> [<length>]: the analyzer (simulator.cpp at
                    // etanalyzer-cpp's HEAD) takes token 5 as the thread of a 7-token line
                    long id = hex(t, 1, line);
                    long size = hex(t, 2, line);
                    hex(t, 4, line);
                    hex(t, 5, line);
                    hex(t, t.length - 1, line);
                    if (id == 0 || !ids.add(id)) {
                        throw new IllegalStateException("'" + line + "': object id reused or 0");
                    }
                    allocated.put(id, t[3]);
                    sizes.put(id, size);
                    lengths.put(id, hex(t, 6, line));
                }
                case "U" -> {
                    count(t, 6, line);
                    for (int i = 1; i < 6; i++) {
                        hex(t, i, line);
                    }
                }
                case "D" -> {
                    count(t, 3, line);
                    if (!allocated.containsKey(hex(t, 1, line))) {
                        throw new IllegalStateException("'" + line + "' names an object never allocated");
                    }
                }
                case "M" -> {
                    count(t, 4, line);
                    knownMethod(t, line);
                }
                case "E", "X" -> {
                    count(t, t[0].equals("E") ? 4 : 5, line);
                    knownMethod(t, line);
                    hex(t, t.length - 1, line);
                }
                case "T", "H" -> {
                    count(t, 4, line);
                    knownMethod(t, line);
                    hex(t, 3, line);
                }
                case "R" -> count(t, 3, line);
                default -> throw new IllegalStateException("unknown trace line '" + line + "'");
            }
            trace.add(t);
        }
    }

    private void knownMethod(String[] t, String line) {
        if (!methods.containsKey(hex(t, 1, line))) {
            throw new IllegalStateException("'" + line + "' names a method no N line defines");
        }
        hex(t, 2, line);
    }
}
