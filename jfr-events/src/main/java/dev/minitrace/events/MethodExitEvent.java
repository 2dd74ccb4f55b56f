package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A traced method returned normally or by an exception propagating out of it. */
@Name(MethodExitEvent.NAME)
@Label("Method Exit")
@Description("A traced method, constructor or static initializer returned, normally or by an exception")
@Category({"MiniTrace", "Methods"})
@StackTrace(false)
@Enabled(false)
public final class MethodExitEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodExit";

    @Label("Method Id")
    @Description("Id of the method; resolved by the minitrace.MethodDefinition events of the same chunk")
    public int methodId;

    @Label("Bytecode Index")
    @Description("Bytecode index of the return instruction; 0 for an exit by exception")
    public int bytecodeIndex;

    @Label("Exceptional")
    @Description("True when the method exited because an exception propagated out of it")
    public boolean exceptional;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
