package dev.minitrace.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code mt} command line: one picocli command per subcommand, each in its own class. Exit
 * statuses are listed by {@link ExitCodes} and printed by {@code mt --help}.
 */
@Command(
        name = "mt",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "MiniTrace: trace a JVM with JFR, convert the recording to MiniTracing's .mtlog, export it to Parquet and query it with SQL.",
        subcommands = {
            RunCommand.class,
            DemoCommand.class,
            ConvertCommand.class,
            RecoverCommand.class,
            QueryCommand.class,
            PrintCommand.class,
            SummaryCommand.class,
            DiffCommand.class,
            ExportCommand.class,
            ReportCommand.class,
            AttachCommand.class,
            StopCommand.class,
            DumpCommand.class,
            ListCommand.class,
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:success",
            "1:the command failed (the message says why)",
            "2:bad command line (unknown option, missing or malformed argument)",
            "3:the input was truncated or lost data; everything complete was converted",
        })
public final class Main {
    private Main() {
    }

    /** Runs {@code mt} with the given arguments and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs {@code mt} with the given arguments and returns the exit status (for tests). */
    public static int run(String... args) {
        return Cli.commandLine(new Main()).execute(args);
    }
}
