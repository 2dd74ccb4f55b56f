package dev.minitrace.cli;

import dev.minitrace.attach.AttachFailure;
import dev.minitrace.attach.AttachRequests;
import dev.minitrace.attach.TargetJvm;
import dev.minitrace.launch.MiniTraceHome;
import dev.minitrace.wire.AttachRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mt stop}: ends tracing started by {@code mt attach}. */
@Command(
        name = "stop",
        mixinStandardHelpOptions = true,
        description = {
            "Ends tracing started by 'mt attach' and restores the original bytecode.",
            "",
            "Writes the recording to the attach's --out, stops it, and gives every class the",
            "agent changed its original bytecode back.",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:recording written, bytecode restored",
            "1:no such process, not a JVM, or MiniTrace is not attached to it",
            "2:bad command line (unknown option, malformed value, non-numeric PID)",
        })
public final class StopCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the traced JVM")
    long pid;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        MiniTraceHome home = MiniTraceHome.locate();
        Path agent = home.require(home.attachAgentJar(), "the agent jar");
        try (TargetJvm vm = TargetJvm.attach(pid)) {
            if (!AttachRequest.STATE_ATTACHED.equals(vm.agentState())) {
                throw new AttachFailure("MiniTrace is not attached to JVM " + pid + " (nothing to stop)");
            }
            String answer = vm.request(agent, AttachRequests.stop());
            err.println("stop: JVM " + pid + ": " + answer);
            err.flush();
            return answer.startsWith("recording written") ? ExitCodes.OK : ExitCodes.FAILED;
        } catch (AttachFailure e) {
            throw new CliException(e.getMessage(), ExitCodes.FAILED);
        }
    }
}
