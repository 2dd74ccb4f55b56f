package dev.minitrace.bench.apps;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jdt.core.compiler.batch.BatchCompiler;

/**
 * The compiler app of {@code bench/run apps}: Eclipse's batch compiler (ecj) compiles a real
 * library's sources {@code REPEATS} times in one JVM, each time into a fresh folder. Checksum: the
 * relative names and bytes of every class file written (identical in every repeat, or it fails).
 *
 * <p>Usage: {@code EcjApp SRC_DIR WORK_DIR REPEATS}. Prints {@code RESULT <checksum> <classes>}.
 */
public final class EcjApp {
    private EcjApp() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) throws IOException {
        Path src = Path.of(args[0]);
        Path work = Path.of(args[1]);
        int repeats = Integer.parseInt(args[2]);
        String checksum = null;
        int classes = 0;
        for (int i = 0; i < repeats; i++) {
            long t0 = System.nanoTime();
            Path out = work.resolve("classes");
            deleteTree(out);
            StringWriter errors = new StringWriter();
            // -proc:none: no annotation processor discovery on the class path, which would make
            // the work depend on what else is on it. -17: the source level every JDK here supports.
            boolean ok = BatchCompiler.compile(new String[] {"-17", "-proc:none", "-nowarn", "-encoding", "UTF-8",
                "-d", out.toString(), src.toString()}, new PrintWriter(new StringWriter()), new PrintWriter(errors), null);
            if (!ok) {
                throw new IllegalStateException("ecj failed:\n" + errors);
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(out)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            Checksums sum = new Checksums();
            for (Path f : files) {
                sum.add(out.relativize(f).toString()).add(Files.readAllBytes(f));
            }
            String now = sum.hex();
            if (checksum != null && !checksum.equals(now)) {
                throw new IllegalStateException("repeat " + (i + 1) + " wrote different classes: " + now + " after " + checksum);
            }
            checksum = now;
            classes = files.size();
            // Per repeat, to tell one-time costs (class loading, rewriting, JIT) from steady-state ones.
            System.out.printf(java.util.Locale.ROOT, "REPEAT %d %.3f s%n", i + 1, (System.nanoTime() - t0) / 1e9);
        }
        deleteTree(work.resolve("classes"));
        System.out.println("RESULT " + checksum + " " + classes);
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
