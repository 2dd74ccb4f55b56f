package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An object whose allocation was recorded was reclaimed: the garbage collector found it
 * unreachable (its phantom reference was enqueued). Committed by the agent's death thread, in its
 * own sequence, shortly after the collection that found it (per-event form; packed records carry
 * the same as object record kind 3, {@code docs/trace-buffer.md}).
 */
@Name(ObjectDeathEvent.NAME)
@Label("Object Death")
@Description("An object whose allocation was recorded was found unreachable by the garbage collector")
@Category({"MiniTrace", "Heap"})
@StackTrace(false)
@Enabled(false)
public final class ObjectDeathEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ObjectDeath";

    @Label("Object Class")
    public Class<?> objectClass;

    @Label("Identity Hash")
    @Description("System.identityHashCode of the object")
    public int identityHash;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
