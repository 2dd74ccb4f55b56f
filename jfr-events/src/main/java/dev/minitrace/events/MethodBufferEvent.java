package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timestamp;

/**
 * A run of one thread's method entries and exits, packed into a string: the agent's default way of
 * recording method events, one JFR event per few hundred records instead of one per record (see
 * {@code docs/trace-buffer.md} for the record encoding). The event may be committed by another
 * thread than the traced one (at a chunk boundary the recorder flushes every thread's buffer), so
 * the traced thread is a field.
 */
@Name(MethodBufferEvent.NAME)
@Label("Method Trace Buffer")
@Description("Packed method entry and exit records of one thread, in the order the thread produced them")
@Category({"MiniTrace", "Methods"})
@StackTrace(false)
@Enabled(false)
public final class MethodBufferEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodBuffer";

    @Label("Traced Thread")
    @Description("The thread that produced the records")
    public Thread tracedThread;

    @Label("Traced Thread Id")
    @Description("Thread.getId() of the thread that produced the records (JDK 17 writes no Thread field for a thread that has ended)")
    public long tracedThreadId;

    @Label("Traced Thread Name")
    @Description("Name of the thread that produced the records, for the same reason")
    public String tracedThreadName;

    @Label("First Sequence")
    @Description("Per-thread sequence number of the first record; the records have consecutive numbers")
    public long firstSequence;

    @Label("Record Count")
    @Description("Number of records packed in this event")
    public int recordCount;

    @Label("Base Time")
    @Description("The traced thread's last timestamp before the first record; time deltas start from it")
    @Timestamp(Timestamp.TICKS)
    public long baseTime;

    @Label("Ticks Per Second")
    @Description("Frequency of the tick counter that the time deltas in the records count")
    public long ticksPerSecond;

    @Label("Records")
    @Description("The packed records (every char below 128)")
    public String records;
}
