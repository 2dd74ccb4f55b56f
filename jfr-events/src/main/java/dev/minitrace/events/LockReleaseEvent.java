package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A monitor was released by traced code (a {@code synchronized} block or method), committed just before the monitor is released. */
@Name(LockReleaseEvent.NAME)
@Label("Lock Release")
@Description("A monitor was released by a synchronized block or method in traced code")
@Category({"MiniTrace", "Locks"})
@StackTrace(false)
@Enabled(false)
public final class LockReleaseEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.LockRelease";

    @Label("Monitor Class")
    @Description("Class of the monitor object")
    public Class<?> monitorClass;

    @Label("Monitor Identity Hash")
    @Description("System.identityHashCode of the monitor object")
    public int identityHash;

    @Label("Bytecode Index")
    @Description("Bytecode index of the monitorexit; 0 for a synchronized method")
    public int bytecodeIndex;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;
}
