package dev.minitrace.bench.apps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The measurements of one app under every configuration, and what the harness derives from them:
 * medians over rounds, ratios to the plain run's median, and the check that every run printed the
 * same checksum (a tracer must not change the program's results).
 */
final class AppRuns {
    /** One child JVM run; {@code cpuSeconds} and {@code peakRssKb} are negative when unknown. */
    record Run(String config, int round, double wallSeconds, double cpuSeconds, long peakRssKb, long recordingBytes, String checksum) {
    }

    /** Thrown when a run's checksum differs from the first run's. */
    static final class ChecksumMismatch extends RuntimeException {
        ChecksumMismatch(String message) {
            super(message);
        }
    }

    private final String app;
    private final Map<String, List<Run>> byConfig = new LinkedHashMap<>();
    private Run first;

    AppRuns(String app) {
        this.app = app;
    }

    /** Adds a run; throws {@link ChecksumMismatch} at once when its checksum differs from the first run's. */
    void add(Run run) {
        if (first == null) {
            first = run;
        } else if (!first.checksum().equals(run.checksum())) {
            throw new ChecksumMismatch(app + ": checksum " + run.checksum() + " of '" + run.config() + "' round " + run.round()
                    + " differs from " + first.checksum() + " of '" + first.config() + "' round " + first.round()
                    + ": the tracer changed the program's results");
        }
        byConfig.computeIfAbsent(run.config(), k -> new ArrayList<>()).add(run);
    }

    String checksum() {
        return first == null ? "-" : first.checksum();
    }

    List<Run> runs(String config) {
        return byConfig.getOrDefault(config, List.of());
    }

    OptionalDouble medianWall(String config) {
        return median(runs(config).stream().mapToDouble(Run::wallSeconds).toArray());
    }

    OptionalDouble medianCpu(String config) {
        return median(runs(config).stream().mapToDouble(Run::cpuSeconds).filter(v -> v >= 0).toArray());
    }

    OptionalDouble medianRssKb(String config) {
        return median(runs(config).stream().mapToLong(Run::peakRssKb).filter(v -> v >= 0).asDoubleStream().toArray());
    }

    OptionalDouble medianRecordingBytes(String config) {
        return median(runs(config).stream().mapToLong(Run::recordingBytes).filter(v -> v >= 0).asDoubleStream().toArray());
    }

    /** Median wall time of {@code config} divided by the plain run's median wall time. */
    OptionalDouble slowdown(String config, String plain) {
        OptionalDouble x = medianWall(config);
        OptionalDouble p = medianWall(plain);
        return x.isPresent() && p.isPresent() ? OptionalDouble.of(x.getAsDouble() / p.getAsDouble()) : OptionalDouble.empty();
    }

    /**
     * The median over rounds of each round's wall time of {@code config} divided by the same
     * round's {@code plain}: on a machine whose load drifts between rounds this compares runs made
     * close together, where the ratio of the two medians may take them from different rounds.
     */
    OptionalDouble slowdownPerRound(String config, String plain) {
        List<Run> xs = runs(config);
        List<Run> ps = runs(plain);
        double[] ratios = new double[Math.min(xs.size(), ps.size())];
        int n = 0;
        for (Run x : xs) {
            for (Run p : ps) {
                if (p.round() == x.round() && p.wallSeconds() > 0) {
                    ratios[n++] = x.wallSeconds() / p.wallSeconds();
                    break;
                }
            }
        }
        return median(Arrays.copyOf(ratios, n));
    }

    /** (x − plain) ÷ (reference − plain) of the median wall times: the share of the reference's added cost that x adds. */
    OptionalDouble addedCostRatio(String config, String reference, String plain) {
        OptionalDouble x = medianWall(config);
        OptionalDouble r = medianWall(reference);
        OptionalDouble p = medianWall(plain);
        if (x.isEmpty() || r.isEmpty() || p.isEmpty() || r.getAsDouble() == p.getAsDouble()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((x.getAsDouble() - p.getAsDouble()) / (r.getAsDouble() - p.getAsDouble()));
    }

    /** Median of the values; empty when there are none. */
    static OptionalDouble median(double[] values) {
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        double[] c = values.clone();
        Arrays.sort(c);
        int n = c.length;
        return OptionalDouble.of(n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2);
    }
}
