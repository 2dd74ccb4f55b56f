package dev.minitrace.launch;

import dev.minitrace.converter.recovery.RecordingRepository;
import dev.minitrace.converter.recovery.Recovery;
import dev.minitrace.wire.RecorderOptions;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Configuration;

/**
 * A Java program run in a child JVM with the MiniTrace agent and the {@code minitrace}
 * recording. The child inherits stdin, stdout and stderr. JFR writes the recording to a
 * temporary file beside the output when the child exits; it is renamed to the output only then,
 * so the output is never a half-written file.
 *
 * <p>{@link #keepingChunks} instead leaves the recording in JFR's repository, a private folder
 * beside the output, and copies it nowhere: on a JDK with {@code preserve-repository} (21+) its
 * chunk files stay there after the child exits, for a reader that takes them in place (the
 * converter). JFR's copy into {@code filename=} at exit is as long as the recording is large.
 */
public final class TracedProcess {
    /**
     * What to run: {@code java} is the Java launcher, {@code javaArgs} everything after it (JVM
     * options, then a main class or {@code -jar}, then the program's arguments).
     */
    public record Spec(Path java, Path agentJar, String agentOptions, Path profile, Path recording,
            List<String> javaArgs) {
        /** Makes every path absolute and the argument list immutable. */
        public Spec {
            java = java.toAbsolutePath();
            agentJar = agentJar.toAbsolutePath().normalize();
            profile = profile.toAbsolutePath().normalize();
            recording = recording.toAbsolutePath().normalize();
            javaArgs = List.copyOf(javaArgs);
        }
    }

    /**
     * How the child ended: its exit status, the recording ({@code null} if JFR wrote none or an
     * unfinished one), and the JFR repositories of the child that were kept because the
     * recording is not complete (empty when JFR deleted them, or when the recording is complete).
     */
    public record Result(long pid, int exitStatus, Path recording, List<Path> keptRepositories) {
        /** Makes the list immutable. */
        public Result {
            keptRepositories = List.copyOf(keptRepositories);
        }
    }

    private final Spec spec;
    private final Path partial;
    /** The repository of {@link #keepingChunks}, or null when JFR writes {@link #partial}. */
    private final Path chunkFolder;
    private Process process;
    private Result result;

    private TracedProcess(Spec spec, boolean keepChunks) {
        this.spec = spec;
        Path name = spec.recording().getFileName();
        String prefix = "." + name + "." + ProcessHandle.current().pid();
        this.partial = keepChunks ? null : spec.recording().resolveSibling(prefix + ".part.jfr");
        this.chunkFolder = keepChunks ? spec.recording().resolveSibling(prefix + ".chunks") : null;
    }

    /**
     * Checks {@code spec} and returns the process to {@link #run()}.
     *
     * @throws IllegalArgumentException with a one-line message for a profile that is missing or
     *         not a .jfc file, an output whose folder is missing, or no program to run
     */
    public static TracedProcess of(Spec spec) {
        checkProfile(spec.profile());
        checkOutput(spec.recording());
        if (spec.javaArgs().isEmpty()) {
            throw new IllegalArgumentException("no program to run: give the java arguments after '--'");
        }
        return new TracedProcess(spec, false);
    }

    /**
     * As {@link #of}, but the recording stays in a JFR repository beside {@code spec.recording()}
     * (the output it will be converted to): the {@link Result}'s recording is that repository's
     * folder of chunk files, which the caller reads and deletes ({@link #chunkFolder()}). Only where
     * {@link #canKeepChunks} says so.
     */
    public static TracedProcess keepingChunks(Spec spec) {
        if (!canKeepChunks(spec.javaArgs())) {
            throw new IllegalStateException("this JDK keeps no repository, or the program's options set -XX:FlightRecorderOptions");
        }
        of(spec);
        return new TracedProcess(spec, true);
    }

