package dev.minitrace.views.report;

import dev.minitrace.converter.jfr.JvmFacts;
import java.util.List;

/**
 * What the page says about where the trace came from, beside the aggregate.
 *
 * @param input     the input file's name
 * @param inputKind {@code JFR recording} or {@code .mtlog}
 * @param facts     the JVM and its collectors
 * @param warnings  the conversion's (or the file's) warnings, one line each
 * @param lostData  true when the recording lost data or was truncated
 */
public record ReportContext(String input, String inputKind, JvmFacts facts, List<String> warnings, boolean lostData) {
}
