package dev.minitrace.cli;

import java.io.IOException;

/**
 * The program {@code RunCommandIT} traces: main calls {@link #work} three times, each taking a
 * monitor and calling {@link #square}. With the argument {@code wait} it then prints
 * {@code ready <pid>} and waits for stdin to close; the last argument is its exit status.
 */
public final class TracedFixture {
    private static final Object LOCK = new Object();

    private TracedFixture() {
    }

    /** Runs the fixture. */
    public static void main(String[] args) throws IOException {
        int sum = 0;
        for (int i = 1; i <= 3; i++) {
            sum += work(i);
        }
        System.out.println("sum " + sum);
        if (args[0].equals("wait")) {
            System.out.println("ready " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait until the test closes stdin
            }
        }
        System.exit(Integer.parseInt(args[args.length - 1]));
    }

    static int work(int i) {
        synchronized (LOCK) {
            return square(i);
        }
    }

    static int square(int i) {
        return i * i;
    }
}
