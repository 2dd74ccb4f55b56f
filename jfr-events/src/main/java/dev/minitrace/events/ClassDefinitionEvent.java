package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * Resolves a class id used by the object records of {@link MethodBufferEvent}s (see
 * {@code docs/trace-buffer.md}). Committed when the agent first meets the class and again at the
 * start and end of every chunk, so that each chunk resolves its own ids.
 */
@Name(ClassDefinitionEvent.NAME)
@Label("Class Definition")
@Description("Name of a class that buffered lock and allocation records refer to by id")
@Category({"MiniTrace", "Definitions"})
@StackTrace(false)
@Period("everyChunk")
public final class ClassDefinitionEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ClassDefinition";

    @Label("Class Id")
    @Description("Id of the class in the object records of minitrace.MethodBuffer events")
    public int classId;

    @Label("Class Name")
    @Description("Class.getName(): binary name with dots, arrays as [I or [Ljava.lang.String;")
    public String className;
}
