package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A traced method, constructor or static initializer was entered. */
@Name(MethodEntryEvent.NAME)
@Label("Method Entry")
@Description("A traced method, constructor or static initializer was entered")
@Category({"MiniTrace", "Methods"})
@StackTrace(false)
@Enabled(false)
public final class MethodEntryEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodEntry";

    @Label("Method Id")
    @Description("Id of the method; resolved by the minitrace.MethodDefinition events of the same chunk")
    public int methodId;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
