package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An exception handler of traced code starts, whoever threw (per-event form; packed records carry the same
 * as a heap record, {@code docs/trace-buffer.md}). Takes two sequence numbers: the handler, then
 * the exception object, as the converter writes them.
 */
@Name(ExceptionHandledEvent.NAME)
@Label("Exception Handled")
@Description("An exception handler of traced code starts")
@Category({"MiniTrace", "Exceptions"})
@StackTrace(false)
@Enabled(false)
public final class ExceptionHandledEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ExceptionHandled";

    @Label("Method Id")
    @Description("The catching method")
    public int methodId;

    @Label("Bytecode Index")
    @Description("Bytecode index of the handler's first instruction")
    public int bytecodeIndex;

    @Label("Exception Class")
    public Class<?> exceptionClass;

    @Label("Identity Hash")
    @Description("System.identityHashCode of the exception")
    public int identityHash;

    @Label("Sequence")
    @Description("Per-thread sequence number of the first of the two numbers this event takes")
    public long sequence;
}
