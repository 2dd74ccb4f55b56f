package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * Resolves a field id of reference store records. Committed when the agent first instruments a
 * store to the field and again at the start and end of every chunk, so that each chunk resolves
 * its own ids.
 */
@Name(FieldDefinitionEvent.NAME)
@Label("Field Definition")
@Description("Maps a MiniTrace field id to its class, name and descriptor")
@Category({"MiniTrace", "Definitions"})
@StackTrace(false)
@Period("everyChunk")
public final class FieldDefinitionEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.FieldDefinition";

    @Label("Field Id")
    public int fieldId;

    @Label("Class Name")
    @Description("Binary name of the class the store instruction names, with dots")
    public String className;

    @Label("Field Name")
    public String fieldName;

    @Label("Descriptor")
    @Description("JVM field descriptor, for example Ljava/lang/String;")
    public String descriptor;

    @Label("Static")
    public boolean isStatic;
}
