package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The length of the array whose {@link ObjectAllocEvent} the same thread committed just before
 * (per-event form; packed records carry it in heap record kind 5, {@code docs/trace-buffer.md}).
 * It takes the sequence number after the allocation's.
 */
@Name(ArrayLengthEvent.NAME)
@Label("Array Length")
@Description("Length of the array allocated by the thread's previous minitrace.ObjectAlloc event")
@Category({"MiniTrace", "Allocations"})
@StackTrace(false)
@Enabled(false)
public final class ArrayLengthEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ArrayLength";

    @Label("Length")
    @Description("Number of elements of the new array (its first dimension for multianewarray)")
    public int length;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
