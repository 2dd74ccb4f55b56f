package dev.minitrace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every subcommand's {@code --help} reads well and lists its exit statuses; {@code mt attach}'s own bad arguments. */
class HelpTextTest {
    @TempDir
    Path dir;

    @Test
    void descriptionsFitTheHelpWidthAndStartWithACompleteSentence() {
        CommandLine mt = Cli.commandLine(Main.class);
        int width = mt.getUsageHelpWidth();
        for (Map.Entry<String, CommandLine> e : mt.getSubcommands().entrySet()) {
            String[] lines = e.getValue().getCommandSpec().usageMessage().description();
            // 'mt --help' shows only the first line: it must not stop mid-sentence
            assertTrue(lines[0].endsWith("."), () -> e.getKey() + ": first description line is not a sentence: " + lines[0]);
            for (int i = 1; i < lines.length; i++) {
                // lines after the first are laid out by hand: picocli would break a longer one
                // mid-sentence and leave a ragged half-line before the next
                String line = lines[i];
                assertTrue(line.length() <= width, () -> e.getKey() + ": description line longer than " + width + ": " + line);
            }
        }
    }

    /**
     * Wrapping may only turn spaces into line breaks: the words of each help at the real width are
     * the words of the same help laid out on lines too long to wrap. (picocli's line breaker also
     * breaks after a '.' or '/', which split ".mtlog" and "minitrace.MethodCapture".)
     */
    @Test
    void helpTextsNeverBreakAWordOrAFileExtension() {
        CommandLine mt = Cli.commandLine(Main.class);
        CommandLine wideMt = Cli.commandLine(Main.class);
        java.util.List<String> names = new java.util.ArrayList<>(mt.getSubcommands().keySet());
        names.add(null);
        for (String name : names) {
            CommandLine c = name == null ? mt : mt.getSubcommands().get(name);
            CommandLine wide = name == null ? wideMt : wideMt.getSubcommands().get(name);
            String wrapped = c.getUsageMessage();
            wide.setUsageHelpWidth(2000);
            String unwrapped = wide.getUsageMessage();
            assertEquals(java.util.List.of(unwrapped.trim().split("\\s+")), java.util.List.of(wrapped.trim().split("\\s+")),
                    () -> c.getCommandName() + " --help breaks a word:\n" + wrapped);
        }
    }

    @Test
    void everySubcommandListsItsExitStatuses() {
        for (Map.Entry<String, CommandLine> e : Cli.commandLine(Main.class).getSubcommands().entrySet()) {
            String help = e.getValue().getUsageMessage();
            assertTrue(help.contains("Exit status:"), () -> e.getKey() + " --help lists no exit status:\n" + help);
        }
    }

    @Test
    void attachWithAMissingJfcIsAUsageErrorNamingTheFile() {
        Path none = dir.resolve("none.jfc");
        CommandOutcome o = CommandOutcome.of(new AttachCommand(), "1", "--jfc", none.toString());
        assertEquals(ExitCodes.USAGE, o.status(), o::toString);
        assertEquals("attach: --jfc " + none + ": no such file", o.err().strip());
    }
}
