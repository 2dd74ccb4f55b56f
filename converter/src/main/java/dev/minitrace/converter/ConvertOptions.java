package dev.minitrace.converter;

import dev.minitrace.converter.mtlog.MtlogFormat;
import java.util.Locale;
import java.util.Set;

/**
 * What to convert and how.
 *
 * @param globalLayout true for the global logger layout, false for one stream per thread
 * @param fragments    which GCs start a fragment
 * @param from         start of the time window (inclusive), or null for the recording's start
 * @param to           end of the time window (exclusive), or null for the recording's end
 * @param threads      thread names or ids (JFR thread id or Java thread id) to keep, or null for all
 * @param typeMask     bit {@code 1 << type} set for every record type to write
 */
public record ConvertOptions(boolean globalLayout, FragmentPolicy fragments, TimeBound from, TimeBound to,
        Set<String> threads, int typeMask) {
    /** Every base record type. */
    public static final int ALL_TYPES = 0b111_1110 | ConvertOptions.ARRAY_TYPES | ConvertOptions.HEAP_TYPES;
    /** The array lengths (26) and the sites in untraced methods (27), which go with the allocations. */
    public static final int ARRAY_TYPES = 1 << MtlogFormat.ARRAY_LENGTH | 1 << MtlogFormat.ALLOC_SITE;
    /** The exception records (16-18). */
    public static final int EXCEPTION_TYPES = 0b111 << MtlogFormat.EXCEPTION_THROW;
    /** The reference store records (19-23). */
    public static final int STORE_TYPES = 0b1_1111 << MtlogFormat.FIELD_STORE;
    /** The object deaths (24). */
    public static final int DEATH_TYPES = 1 << MtlogFormat.OBJECT_DEATH;
    /** The method receivers (25). */
    public static final int RECEIVER_TYPES = 1 << MtlogFormat.METHOD_RECEIVER;
    /** Every heap record type. */
    public static final int HEAP_TYPES = EXCEPTION_TYPES | STORE_TYPES | DEATH_TYPES | RECEIVER_TYPES;

    /** The defaults: thread layout, moving fragments, everything. */
    public static ConvertOptions defaults() {
        return new ConvertOptions(false, FragmentPolicy.MOVING, null, null, null, ALL_TYPES);
    }

    /** The type mask of a comma-separated subset of {@code method,lock,alloc,gc}. */
    public static int parseEvents(String list) {
        int mask = 0;
        for (String s : list.split(",")) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "method" -> mask |= 1 << MtlogFormat.METHOD_ENTRY | 1 << MtlogFormat.METHOD_EXIT;
                case "lock" -> mask |= 1 << MtlogFormat.LOCK_ACQUIRE | 1 << MtlogFormat.LOCK_RELEASE;
                case "alloc" -> mask |= 1 << MtlogFormat.OBJECT_ALLOC | ARRAY_TYPES;
                case "gc" -> mask |= 1 << MtlogFormat.GC_TIMESTAMP;
                case "exception" -> mask |= EXCEPTION_TYPES;
                case "field" -> mask |= STORE_TYPES;
                case "death" -> mask |= DEATH_TYPES;
                case "receiver" -> mask |= RECEIVER_TYPES;
                default -> throw new IllegalArgumentException("unknown event kind '" + s.trim()
                        + "' (expected a comma-separated subset of method,lock,alloc,gc,exception,field,death,receiver)");
            }
        }
        return mask;
    }
}