    /**
     * True when the recording can stay in the repository: the child's JDK (this one's) has
     * {@code preserve-repository}, and the program's JVM options leave the recorder options (the
     * repository's place among them) to MiniTrace.
     */
    public static boolean canKeepChunks(List<String> javaArgs) {
        return Runtime.version().feature() >= RecorderOptions.PRESERVE_REPOSITORY_SINCE && !setsRecorderOptions(javaArgs);
    }

    /** What runs. */
    public Spec spec() {
        return spec;
    }

    /** The private folder the child's JFR repository goes in ({@link #keepingChunks}), or null. */
    public Path chunkFolder() {
        return chunkFolder;
    }

    /** The Java launcher of the running JVM ({@code java.home}), else of {@code JAVA_HOME}, else {@code java}. */
    public static Path javaExecutable() {
        String exe = System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java";
        Path own = Path.of(System.getProperty("java.home"), "bin", exe);
        if (Files.isExecutable(own)) {
            return own;
        }
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank() && Files.isExecutable(Path.of(javaHome, "bin", exe))) {
            return Path.of(javaHome, "bin", exe);
        }
        return Path.of(exe);
    }

    /** The complete command line of the child JVM. */
    public List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(spec.java().toString());
        String options = spec.agentOptions();
        cmd.add("-javaagent:" + spec.agentJar() + (options.isEmpty() ? "" : "=" + options));
        if (chunkFolder != null) {
            cmd.add(RecordingOptions.flightRecorderOptions(Runtime.version().feature(), chunkFolder));
            cmd.add(RecordingOptions.startFlightRecording(spec.profile()));
        } else {
            if (!setsRecorderOptions(spec.javaArgs())) {
                cmd.add(RecordingOptions.flightRecorderOptions(Runtime.version().feature()));
            }
            cmd.add(RecordingOptions.startFlightRecording(spec.profile(), partial));
        }
        cmd.addAll(spec.javaArgs());
        return cmd;
    }

    private static boolean setsRecorderOptions(List<String> javaArgs) {
        for (String a : javaArgs) {
            if (a.startsWith("-XX:FlightRecorderOptions")) {
                return true;
            }
        }
        return false;
    }

    /** The temporary file JFR writes before it is renamed to the output (null for {@link #keepingChunks}). */
    public Path partialRecording() {
        return partial;
    }

    /**
     * Starts the child, waits for it and moves the recording into place. If this JVM is
     * interrupted (Ctrl-C reaches both), it still waits for the child to dump and renames.
     *
     * @param onStart called with the child's pid once it runs
     * @throws IllegalStateException if the child cannot be started or the recording not moved
     */
    public Result run(java.util.function.LongConsumer onStart) {
        List<String> cmd = command();
        Thread hook = new Thread(this::finish, "minitrace-run-wait");
        try {
            if (chunkFolder != null) {
                Files.createDirectories(chunkFolder);
            } else {
                Files.deleteIfExists(partial);
            }
            synchronized (this) {
                process = new ProcessBuilder(cmd).inheritIO().start();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + cmd.get(0) + ": " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(hook);
        onStart.accept(process.pid());
        Result r = finish();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or will run; finish() is idempotent
        }
        return r;
    }

    /** Waits for the child and renames its recording; runs once, from run() or the shutdown hook. */
    private synchronized Result finish() {
        if (result != null) {
            return result;
        }
        int status;
        while (true) {
            try {
                status = process.waitFor();
                break;
            } catch (InterruptedException e) {
                // keep waiting: leaving before the child dumped would lose the recording
            }
        }
        if (chunkFolder != null) {
            result = keptChunks(status);
            return result;
        }
        boolean complete = false;
        if (Files.isRegularFile(partial)) {
            moveIntoPlace();
            try {
                complete = Recovery.complete(spec.recording());
                if (!complete && Files.size(spec.recording()) == 0) {
                    Files.delete(spec.recording()); // JFR made it at the start and never wrote it: the JVM died
                }
            } catch (IOException e) {
                complete = false;
            }
        }
        result = new Result(process.pid(), status, complete ? spec.recording() : null, settleRepositories(process.pid(), complete));
        return result;
    }

    /**
     * The end of a {@link #keepingChunks} run: its repository folder is the recording when every
     * chunk is finished (an orderly exit); else it is kept for {@code mt recover}, and the private
     * folder is removed when the child left nothing in it.
     */
    private Result keptChunks(int status) {
        List<Path> found;
        try {
            found = RecordingRepository.ofProcess(process.pid(), List.of(chunkFolder));
        } catch (IOException e) {
            found = List.of();
        }
        if (found.isEmpty()) {
            deleteTree(chunkFolder);
            return new Result(process.pid(), status, null, List.of());
        }
        Path last = found.get(found.size() - 1);
        try {
            if (found.size() == 1 && Recovery.completeFolder(last)) {
                return new Result(process.pid(), status, last, List.of());
            }
        } catch (IOException e) {
            // kept, as an incomplete one
        }
        return new Result(process.pid(), status, null, found);
    }

    /**
     * The child's JFR repositories ({@code <time>_<pid>} under its repository or temporary
     * folder) once it has exited: deleted when the recording is complete (every chunk finished,
     * {@link Recovery#complete}), since they then hold nothing more and would double the disk a trace takes;
     * otherwise kept and returned, for {@code mt recover}. Without {@code preserve-repository}
     * (JDK 17 to 20) JFR deleted them itself after an orderly exit.
     */
    private List<Path> settleRepositories(long pid, boolean complete) {
        List<Path> found;
        try {
            found = RecordingRepository.ofProcess(pid, List.of(repositoryRoot()));
        } catch (IOException e) {
            return List.of();
        }
        if (!complete) {
            return found;
        }
        for (Path folder : found) {
            deleteTree(folder);
        }
        return List.of();
    }

    /** Where the child's JFR puts its repository: {@code repository=} of its recorder options, else its temporary folder. */
    Path repositoryRoot() {
        String repository = null;
        String tmpdir = System.getProperty("java.io.tmpdir");
        for (String a : spec.javaArgs()) {
            if (a.startsWith("-Djava.io.tmpdir=")) {
                tmpdir = a.substring("-Djava.io.tmpdir=".length());
            } else if (a.startsWith("-XX:FlightRecorderOptions")) {
                for (String kv : a.substring("-XX:FlightRecorderOptions".length()).replaceFirst("^[:=]", "").split(",")) {
                    if (kv.startsWith("repository=")) {
                        repository = kv.substring("repository=".length());
                    }
                }
            }
        }
        return Path.of(repository != null ? repository : tmpdir).toAbsolutePath();
    }

    /** Deletes a folder and what it holds, as far as it can (also the private folder of {@link #keepingChunks} once read). */
    public static void deleteTree(Path folder) {
        try (java.util.stream.Stream<Path> walk = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // what stays is only disk: the recording itself is complete
        }
    }

    private void moveIntoPlace() {
        try {
            try {
                Files.move(partial, spec.recording(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, spec.recording(), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot move the recording " + partial + " to " + spec.recording() + ": " + e, e);
        }
    }

    private static void checkProfile(Path profile) {
        if (!Files.isRegularFile(profile)) {
            throw new IllegalArgumentException("--jfc " + profile + ": no such file");
        }
        try {
            Configuration.create(profile);
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("--jfc " + profile + ": not a JFR settings file (" + oneLine(e) + ")");
        }
    }

    private static void checkOutput(Path out) {
        if (Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + ": is a folder; give a file name such as trace.jfr");
        }
        Path dir = out.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--out " + out + ": folder " + dir + " does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("--out " + out + ": folder " + dir + " is not writable");
        }
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replace('\n', ' ').strip();
    }
}
