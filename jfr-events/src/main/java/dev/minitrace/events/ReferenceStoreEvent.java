package dev.minitrace.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Traced code stores a reference into a field ({@code putfield}, {@code putstatic}) or an array
 * element ({@code aastore}) (per-event form; packed records carry the same as a heap record,
 * {@code docs/trace-buffer.md}). A null class means a null reference (or no holder: a static
 * field). Takes four sequence numbers: the site, the holder, the old and the new target.
 */
@Name(ReferenceStoreEvent.NAME)
@Label("Reference Store")
@Description("Traced code stored a reference into a field or an array element")
@Category({"MiniTrace", "Heap"})
@StackTrace(false)
@Enabled(false)
public final class ReferenceStoreEvent extends jdk.jfr.Event {
    /** The JFR event name. */
    public static final String NAME = "minitrace.ReferenceStore";

    @Label("Field Id")
    @Description("The field (minitrace.FieldDefinition), -1 for an array element")
    public int fieldId;

    @Label("Index")
    @Description("The array index; 0 for a field")
    public int index;

    @Label("Bytecode Index")
    @Description("Bytecode index of the store")
    public int bytecodeIndex;

    @Label("Holder Class")
    @Description("Class of the object or array stored into; null for a static field")
    public Class<?> holderClass;

    @Label("Holder Hash")
    public int holderHash;

    @Label("Old Target Class")
    @Description("Class of the reference overwritten; null when it was null")
    public Class<?> oldClass;

    @Label("Old Target Hash")
    public int oldHash;

    @Label("New Target Class")
    @Description("Class of the reference stored; null when it is null")
    public Class<?> newClass;

    @Label("New Target Hash")
    public int newHash;

    @Label("Sequence")
    @Description("Per-thread sequence number of the first of the four numbers this event takes")
    public long sequence;
}
