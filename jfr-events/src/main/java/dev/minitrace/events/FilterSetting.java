package dev.minitrace.events;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingControl;

/**
 * The {@code filter} setting of {@code minitrace.MethodEntry}: which methods the MiniTrace agent
 * instruments, in the agent's filter syntax ({@code com.acme.*;com.foo.Bar::baz;@pkg.Annotation}),
 * carried by the recording's own settings — {@code minitrace.MethodEntry#filter=com.acme.*} in a
 * {@code .jfc}, on {@code -XX:StartFlightRecording} or on {@code jcmd JFR.start}.
 *
 * <p>Several running recordings trace the union of their filters; a recording that does not set
 * the filter (empty value) adds nothing to the union. A new value is the agent's signal to
 * recompute the selection; the agent reads the filters from the running recordings' own settings
 * rather than trusting the value, because JDK 17's JFR drops what {@link #combine} returns for a
 * setting defined outside the JDK and passes null instead (fixed in later JDKs). JFR instantiates
 * this class itself, so it is public with a public no-argument constructor.
 */
@Name("filter")
@Label("Filter")
@Description("Methods the MiniTrace agent instruments, e.g. com.acme.*;com.foo.Bar::baz (empty: the agent's include= option)")
public final class FilterSetting extends SettingControl {
    private static volatile Consumer<String> listener;
    private static volatile String last = "";

    private String value = "";

    /** Called by JFR. */
    public FilterSetting() {
    }

    /** The union of the non-empty filters, each filter once, in a stable order. */
    @Override
    public String combine(Set<String> values) {
        Set<String> union = new TreeSet<>();
        for (String v : values) {
            if (v == null) {
                continue;
            }
            for (String f : v.split(";")) {
                String t = f.trim();
                if (!t.isEmpty()) {
                    union.add(t);
                }
            }
        }
        return String.join(";", union);
    }

    @Override
    public void setValue(String settingValue) {
        String v = settingValue == null ? "" : settingValue;
        value = v;
        last = v;
        Consumer<String> l = listener;
        if (l != null) {
            try {
                l.accept(v);
            } catch (Throwable ignored) {
                // A failing listener must not fail the recording.
            }
        }
    }

    @Override
    public String getValue() {
        return value;
    }

    /**
     * Registers the one listener told every combined value from now on (null: none), and tells it
     * the current value at once.
     */
    public static void listen(Consumer<String> newListener) {
        listener = newListener;
        if (newListener != null) {
            newListener.accept(last);
        }
    }

    /** The last combined value JFR set ({@code ""} before any). */
    public static String current() {
        return last;
    }
}
