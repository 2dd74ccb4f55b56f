package dev.minitrace.cli;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.minitrace.attach.AttachFailure;
import dev.minitrace.attach.TargetJvm;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mt list}: the local JVMs and whether MiniTrace is attached to each. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the local JVMs this user can attach to, with MiniTrace's state in each.",
            "",
            "  attached  tracing started by 'mt attach' (end it with 'mt stop PID')",
            "  agent     the agent was loaded with -javaagent (mt run)",
            "  -         MiniTrace is not loaded",
            "  ?         the JVM did not answer (refuses attach, older than Java 17, exiting)",
            "Reading the state attaches to each JVM briefly (it reads their system",
            "properties).",
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:listed", "2:bad command line"})
public final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        long self = ProcessHandle.current().pid();
        out.printf("%-8s %-9s %s%n", "PID", "MINITRACE", "MAIN");
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            long pid;
            try {
                pid = Long.parseLong(d.id());
            } catch (NumberFormatException e) {
                continue;
            }
            if (pid == self) {
                continue;
            }
            out.printf("%-8d %-9s %s%n", pid, state(pid), d.displayName().isEmpty() ? "(unknown)" : d.displayName());
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static String state(long pid) {
        try (TargetJvm vm = TargetJvm.attach(pid)) {
            String s = vm.agentState();
            return s == null ? "-" : s.equals("premain") ? "agent" : s;
        } catch (RuntimeException e) {
            return "?";
        }
    }
}
