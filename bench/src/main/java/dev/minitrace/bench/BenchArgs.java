package dev.minitrace.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Every benchmark's command line, read option by option: a missing or malformed value, or an
 * option the benchmark does not know, is a {@link Usage}, which {@link #fail} turns into one line
 * on stderr and exit status 2 instead of a stack trace.
 */
public final class BenchArgs {
    /** A command line the benchmark cannot run (or what it needs is not built); printed as one line. */
    public static final class Usage extends Exception {
        public Usage(String message) {
            super(message);
        }
    }

    private final String[] args;
    private final String usage;
    private int next;
    private String option;

    /** @param usage the benchmark's usage line, added to the messages of a bad option */
    public BenchArgs(String[] args, String usage) {
        this.args = args.clone();
        this.usage = usage;
    }

    /** True while options remain; {@link #option()} is then the next one. */
    public boolean hasNext() {
        if (next >= args.length) {
            return false;
        }
        option = args[next++];
        return true;
    }

    /** The option being read. */
    public String option() {
        return option;
    }

    /** The option's value; the next option instead of a value is missing one. */
    public String value() throws Usage {
        if (next >= args.length || args[next].startsWith("--")) {
            throw new Usage(option + " needs a value; usage: " + usage);
        }
        return args[next++];
    }

    /** The option's value as a whole number of at least {@code min}. */
    public long number(long min) throws Usage {
        String v = value();
        try {
            long n = Long.parseLong(v);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // worded below
        }
        throw new Usage(option + " takes a whole number of at least " + min + ", not '" + v + "'");
    }

    /** {@link #number} for an {@code int} option. */
    public int intNumber(int min) throws Usage {
        long n = number(min);
        if (n > Integer.MAX_VALUE) {
            throw new Usage(option + " takes a number up to " + Integer.MAX_VALUE + ", not " + n);
        }
        return (int) n;
    }

    /**
     * The option's value as a comma-separated list of names, each one of {@code known}, in the
     * order given, without repeats.
     */
    public List<String> names(Collection<String> known) throws Usage {
        List<String> out = new ArrayList<>();
        for (String s : value().split(",")) {
            if (!known.contains(s)) {
                throw new Usage(option + ": unknown '" + s + "' (expected some of " + String.join(",", known) + ")");
            }
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The option's value as the home of a JDK (it must have {@code bin/java}). */
    public Path javaHome() throws Usage {
        Path home = Path.of(value());
        if (!Files.isExecutable(home.resolve("bin/java"))) {
            throw new Usage(option + " " + home + ": no bin/java there (expected a JDK home)");
        }
        return home;
    }

    /** Prints the usage line (for {@code -h} and {@code --help}). */
    public void printUsage() {
        System.out.println("usage: " + usage);
    }

    /** The option is not one of this benchmark's. */
    public Usage unknown() {
        return new Usage("unknown option '" + option + "'; usage: " + usage);
    }

    /** Says what is wrong on one line and exits with status 2. */
    public static void fail(String bench, Usage e) {
        System.err.println("bench/run " + bench + ": " + e.getMessage());
        System.exit(2);
    }
}
