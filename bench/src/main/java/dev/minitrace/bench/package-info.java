/**
 * MiniTrace's benchmarks. Each compares against a baseline measured in the same run, in child
 * JVMs, rounds interleaved so that machine noise hits every configuration alike; figures are
 * medians. Run them with {@code bench/run overhead} and {@code bench/run convert}.
 */
package dev.minitrace.bench;
