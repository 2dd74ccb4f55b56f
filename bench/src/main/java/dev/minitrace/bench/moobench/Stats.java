package dev.minitrace.bench.moobench;

import java.util.Arrays;

/**
 * MooBench's statistics of one configuration's response times (ns per top-level call), pooled
 * over the runs: mean with the half-width of its 95 % confidence interval (normal
 * approximation, 1.96 standard errors), median and quartiles (nearest rank), minimum and maximum.
 *
 * @param n how many calls the figures are of
 */
record Stats(long n, double mean, double ci95, double median, double q1, double q3, double min, double max, double variance) {
    private static final double Z95 = 1.959964;

    /** The statistics of {@code values} (sorted in place). */
    static Stats of(int[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        Arrays.sort(values);
        long n = values.length;
        double sum = 0;
        for (int v : values) {
            sum += v;
        }
        double mean = sum / n;
        double squares = 0;
        for (int v : values) {
            double d = v - mean;
            squares += d * d;
        }
        double variance = n > 1 ? squares / (n - 1) : 0;
        return new Stats(n, mean, Z95 * Math.sqrt(variance / n), quantile(values, 0.5), quantile(values, 0.25),
                quantile(values, 0.75), values[0], values[values.length - 1], variance);
    }

    /** The value at rank ceil(p * n) of the sorted values (nearest rank). */
    static double quantile(int[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** Half-width of the 95 % confidence interval of {@code mean - other.mean} (independent samples). */
    double ci95OfDifference(Stats other) {
        return Z95 * Math.sqrt(variance / n + other.variance / other.n);
    }
}
