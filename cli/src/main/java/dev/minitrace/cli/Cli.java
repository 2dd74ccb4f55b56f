package dev.minitrace.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Builds picocli command lines that follow MiniTrace's error rules: a bad command line or a
 * failure prints one line on stderr (never a stack trace) and exits non-zero.
 */
public final class Cli {
    private Cli() {
    }

    /** A command line for {@code command} with MiniTrace's error handlers installed. */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(c.getCommandName() + ": " + ex.getMessage() + " (see '" + c.getCommandName() + " --help')");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
            c.getErr().println(c.getCommandName() + ": " + msg);
            if (Boolean.getBoolean("minitrace.debug")) {
                ex.printStackTrace(c.getErr());
            }
            return ex instanceof CliException ce ? ce.exitCode() : ExitCodes.FAILED;
        });
        wrapAtSpacesOnly(cl);
        return cl;
    }

    /** The help sections whose text picocli wraps. */
    private static final List<String> WRAPPED = List.of(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER,
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION, CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST,
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST,
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST, CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER);

    /**
     * picocli's line breaker also breaks after a '.' or '/' inside a word ("MiniTracing's ." /
     * "mtlog."), so these sections are laid out by picocli on unlimited lines and wrapped here, at
     * spaces only, each continuation line indented to the column its text started in.
     */
    private static void wrapAtSpacesOnly(CommandLine cl) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = cl.getHelpSectionMap();
        for (String key : WRAPPED) {
            CommandLine.IHelpSectionRenderer picocli = sections.get(key);
            if (picocli == null) {
                continue;
            }
            sections.put(key, help -> {
                CommandLine.Model.UsageMessageSpec usage = help.commandSpec().usageMessage();
                int width = usage.width();
                usage.width(UNLIMITED);
                String wide;
                try {
                    wide = picocli.render(new CommandLine.Help(help.commandSpec(), help.colorScheme()));
                } finally {
                    usage.width(width);
                }
                return wrap(wide, width);
            });
        }
        cl.setHelpSectionMap(sections);
        for (CommandLine sub : cl.getSubcommands().values()) {
            wrapAtSpacesOnly(sub);
        }
    }

    private static final int UNLIMITED = 10_000;

    /** Wraps each line of {@code text} at spaces to {@code width}; see {@link #wrapAtSpacesOnly}. */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder(text.length() + 64);
        String nl = System.lineSeparator();
        for (String line : text.split("\\R", -1)) {
            if (line.length() <= width) {
                out.append(line).append(nl);
                continue;
            }
            // The text column: after the leading spaces, or after the first gap of two spaces (a
            // table row: option, command or exit status, then its description).
            int lead = 0;
            while (lead < line.length() && line.charAt(lead) == ' ') {
                lead++;
            }
            int gap = line.indexOf("  ", lead);
            int indent = lead;
            if (gap > 0) {
                indent = gap;
                while (indent < line.length() && line.charAt(indent) == ' ') {
                    indent++;
                }
            }
            if (indent >= width / 2) {
                indent = lead;
            }
            String rest = line;
            String prefix = "";
            while (prefix.length() + rest.length() > width) {
                int room = width - prefix.length();
                int cut = rest.lastIndexOf(' ', room);
                if (cut <= (prefix.isEmpty() ? indent : 0)) {
                    // one word longer than the line: left whole, never cut
                    cut = rest.indexOf(' ', room);
                    if (cut < 0) {
                        break;
                    }
                }
                out.append(prefix).append(rest, 0, cut).append(nl);
                int next = cut;
                while (next < rest.length() && rest.charAt(next) == ' ') {
                    next++;
                }
                rest = rest.substring(next);
                prefix = " ".repeat(indent);
            }
            out.append(prefix).append(rest).append(nl);
        }
        // split kept the text's own last line end as an empty last element
        out.setLength(out.length() - nl.length());
        return out.toString();
    }
}
