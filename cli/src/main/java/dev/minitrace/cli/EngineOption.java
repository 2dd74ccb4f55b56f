package dev.minitrace.cli;

import dev.minitrace.converter.jfr.Engines;
import dev.minitrace.converter.jfr.RecordingSource;
import picocli.CommandLine.Option;

/** The hidden {@code --engine NAME}: the JFR reader a command uses, for comparing the engines on one input. */
final class EngineOption {
    @Option(names = "--engine", hidden = true, defaultValue = Engines.DEFAULT, description = "The JFR reading engine.")
    String name;

    /** The engine named; an unknown name is a usage error. */
    RecordingSource source() {
        return ConversionRun.engine(name);
    }
}
