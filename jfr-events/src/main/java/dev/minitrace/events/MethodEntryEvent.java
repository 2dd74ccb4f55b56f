package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;

/** A traced method, constructor or static initializer was entered. */
@Name(MethodEntryEvent.NAME)
@Label("Method Entry")
@Description("A traced method, constructor or static initializer was entered")
@Category({"MiniTrace", "Methods"})
@StackTrace(false)
@Enabled(false)
public final class MethodEntryEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.MethodEntry";

    @Label("Method Id")
    @Description("Id of the method; resolved by the minitrace.MethodDefinition events of the same chunk")
    public int methodId;

    @Label("Sequence")
    @Description("Per-thread sequence number of this event among all minitrace events of its thread")
    public long sequence;

    /**
     * The {@code filter} setting (see {@link FilterSetting}): it selects what the agent
     * instruments and never filters single events, so it always accepts.
     */
    @Name("filter")
    @Label("Filter")
    @Description("Methods the MiniTrace agent instruments (JEP 520-style filters joined by ';'); several recordings trace the union")
    @SettingDefinition
    protected boolean filter(FilterSetting setting) {
        return true;
    }
}
