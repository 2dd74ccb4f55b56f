package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Traced code allocated an object or array ({@code new}, {@code newarray}, {@code anewarray},
 * {@code multianewarray}); committed once the object exists, after its constructor returned.
 */
@Name(ObjectAllocEvent.NAME)
@Label("Object Allocation")
@Description("Traced code allocated an object or array; committed after the constructor returned")
@Category({"MiniTrace", "Allocations"})
@StackTrace(false)
@Enabled(false)
public final class ObjectAllocEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ObjectAlloc";

    @Label("Object Class")
    @Description("Class of the new object; the array class for arrays")
    public Class<?> objectClass;

    @Label("Identity Hash")
    @Description("System.identityHashCode of the new object")
    public int identityHash;

    @Label("Bytecode Index")
    @Description("Bytecode index of the allocating instruction")
    public int bytecodeIndex;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
