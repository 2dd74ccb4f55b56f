package dev.minitrace.converter.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JFR disk repository: the folder where a JVM writes its recording's chunks, one file each,
 * named after the time the chunk started ({@code yyyy_MM_dd_HH_mm_ss.jfr}, with {@code _NN}
 * added when several start in the same second), inside a folder named
 * {@code yyyy_MM_dd_HH_mm_ss_<pid>} under {@code java.io.tmpdir} or the configured repository.
 */
public final class RecordingRepository {
    private static final Pattern CHUNK = Pattern.compile("(\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2})(?:_(\\d+))?\\.jfr");
    private static final Pattern FOLDER = Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_(\\d+)");

    private RecordingRepository() {
    }

    /**
     * The chunk files of {@code folder} in the order the JVM wrote them: by the time in their
     * names, then by their counter as a number (a plain name sort would put {@code _10} before
     * {@code _9}); files named otherwise come after, by name.
     */
    public static List<Path> chunkFiles(Path folder) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(folder)) {
            s.filter(p -> isChunkFile(p.getFileName().toString()) && Files.isRegularFile(p)).forEach(files::add);
        }
        files.sort(Comparator.comparing(RecordingRepository::sortKey));
        return files;
    }

    /** A .jfr file that is not hidden (MiniTrace's own temporary files start with a dot). */
    private static boolean isChunkFile(String name) {
        return name.endsWith(".jfr") && !name.startsWith(".");
    }

    private static String sortKey(Path p) {
        String name = p.getFileName().toString();
        Matcher m = CHUNK.matcher(name);
        if (!m.matches()) {
            return "~" + name;
        }
        int n = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        return m.group(1) + String.format("_%09d", n);
    }

    /**
     * The repositories of process {@code pid} under each of {@code roots} (folders named
     * {@code <time>_<pid>}), the newest last.
     */
    public static List<Path> ofProcess(long pid, List<Path> roots) throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.list(root)) {
                s.filter(Files::isDirectory).filter(p -> {
                    Matcher m = FOLDER.matcher(p.getFileName().toString());
                    return m.matches() && m.group(1).equals(Long.toString(pid));
                }).forEach(found::add);
            } catch (IOException e) {
                // an unreadable root hides nothing we could read
            }
        }
        found.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return found;
    }
}
