package dev.minitrace.cli;

import picocli.CommandLine.Option;

/**
 * {@code --memory SIZE}, the one declaration every command that reads a trace mixes in: bin/mt reads
 * the same option to size the JVM before the command starts, so its meaning must not differ by command.
 */
final class MemoryOption {
    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "512m",
            description = "Memory the whole command may use, e.g. 512m or 4g (default 512m): bin/mt sizes the JVM to it,"
                    + " and what does not fit waits on disk.")
    String text;

    /** The size in bytes; a malformed or too small size is a usage error. */
    long bytes() {
        return MemorySize.parse(text);
    }

    @Override
    public String toString() {
        return text;
    }
}
