package dev.minitrace.cli;

import java.util.List;

/**
 * What {@code mt run} and {@code mt attach} say about a crash: where JFR keeps the recording's
 * chunks while the JVM runs (its repository, a folder {@code <time>_<pid>} under the configured
 * repository or java.io.tmpdir), which JFR deletes only on an orderly exit, after it has written
 * the recording, so after kill -9 or a crash the chunks stay and {@code mt recover} reads them.
 */
final class CrashHint {
    private CrashHint() {
    }

    /** The hint for process {@code pid}; {@code tmpdir} or {@code repository} null when not known or not set. */
    static String text(long pid, String tmpdir, String repository) {
        String base = repository != null ? repository : tmpdir != null ? tmpdir : System.getProperty("java.io.tmpdir");
        return "if it dies (kill -9, OOM killer, crash), JFR's chunks stay in " + base + "/<time>_" + pid + ": mt recover " + pid
                + (repository != null ? " --repository " + repository : "") + " OUT.mtlog";
    }

    /** The value of the last JVM option starting with {@code prefix}, or null. */
    static String option(List<String> javaArgs, String prefix) {
        String v = null;
        for (String a : javaArgs) {
            if (a.startsWith(prefix)) {
                v = a.substring(prefix.length());
            }
        }
        return v;
    }

    /** The {@code repository=} of a {@code -XX:FlightRecorderOptions} in {@code javaArgs}, or null. */
    static String repository(List<String> javaArgs) {
        String options = option(javaArgs, "-XX:FlightRecorderOptions");
        if (options == null) {
            return null;
        }
        String v = null;
        for (String kv : options.replaceFirst("^[:=]", "").split(",")) {
            if (kv.startsWith("repository=")) {
                v = kv.substring("repository=".length());
            }
        }
        return v;
    }
}
