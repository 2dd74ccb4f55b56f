package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One call of a method named by the agent's {@code capture=} option: the receiver and argument
 * values (their {@code toString}, bounded), the return value or the exception, the duration (the
 * event's own start and duration) and the stack trace at the method's exit (its depth is JFR's
 * global {@code stackdepth}; the {@code stackTrace} setting turns it off). It is a self-contained
 * summary of the call and takes no part in the per-thread {@code sequence} of the other minitrace
 * events.
 */
@Name(MethodCaptureEvent.NAME)
@Label("Method Capture")
@Description("A captured call: receiver, arguments, return value or exception, duration, stack trace")
@Category({"MiniTrace", "Methods"})
@StackTrace(true)
@Enabled(false)
public final class MethodCaptureEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodCapture";

    @Label("Method Id")
    @Description("Id of the method; resolved by the minitrace.MethodDefinition events of the same chunk")
    public int methodId;

    @Label("Method")
    @Description("Class and method name, e.g. com.acme.Shop::order")
    public String method;

    @Label("Descriptor")
    @Description("The method's JVM descriptor, e.g. (ILjava/lang/String;)V")
    public String descriptor;

    @Label("Receiver")
    @Description("toString of 'this' (absent for a static method), bounded in length")
    public String receiver;

    @Label("Arguments")
    @Description("The argument values as passed, each rendered by toString and bounded in length, joined by ', '")
    public String arguments;

    @Label("Return Value")
    @Description("toString of the returned value ('void' for a void method); absent when the call threw")
    public String returnValue;

    @Label("Thrown")
    @Description("The exception that ended the call (class: message); absent when it returned")
    public String thrown;
}
