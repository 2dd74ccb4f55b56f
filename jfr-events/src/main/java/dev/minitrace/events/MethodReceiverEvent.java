package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The receiver ({@code this}) of an instance method entered just before (agent option
 * {@code events=…+receiver}; per-event form, packed records carry the same as heap record kind 4,
 * {@code docs/trace-buffer.md}).
 */
@Name(MethodReceiverEvent.NAME)
@Label("Method Receiver")
@Description("The receiver of the instance method whose entry comes just before in the thread's sequence")
@Category({"MiniTrace", "Methods"})
@StackTrace(false)
@Enabled(false)
public final class MethodReceiverEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodReceiver";

    @Label("Method Id")
    public int methodId;

    @Label("Receiver Class")
    public Class<?> receiverClass;

    @Label("Identity Hash")
    @Description("System.identityHashCode of the receiver")
    public int identityHash;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
