package dev.minitrace.bench.apps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.sourceforge.pmd.PMDConfiguration;
import net.sourceforge.pmd.PmdAnalysis;
import net.sourceforge.pmd.reporting.Report;
import net.sourceforge.pmd.reporting.RuleViolation;

/**
 * The static analyser app of {@code bench/run apps}: PMD analyses a real library's sources with
 * a ruleset {@code REPEATS} times in one JVM (PMD's own worker threads, one per core; no
 * incremental cache). Checksum: every violation (file, line, column, rule, message), sorted, so
 * the order in which the worker threads report them does not matter.
 *
 * <p>Usage: {@code PmdApp SRC_DIR RULESETS REPEATS}. Prints {@code RESULT <checksum> <violations>}.
 */
public final class PmdApp {
    private PmdApp() {
    }

    /** Entry point of the child JVM. */
    public static void main(String[] args) {
        Path src = Path.of(args[0]).toAbsolutePath();
        String rulesets = args[1];
        int repeats = Integer.parseInt(args[2]);
        String checksum = null;
        int count = 0;
        for (int i = 0; i < repeats; i++) {
            long t0 = System.nanoTime();
            PMDConfiguration config = new PMDConfiguration();
            config.addInputPath(src);
            for (String rs : rulesets.split(",")) {
                config.addRuleSet(rs);
            }
            config.setIgnoreIncrementalAnalysis(true);
            Report report;
            try (PmdAnalysis pmd = PmdAnalysis.create(config)) {
                report = pmd.performAnalysisAndCollectReport();
            }
            if (!report.getConfigurationErrors().isEmpty() || !report.getProcessingErrors().isEmpty()) {
                throw new IllegalStateException("PMD reported " + report.getConfigurationErrors().size() + " configuration and "
                        + report.getProcessingErrors().size() + " processing errors: " + report.getProcessingErrors());
            }
            List<String> lines = new ArrayList<>();
            String prefix = src.toString();
            for (RuleViolation v : report.getViolations()) {
                String file = v.getFileId().getAbsolutePath();
                if (file.startsWith(prefix)) {
                    file = file.substring(prefix.length());
                }
                lines.add(file + ":" + v.getBeginLine() + ":" + v.getBeginColumn() + ":" + v.getRule().getName() + ":" + v.getDescription());
            }
            lines.sort(null);
            Checksums sum = new Checksums();
            lines.forEach(sum::add);
            String now = sum.hex();
            if (checksum != null && !checksum.equals(now)) {
                throw new IllegalStateException("repeat " + (i + 1) + " found different violations: " + now + " after " + checksum);
            }
            checksum = now;
            count = lines.size();
            // Per repeat, to tell one-time costs (class loading, rewriting, JIT) from steady-state ones.
            System.out.printf(java.util.Locale.ROOT, "REPEAT %d %.3f s%n", i + 1, (System.nanoTime() - t0) / 1e9);
        }
        System.out.println("RESULT " + checksum + " " + count);
    }
}
