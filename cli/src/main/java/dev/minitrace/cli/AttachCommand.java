package dev.minitrace.cli;

import dev.minitrace.attach.AttachFailure;
import dev.minitrace.attach.AttachRequests;
import dev.minitrace.attach.TargetJvm;
import dev.minitrace.launch.MiniTraceHome;
import dev.minitrace.wire.AttachRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt attach}: loads the agent into a running JVM and starts the {@code minitrace} recording. */
@Command(
        name = "attach",
        mixinStandardHelpOptions = true,
        abbreviateSynopsis = true,
        sortOptions = false,
        description = {
            "Starts tracing a running JVM (Java 17 or later, same user) without restarting it.",
            "",
            "Loads the MiniTrace agent through the JDK's Attach API, instruments the loaded",
            "classes the filters select (and those loaded later), and starts a JFR recording",
            "named 'minitrace' (no size limit). Tracing ends after --duration, or with",
            "'mt stop PID': the recording is written to --out and every changed class gets",
            "its original bytecode back. 'mt dump PID FILE' writes what it holds so far.",
            "",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:tracing started (with --duration: ended and the recording written)",
            "1:attach failed (no such process, not a JVM, attach refused, Java < 17, already attached, bad filter); the target runs on untouched",
            "2:bad command line (unknown option, malformed value, non-numeric PID)",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mt attach 12345 --include 'com.acme.*' --duration 30s --out acme.jfr",
            "  mt attach 12345 --capture 'com.acme.OrderService::place'; ...; mt stop 12345",
            "  mt attach 12345 --capture 'com.acme.Auth::login' --redact 'value:\\d{13,16}'",
        })
public final class AttachCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the JVM (see 'mt list')")
    long pid;

    @Option(names = "--include", paramLabel = "FILTER",
            description = "Trace only these (repeatable, or joined by ';'): pkg.Class, pkg.Class::method,"
                    + " ::method, @pkg.Annotation, with * (com.acme.*). Default: every class not loaded"
                    + " by the JDK's bootstrap or platform loader")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "FILTER", description = "Do not trace these (same syntax; repeatable)")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--events", paramLabel = "KIND", split = ",",
            description = "What to instrument: method, lock, alloc (default: all three)")
    List<String> events = new ArrayList<>();

    @Option(names = "--capture", paramLabel = "FILTER",
            description = "Record arguments, return value or exception, duration and stack of these methods"
                    + " as minitrace.MethodCapture events (same syntax; repeatable)")
    List<String> captures = new ArrayList<>();

    @Option(names = "--redact", paramLabel = "RULE",
            description = "Never write these captured values, shown as <redacted> (repeatable): pkg.Class::method#N"
                    + " (parameter N, from 1), #N (of every captured method), name:GLOB (parameters by name,"
                    + " when the class file has names), type:CLASS (char[], javax.crypto.*, com.acme.Card),"
                    + " value:REGEX (values whose text matches), nodefaults. Added to the defaults:"
                    + " parameters named *password*, *passwd*, *secret*, *token*, *key*, *credential*;"
                    + " values of char[], javax.crypto.* and java.security.Key")
    List<String> redacts = new ArrayList<>();

    @Option(names = "--jfc", paramLabel = "FILE",
            description = "JFR settings (default: <home>/jfc-profiles/minitrace.jfc); read by the target JVM")
    Path jfc;

    @Option(names = "--out", paramLabel = "FILE.jfr", defaultValue = "minitrace.jfr",
            description = "Where the recording is written when tracing ends (default: ${DEFAULT-VALUE});"
                    + " written by the target JVM, replaced if it exists")
    Path out;

    @Option(names = "--all-loaders",
            description = "Also trace classes of loaders that cannot see the application class loader (a null"
                    + " or platform parent: OSGi bundles, build tools' realms): the agent goes on the target's"
                    + " bootstrap path, for which the JVM prints a warning and stops sharing (CDS) the application"
                    + " classes it loads afterwards")
    boolean allLoaders;

    @Option(names = "--duration", paramLabel = "TIME",
            description = "End after this long (500ms, 30s, 5m, 1h); mt waits and reports. Default: until 'mt stop PID'")
    String duration;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Duration d;
        String options;
        try {
            d = duration == null ? null : AttachRequests.parseDuration(duration);
            options = AttachRequests.agentOptions(includes, excludes, events, captures, redacts);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), ExitCodes.USAGE);
        }
        if (jfc != null && !java.nio.file.Files.isRegularFile(jfc)) {
            // the user's own file: a usage error like mt run's, not a "build the project" hint
            throw new CliException("--jfc " + jfc + ": no such file", ExitCodes.USAGE);
        }
        MiniTraceHome home = MiniTraceHome.locate();
        // The bootstrap-path jar (Boot-Class-Path) only when asked: 'mt stop' always loads the other
        // one, whose classes then resolve to whichever copy this attach loaded.
        Path agent = home.require(allLoaders ? home.agentJar() : home.attachAgentJar(), "the agent jar");
        Path settings = jfc != null ? home.require(jfc.toAbsolutePath(), "--jfc")
                : home.require(home.profile(MiniTraceHome.DEFAULT_PROFILE), "the default profile");
        Path target = out.toAbsolutePath();
        if (!java.nio.file.Files.isDirectory(target.getParent())) {
            throw new CliException("--out " + out + ": no folder " + target.getParent(), ExitCodes.USAGE);
        }
        try (TargetJvm vm = TargetJvm.attach(pid)) {
            String state = vm.agentState();
            if (AttachRequest.STATE_ATTACHED.equals(state)) {
                throw new AttachFailure("MiniTrace is already attached to JVM " + pid + " (end it with 'mt stop " + pid + "')");
            }
            if (AttachRequest.STATE_PREMAIN.equals(state)) {
                throw new AttachFailure("JVM " + pid + " already runs the MiniTrace agent (-javaagent); use 'mt dump "
                        + pid + " FILE.jfr' for its recording");
            }
            String before = vm.systemProperties().getProperty(AttachRequest.LAST_PROPERTY);
            String answer = vm.request(agent, AttachRequests.start(options, settings, target, d));
            err.println("attach: JVM " + pid + ": " + answer);
            err.println("attach: " + CrashHint.text(pid, vm.systemProperties().getProperty("java.io.tmpdir"), null));
            if (d == null) {
                err.println("attach: end it with 'mt stop " + pid + "'");
                err.flush();
                return ExitCodes.OK;
            }
            err.flush();
            return awaitEnd(vm, before, err);
        } catch (AttachFailure e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }

    /** Waits until the agent reports the session's end (it ends the session itself when the duration passes). */
    private int awaitEnd(TargetJvm vm, String before, PrintWriter err) throws InterruptedException {
        while (true) {
            Thread.sleep(200);
            java.util.Properties p;
            try {
                p = vm.systemProperties();
            } catch (AttachFailure e) {
                throw new CliException("JVM " + pid + " ended before tracing did; the recording may not be written", ExitCodes.FAILED);
            }
            String last = p.getProperty(AttachRequest.LAST_PROPERTY);
            if (p.getProperty(AttachRequest.STATE_PROPERTY) == null && last != null && !Objects.equals(last, before)) {
                err.println("attach: JVM " + pid + ": " + last);
                err.flush();
                return last.startsWith("recording written") ? ExitCodes.OK : ExitCodes.FAILED;
            }
        }
    }
}
