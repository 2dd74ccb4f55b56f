package dev.minitrace.bench;

/**
 * A benchmark's command line, read option by option: a missing or malformed value is a
 * {@link Usage}, which {@link #fail} turns into one line on stderr and exit status 2 instead of
 * a stack trace.
 */
public final class BenchArgs {
    /** A command line the benchmark cannot run. */
    public static final class Usage extends Exception {
        public Usage(String message) {
            super(message);
        }
    }

    private final String[] args;
    private int next;
    private String option;

    public BenchArgs(String[] args) {
        this.args = args.clone();
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

    /** The option's value. */
    public String value() throws Usage {
        if (next >= args.length) {
            throw new Usage(option + " needs a value");
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

    /** An option this benchmark does not know; {@code expected} lists the ones it does. */
    public Usage unknown(String expected) {
        return new Usage("unknown option " + option + " (expected " + expected + ")");
    }

    /** Says what is wrong on one line and exits with status 2. */
    public static void fail(String bench, Usage e) {
        System.err.println("bench/run " + bench + ": " + e.getMessage());
        System.exit(2);
    }
}
