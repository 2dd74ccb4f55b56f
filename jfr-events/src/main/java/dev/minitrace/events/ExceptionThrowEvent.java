package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Traced code throws an exception with {@code athrow} (per-event form; packed records carry the same
 * as a heap record, {@code docs/trace-buffer.md}). Takes two sequence numbers: the throw site, then
 * the exception object, as the converter writes them.
 */
@Name(ExceptionThrowEvent.NAME)
@Label("Exception Thrown")
@Description("Traced code threw an exception with athrow")
@Category({"MiniTrace", "Exceptions"})
@StackTrace(false)
@Enabled(false)
public final class ExceptionThrowEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ExceptionThrow";

    @Label("Method Id")
    @Description("The throwing method")
    public int methodId;

    @Label("Bytecode Index")
    @Description("Bytecode index of the athrow")
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
