package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * Resolves a class id used by the object records of {@link MethodBufferEvent}s (see
 * {@code docs/trace-buffer.md}) and gives the JVM's shallow size of its objects. Committed when
 * the agent first meets the class, again once it measured the size of an allocated instance, and
 * at the start and end of every chunk, so that each chunk resolves its own ids.
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

    @Label("Instance Size")
    @Description("Bytes of an instance as Instrumentation.getObjectSize measures it (its first recorded instance); "
            + "for an array class the offset of element 0; 0 when not measured")
    public int instanceSize;

    @Label("Element Size")
    @Description("Bytes per element of an array class; 0 for other classes")
    public int elementSize;

    @Label("Object Alignment")
    @Description("Bytes every object's size is rounded up to; an array's size is "
            + "instanceSize + length * elementSize rounded up to it; 0 when not measured")
    public int objectAlignment;
}
