package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * Resolves a method id to its class, name and descriptor. The agent commits one when it
 * instruments a method and again for every known method at the start and end of every chunk, so
 * that each chunk (and so each dump or rotation-cut part of a recording) resolves its own ids.
 */
@Name(MethodDefinitionEvent.NAME)
@Label("Method Definition")
@Description("Maps a MiniTrace method id to its class, method name and descriptor")
@Category({"MiniTrace", "Definitions"})
@StackTrace(false)
@Period("everyChunk")
public final class MethodDefinitionEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodDefinition";

    /** {@link #returnBci} of a method with no return instruction or several. */
    public static final int NO_RETURN_BCI = -1;

    @Label("Method Id")
    @Description("The id that method events carry")
    public int methodId;

    @Label("Class Name")
    @Description("Binary name of the declaring class, with dots (java.lang.String)")
    public String className;

    @Label("Method Name")
    @Description("Name as in the class file: <init> for constructors, <clinit> for static initializers")
    public String methodName;

    @Label("Descriptor")
    @Description("JVM method descriptor, for example (ILjava/lang/String;)V")
    public String descriptor;

    @Label("Modifiers")
    @Description("Access flags of the method as in the class file")
    public int modifiers;

    /**
     * The bytecode index of the method's only return instruction, or {@link #NO_RETURN_BCI}: the
     * exit records of kind {@code DEFINED_EXIT} ({@code docs/trace-buffer.md}) leave it out. The
     * value of an id changes at most once, from -1 to an index, and never back.
     */
    @Label("Return Bytecode Index")
    @Description("Bytecode index of the method's only return instruction, -1 when it has none or several")
    public int returnBci = NO_RETURN_BCI;
}
