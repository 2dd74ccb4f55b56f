package dev.minitrace.bench.latestart;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The program a late recording starts on (child JVM of {@link LateStartBench}): loads, without
 * initializing them, every class of the jars in {@code args[1]} (a folder) that its class path
 * can load, except the names listed in the file {@code args[2]} (may be {@code -}); writes the
 * count to {@code args[0]/ready}, then waits until {@code args[0]/stop} exists.
 */
public final class LoadAll {
    private LoadAll() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Set<String> skip = new HashSet<>();
        if (!args[2].equals("-")) {
            skip.addAll(Files.readAllLines(Path.of(args[2])));
        }
        int loaded = 0;
        File[] jars = Path.of(args[1]).toFile().listFiles((d, n) -> n.endsWith(".jar"));
        java.util.Arrays.sort(jars);
        for (File jar : jars) {
            try (JarFile j = new JarFile(jar)) {
                for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements();) {
                    String n = e.nextElement().getName();
                    if (!n.endsWith(".class") || n.contains("-info") || n.startsWith("META-INF")) {
                        continue;
                    }
                    String name = n.substring(0, n.length() - 6).replace('/', '.');
                    if (skip.contains(name)) {
                        continue;
                    }
                    try {
                        Class.forName(name, false, LoadAll.class.getClassLoader());
                        loaded++;
                    } catch (Throwable t) {
                        // not loadable with these jars (an optional dependency is missing): as in a real program, never loaded
                    }
                }
            }
        }
        Files.writeString(dir.resolve("ready"), Integer.toString(loaded));
        while (!Files.exists(dir.resolve("stop"))) {
            Thread.sleep(20);
        }
    }
}
